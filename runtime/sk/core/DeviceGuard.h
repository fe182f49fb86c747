//===--- DeviceGuard.h - Switch the current device for a scope --*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// RAII guards that make a device the current one of its type for a scope
/// and restore the previous one on exit (c10::DeviceGuard and
/// c10::OptionalDeviceGuard). Generated wrappers of CUDA kernels open one on
/// the device of their first tensor argument (`device_of`), so that a kernel
/// launched for `cuda:1` runs on `cuda:1` whatever the caller's device.
///
/// What "current device" means belongs to the backend: it registers a
/// DeviceGuardImplInterface for its DeviceType at static initialization.
///
/// Note [Guards without an impl]
/// CPU and Meta have no current device, so they register no impl, and a
/// guard for them does nothing: the constructor loads one pointer from the
/// registry, finds it null and stores the device; no virtual call, no
/// allocation, nothing to undo. Every generated CPU wrapper constructs a
/// guard when its op asks for one (device_guard: True is the default), so
/// this path must stay that cheap. A guard for a device type whose backend
/// is not linked in is equally a no-op, rather than an error: the kernel
/// that needs the device would fail on its own, with a clearer message.
///
//===----------------------------------------------------------------------===//

#ifndef SK_CORE_DEVICEGUARD_H
#define SK_CORE_DEVICEGUARD_H

#include "sk/core/Device.h"
#include "sk/core/Tensor.h"

#include <atomic>
#include <optional>

namespace sk {
namespace impl {

/// What a backend provides so that guards can switch its current device.
/// Implementations are stateless singletons that live for the whole
/// process; their methods may be called from any thread.
struct DeviceGuardImplInterface {
  virtual ~DeviceGuardImplInterface() = default;
  /// The device type this impl serves.
  virtual DeviceType type() const = 0;
  /// Makes \p D current and returns the device that was current before.
  virtual Device exchangeDevice(Device D) const = 0;
  /// The current device of this type.
  virtual Device getDevice() const = 0;
  /// Makes \p D current.
  virtual void setDevice(Device D) const = 0;
  /// Makes \p D current without throwing (c10's uncheckedSetDevice): the
  /// guards' destructors restore the original device with it, where an
  /// exception would end the program. A failure becomes a warning. The
  /// default calls setDevice and turns its error into that warning.
  virtual void uncheckedSetDevice(Device D) const noexcept;
  /// Waits for the work queued on \p D (the current device where \p D has
  /// no index), as c10's synchronizeDevice, and throws the errors its
  /// kernels found meanwhile (CUDA's Note [Device checks]). The default
  /// is for a backend whose calls finish their work before they return.
  virtual void synchronizeDevice(Device D) const { (void)D; }
};

namespace detail {
/// The registry: one slot per device type, null for types without an impl.
/// A function-local static of constant-initialized atomics, so reading it
/// needs no initialization guard.
inline std::atomic<const DeviceGuardImplInterface *> &
deviceGuardImplSlot(DeviceType T) {
  static std::atomic<const DeviceGuardImplInterface *> Slots[NumDeviceTypes] =
      {};
  return Slots[static_cast<int>(T)];
}
} // namespace detail

/// Registers \p Impl (not owned; it must outlive every guard) for \p T;
/// null unregisters. Throws sk::Error when \p Impl serves another type.
void registerDeviceGuardImpl(DeviceType T,
                             const DeviceGuardImplInterface *Impl);

/// The impl registered for \p T, or null (Note [Guards without an impl]).
inline const DeviceGuardImplInterface *getDeviceGuardImpl(DeviceType T) {
  return detail::deviceGuardImplSlot(T).load(std::memory_order_acquire);
}

} // namespace impl

/// Waits for the work queued on \p D and throws the errors its kernels
/// found meanwhile (DeviceGuardImplInterface::synchronizeDevice). A device
/// type without an impl (CPU, Meta) has nothing queued: a no-op.
void synchronizeDevice(Device D);

/// Makes a device current for the guard's scope (c10::DeviceGuard).
///
/// A device without an index leaves the current device as it is (and
/// restores it on exit, in case the scope changes it). Not copyable or
/// movable: the restore belongs to exactly one scope.
class DeviceGuard {
public:
  explicit DeviceGuard(Device D)
      : Impl(impl::getDeviceGuardImpl(D.type())), Original(D), Current(D) {
    if (SK_UNLIKELY(Impl != nullptr))
      enter(D);
  }
  DeviceGuard(const DeviceGuard &) = delete;
  DeviceGuard &operator=(const DeviceGuard &) = delete;
  ~DeviceGuard() {
    if (SK_UNLIKELY(Impl != nullptr))
      Impl->uncheckedSetDevice(Original);
  }

  /// Makes \p D current; it must have the type the guard was opened with.
  /// The original device stays the one restored on exit.
  void set_device(Device D);
  /// Like set_device, but \p D may be of another type: the original
  /// device of the old type is restored first.
  void reset_device(Device D);

  /// The device current when the guard was opened (for a type without an
  /// impl, the device it was opened with).
  Device original_device() const { return Original; }
  /// The device the guard last made current.
  Device current_device() const { return Current; }

private:
  void enter(Device D);

  const impl::DeviceGuardImplInterface *Impl;
  Device Original;
  Device Current;
};

/// A DeviceGuard that may not be open (c10::OptionalDeviceGuard): the
/// generated wrapper of an op whose tensors are all optional opens it only
/// when one is given.
class OptionalDeviceGuard {
public:
  OptionalDeviceGuard() = default;
  explicit OptionalDeviceGuard(std::optional<Device> D) {
    if (D)
      reset_device(*D);
  }
  OptionalDeviceGuard(const OptionalDeviceGuard &) = delete;
  OptionalDeviceGuard &operator=(const OptionalDeviceGuard &) = delete;
  ~OptionalDeviceGuard() {
    if (SK_UNLIKELY(Impl != nullptr))
      Impl->uncheckedSetDevice(*Original);
  }

  /// Opens the guard on \p D, or moves an open one to \p D (restoring the
  /// original device first when \p D is of another type).
  void reset_device(Device D);
  /// Restores the original device and closes the guard.
  void reset();

  /// The device current when the guard was opened; none while closed.
  std::optional<Device> original_device() const { return Original; }
  /// The device the guard last made current; none while closed.
  std::optional<Device> current_device() const { return Current; }

private:
  const impl::DeviceGuardImplInterface *Impl = nullptr;
  std::optional<Device> Original;
  std::optional<Device> Current;
};

/// The device of \p T, or none when it is undefined.
inline std::optional<Device> device_of(const Tensor &T) {
  if (!T.defined())
    return std::nullopt;
  return T.device();
}
/// The device of \p T, or none when it is absent or undefined.
inline std::optional<Device> device_of(const std::optional<Tensor> &T) {
  if (!T)
    return std::nullopt;
  return device_of(*T);
}
/// The device of the first tensor of \p L (as c10 does: the others are the
/// device check's business), or none when \p L is empty.
inline std::optional<Device> device_of(TensorList L) {
  if (L.empty())
    return std::nullopt;
  return device_of(L.front());
}

} // namespace sk

#endif // SK_CORE_DEVICEGUARD_H
