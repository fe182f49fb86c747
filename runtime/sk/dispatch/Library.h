//===--- Library.h - SK_LIBRARY and SK_LIBRARY_IMPL -------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Static registration, as torch/library.h does it:
///
///   SK_LIBRARY(myops, m) {
///     m.def("relu(Tensor self) -> Tensor");
///   }
///   SK_LIBRARY_IMPL(myops, CPU, m) {
///     m.impl("relu", SK_FN(relu_cpu));
///   }
///   SK_LIBRARY_IMPL(_, Tracer, m) {
///     m.fallback(CppFunction::makeFromBoxedFunction<&trace>());
///   }
///
/// A Library owns the handles of what it registered, so destroying it (at
/// exit, or in a test) undoes the registrations.
///
//===----------------------------------------------------------------------===//

#ifndef SK_DISPATCH_LIBRARY_H
#define SK_DISPATCH_LIBRARY_H

#include "sk/dispatch/Dispatcher.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sk {

/// A kernel on its way to registration.
class CppFunction {
public:
  template <typename FuncType, FuncType *F>
  CppFunction(CompileTimeFunctionPointer<FuncType, F> P)
      : Kernel(KernelFunction::makeFromUnboxed(P)) {}
  /// A function pointer or a lambda.
  template <typename Callable,
            std::enable_if_t<!std::is_same_v<std::decay_t<Callable>,
                                             CppFunction>,
                             int> = 0>
  CppFunction(Callable &&C)
      : Kernel(KernelFunction::makeFromUnboxedCallable(
            std::forward<Callable>(C))) {}

  static CppFunction makeFallthrough() {
    return CppFunction(KernelFunction::makeFallthrough());
  }
  template <BoxedKernelFn F> static CppFunction makeFromBoxedFunction() {
    return CppFunction(KernelFunction::makeFromBoxedFunction<F>());
  }

  KernelFunction takeKernel() && { return std::move(Kernel); }

private:
  explicit CppFunction(KernelFunction K) : Kernel(std::move(K)) {}
  KernelFunction Kernel;
};

/// One row of a generated registration table:
///   const sk::KernelRegistration Kernels[] = {
///     {"add.Tensor", SK_KERNEL(wrapper_CPU_add_Tensor)}, ...};
///   SK_LIBRARY_IMPL(aten, CPU, m) { m.impl(Kernels); }
/// The table is constant data: registering a thousand kernels this way
/// compiles much faster than a thousand m.impl(name, SK_FN(f)) calls.
struct KernelRegistration {
  const char *Name;
  KernelFunction::EntryPoints Kernel;
};

class Library {
public:
  enum Kind {
    Def,     ///< SK_LIBRARY: defines the schemas of a namespace.
    Impl,    ///< SK_LIBRARY_IMPL: kernels for one dispatch key.
    Fragment ///< SK_LIBRARY_FRAGMENT: more schemas for a namespace.
  };

  /// \p Namespace is "_" for a library that only registers fallbacks.
  Library(Kind K, std::string Namespace, std::optional<DispatchKey> Key,
          const char *File, unsigned Line);
  Library(const Library &) = delete;
  Library &operator=(const Library &) = delete;

  /// Registers a schema; the namespace is prepended when it has none.
  Library &def(std::string_view Schema);
  /// Registers a kernel for `name[.overload]` of this library's namespace,
  /// for the library's key (or for \p Key, an alias key such as
  /// CompositeImplicitAutograd, in a Def library).
  Library &impl(std::string_view Name, CppFunction F);
  Library &impl(std::string_view Name, DispatchKey Key, CppFunction F);
  /// Registers every kernel of a table for the library's key.
  Library &impl(ArrayRef<KernelRegistration> Kernels);
  /// Registers a fallback for this library's key (namespace "_" only).
  Library &fallback(CppFunction F);

private:
  OperatorName qualify(std::string_view Name) const;
  std::string debug() const;

  Kind LibKind;
  std::string Namespace;
  std::optional<DispatchKey> Key;
  const char *File;
  unsigned Line;
  std::vector<RegistrationHandle> Handles;
};

namespace detail {
/// Runs a library's body at static initialisation and keeps the Library.
class LibraryInit {
public:
  using InitFn = void(Library &);
  LibraryInit(Library::Kind K, InitFn *Fn, const char *Namespace,
              std::optional<DispatchKey> Key, const char *File, unsigned Line)
      : Lib(K, Namespace, Key, File, Line) {
    Fn(Lib);
  }

private:
  Library Lib;
};
} // namespace detail

} // namespace sk

/// The constant entry points of function \p Func, for a KernelRegistration.
#define SK_KERNEL(Func) ::sk::KernelFunction::entryPointsOf(SK_FN(Func))

#define SK_CONCAT_IMPL(A, B) A##B
#define SK_CONCAT(A, B) SK_CONCAT_IMPL(A, B)

#define SK_LIBRARY(ns, m)                                                      \
  static void SK_LIBRARY_init_##ns(::sk::Library &);                           \
  static const ::sk::detail::LibraryInit SK_LIBRARY_static_init_##ns(          \
      ::sk::Library::Def, &SK_LIBRARY_init_##ns, #ns, std::nullopt, __FILE__,  \
      __LINE__);                                                               \
  void SK_LIBRARY_init_##ns(::sk::Library &m)

#define SK_LIBRARY_FRAGMENT(ns, m)                                             \
  SK_LIBRARY_FRAGMENT_UID(ns, m, SK_CONCAT(SK_LIBRARY_fragment_, __COUNTER__))
#define SK_LIBRARY_FRAGMENT_UID(ns, m, uid)                                    \
  static void SK_CONCAT(uid, _init)(::sk::Library &);                          \
  static const ::sk::detail::LibraryInit SK_CONCAT(uid, _static_init)(         \
      ::sk::Library::Fragment, &SK_CONCAT(uid, _init), #ns, std::nullopt,      \
      __FILE__, __LINE__);                                                     \
  void SK_CONCAT(uid, _init)(::sk::Library & m)

#define SK_LIBRARY_IMPL(ns, k, m)                                              \
  SK_LIBRARY_IMPL_UID(ns, k, m, SK_CONCAT(SK_LIBRARY_impl_, __COUNTER__))
#define SK_LIBRARY_IMPL_UID(ns, k, m, uid)                                     \
  static void SK_CONCAT(uid, _init)(::sk::Library &);                          \
  static const ::sk::detail::LibraryInit SK_CONCAT(uid, _static_init)(         \
      ::sk::Library::Impl, &SK_CONCAT(uid, _init), #ns, ::sk::DispatchKey::k,  \
      __FILE__, __LINE__);                                                     \
  void SK_CONCAT(uid, _init)(::sk::Library & m)

#endif // SK_DISPATCH_LIBRARY_H
