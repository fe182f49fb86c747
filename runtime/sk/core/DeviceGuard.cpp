//===--- DeviceGuard.cpp - Switch the current device for a scope ----------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/core/DeviceGuard.h"
#include "sk/util/Exception.h"

#include <exception>

namespace sk {

void impl::registerDeviceGuardImpl(DeviceType T,
                                   const DeviceGuardImplInterface *Impl) {
  SK_CHECK(!Impl || Impl->type() == T,
           "registerDeviceGuardImpl: an impl for device type '",
           toString(Impl ? Impl->type() : T),
           "' cannot be registered for device type '", toString(T), "'");
  detail::deviceGuardImplSlot(T).store(Impl, std::memory_order_release);
}

void synchronizeDevice(Device D) {
  if (const impl::DeviceGuardImplInterface *Impl =
          impl::getDeviceGuardImpl(D.type()))
    Impl->synchronizeDevice(D);
}

void impl::DeviceGuardImplInterface::uncheckedSetDevice(
    Device D) const noexcept {
  try {
    setDevice(D);
  } catch (const std::exception &E) {
    try {
      SK_WARN("could not restore the current ", toString(D.type()),
              " device to '", D, "': ", E.what());
    } catch (...) {
      // Nothing left to report it with.
    }
  }
}

/// Makes \p D current through \p Impl; returns the device to restore and
/// the device now current. A device without an index changes nothing.
static std::pair<Device, Device>
enterDevice(const impl::DeviceGuardImplInterface &Impl, Device D) {
  if (!D.has_index()) {
    Device Now = Impl.getDevice();
    return {Now, Now};
  }
  return {Impl.exchangeDevice(D), D};
}

void DeviceGuard::enter(Device D) {
  auto [Old, Now] = enterDevice(*Impl, D);
  Original = Old;
  Current = Now;
}

void DeviceGuard::set_device(Device D) {
  SK_CHECK(D.type() == Original.type(), "DeviceGuard::set_device: the guard "
           "was opened on a '", toString(Original.type()),
           "' device but was asked for '", D,
           "'; use reset_device to change the device type");
  if (!Impl) {
    Current = D;
    return;
  }
  if (!D.has_index())
    return;
  Impl->setDevice(D);
  Current = D;
}

void DeviceGuard::reset_device(Device D) {
  if (D.type() == Original.type()) {
    set_device(D);
    return;
  }
  if (Impl)
    Impl->setDevice(Original);
  Impl = impl::getDeviceGuardImpl(D.type());
  Original = D;
  Current = D;
  if (Impl)
    enter(D);
}

void OptionalDeviceGuard::reset_device(Device D) {
  if (Original && Original->type() != D.type())
    reset();
  if (!Original) {
    Impl = impl::getDeviceGuardImpl(D.type());
    if (!Impl) {
      Original = D;
      Current = D;
      return;
    }
    auto [Old, Now] = enterDevice(*Impl, D);
    Original = Old;
    Current = Now;
    return;
  }
  if (!Impl) {
    Current = D;
    return;
  }
  if (!D.has_index())
    return;
  Impl->setDevice(D);
  Current = D;
}

void OptionalDeviceGuard::reset() {
  if (Impl && Original)
    Impl->setDevice(*Original);
  Impl = nullptr;
  Original.reset();
  Current.reset();
}

} // namespace sk
