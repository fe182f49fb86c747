//===--- KernelFunction.h - A kernel, callable boxed and unboxed -*- C++ -*-=//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A KernelFunction (c10::KernelFunction) holds up to two entry points for
/// one kernel:
///
///  - an unboxed one, `Ret(OperatorKernel*, DispatchKeySet, Args...)`, for
///    typed calls: one indirect call, no boxing;
///  - a boxed one, `void(OperatorKernel*, const OperatorHandle&,
///    DispatchKeySet, Stack*)`, for calls over an IValue stack.
///
/// Kernels written in C++ get both, the boxed one generated from the
/// signature; boxed-only kernels (fallbacks) are called from typed calls by
/// boxing the arguments. A fallthrough kernel is never called: the
/// dispatcher masks its key out.
///
//===----------------------------------------------------------------------===//

#ifndef SK_DISPATCH_KERNELFUNCTION_H
#define SK_DISPATCH_KERNELFUNCTION_H

#include "sk/dispatch/Boxing.h"

#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

namespace sk {

class OperatorHandle;

/// Base of kernels that carry state (lambdas with captures, runtime
/// function pointers).
class OperatorKernel {
public:
  virtual ~OperatorKernel() = default;
};

/// A kernel given as a compile-time function pointer: `SK_FN(my_kernel)`.
/// The unboxed wrapper calls it directly, so the compiler can inline it.
template <typename FuncType, FuncType *Func> struct CompileTimeFunctionPointer {
  using Type = FuncType;
  static constexpr FuncType *Ptr = Func;
};

#define SK_FN(Func)                                                            \
  (::sk::CompileTimeFunctionPointer<std::remove_pointer_t<                     \
       std::remove_reference_t<decltype(Func)>>,                               \
                                    Func>())

using BoxedKernelFn = void (*)(const OperatorHandle &, DispatchKeySet,
                               Stack *);

namespace detail {

template <typename Fn> struct FunctionTraits;
template <typename R, typename... A> struct FunctionTraits<R(A...)> {
  using Ret = R;
  using Params = std::tuple<A...>;
};
template <typename R, typename... A>
struct FunctionTraits<R (*)(A...)> : FunctionTraits<R(A...)> {};
template <typename C, typename R, typename... A>
struct FunctionTraits<R (C::*)(A...) const> : FunctionTraits<R(A...)> {};
template <typename C, typename R, typename... A>
struct FunctionTraits<R (C::*)(A...)> : FunctionTraits<R(A...)> {};

/// The functor of an SK_FN kernel: its unboxed entry point, which the boxed
/// entry point calls (Note [One boxed entry point per signature]).
struct UnboxedEntryKernel final : OperatorKernel {
  explicit UnboxedEntryKernel(void *Entry) : Entry(Entry) {}
  void *Entry;
};

/// Stores a callable (a lambda or a function pointer known at run time).
template <typename Callable> struct CallableKernel final : OperatorKernel {
  explicit CallableKernel(Callable C) : Fn(std::move(C)) {}
  Callable Fn;
};

} // namespace detail

class KernelFunction {
public:
  using InternalBoxedFn = void (*)(OperatorKernel *, const OperatorHandle &,
                                   DispatchKeySet, Stack *);

  KernelFunction() = default;

  bool isValid() const { return Boxed != nullptr || Unboxed != nullptr; }
  bool isFallthrough() const { return Boxed == &fallthroughKernel; }
  bool hasUnboxed() const { return Unboxed != nullptr; }
  /// The C++ signature of the unboxed entry point, if there is one.
  const std::optional<detail::CppSignature> &cppSignature() const {
    return Signature;
  }
  /// The schema types of the C++ parameters and returns, if known.
  const std::vector<SchemaType> &argumentTypes() const { return ArgTypes; }
  const std::vector<SchemaType> &returnTypes() const { return RetTypes; }

  /// Calls the kernel with C++ arguments. The types must be the ones the
  /// kernel was registered with (checked by OperatorHandle::typed()).
  template <typename Ret, typename... Args>
  Ret call(const OperatorHandle &Op, DispatchKeySet KS, Args... A) const {
    if (SK_LIKELY(Unboxed != nullptr)) {
      using Fn = Ret(OperatorKernel *, DispatchKeySet, Args...);
      return reinterpret_cast<Fn *>(Unboxed)(Functor.get(), KS,
                                             std::forward<Args>(A)...);
    }
    return callThroughBoxed<Ret, Args...>(Op, KS, std::forward<Args>(A)...);
  }

  void callBoxed(const OperatorHandle &Op, DispatchKeySet KS, Stack *S) const {
    Boxed(Functor.get(), Op, KS, S);
  }

  /// A kernel that lets the call fall through to the next key.
  static KernelFunction makeFallthrough();
  /// A boxed kernel: `void F(const OperatorHandle&, DispatchKeySet,
  /// Stack*)`.
  template <BoxedKernelFn F> static KernelFunction makeFromBoxedFunction();
  /// A kernel from `SK_FN(f)`.
  template <typename FuncType, FuncType *F>
  static KernelFunction
  makeFromUnboxed(CompileTimeFunctionPointer<FuncType, F> P);
  /// A kernel from a function pointer or a lambda.
  template <typename Callable>
  static KernelFunction makeFromUnboxedCallable(Callable C);

  /// Fills in the signature and schema types of a kernel; one per C++
  /// signature.
  using DescribeFn = void (*)(KernelFunction &);
  /// What makeFromUnboxed builds a kernel from, as constant data: a
  /// generated file registers a table of them (SK_KERNEL) rather than
  /// inlining the construction of each kernel
  /// (Note [One boxed entry point per signature]).
  struct EntryPoints {
    void *(*GetUnboxed)();
    InternalBoxedFn Boxed;
    DescribeFn Describe;
  };
  template <typename FuncType, FuncType *F>
  static constexpr EntryPoints
  entryPointsOf(CompileTimeFunctionPointer<FuncType, F>);
  static KernelFunction makeFromEntryPoints(const EntryPoints &E);

private:
  template <typename Ret, typename... Args>
  Ret callThroughBoxed(const OperatorHandle &Op, DispatchKeySet KS,
                       Args... A) const {
    Stack S;
    detail::pushArguments(S, A...);
    Boxed(Functor.get(), Op, KS, &S);
    if constexpr (detail::IsReferenceReturn<Ret>::value) {
      SK_INTERNAL_ASSERT(S.size() == detail::ReturnBoxer<Ret>::count(),
                         "expected ", detail::ReturnBoxer<Ret>::count(),
                         " returns on the stack, got ", S.size());
      return detail::argumentReferences<Ret, Args...>(A...);
    } else {
      return detail::ReturnBoxer<Ret>::pop(S);
    }
  }

  static void fallthroughKernel(OperatorKernel *, const OperatorHandle &,
                                DispatchKeySet, Stack *);


  template <typename Ret, typename ParamTuple> struct Wrap;

  std::shared_ptr<OperatorKernel> Functor;
  InternalBoxedFn Boxed = nullptr;
  void *Unboxed = nullptr;
  std::optional<detail::CppSignature> Signature;
  std::vector<SchemaType> ArgTypes;
  std::vector<SchemaType> RetTypes;
};

/// Generates the unboxed and boxed entry points of a kernel whose
/// parameters are \p Ps (possibly starting with DispatchKeySet).
template <typename Ret, typename... Ps>
struct KernelFunction::Wrap<Ret, std::tuple<Ps...>> {
  static constexpr bool WithKeySet = detail::TakesKeySet<Ps...>::value;

  /// Invokes \p Call (a callable taking Ps...) from (KS, operator args).
  template <typename CallFn, typename... Args>
  static Ret invoke(CallFn &&Call, DispatchKeySet KS, Args &&...A) {
    if constexpr (WithKeySet)
      return Call(KS, std::forward<Args>(A)...);
    else
      return Call(std::forward<Args>(A)...);
  }

  template <typename... Args> struct ForArgs {
    template <typename FuncType, FuncType *F>
    static Ret unboxedStatic(OperatorKernel *, DispatchKeySet KS, Args... A) {
      return invoke(F, KS, std::forward<Args>(A)...);
    }
    // A cast to void * is not a constant expression; a function that
    // makes it is.
    template <typename FuncType, FuncType *F> static void *unboxedEntry() {
      return reinterpret_cast<void *>(&unboxedStatic<FuncType, F>);
    }
    // Note [One boxed entry point per signature]
    // ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    // The unboxed entry point of an SK_FN kernel is a template over the
    // function, so that the call inlines; the boxed one need not be. It is
    // shared by every kernel of one signature and calls the unboxed entry
    // point it finds in the functor. Instantiating the unboxing code once
    // per signature instead of once per kernel is what keeps a generated
    // Register<Key>.cpp of a thousand kernels fast to compile
    // (torchgen's RegisterCPU.cpp takes a minute).
    static void boxedViaUnboxed(OperatorKernel *K, const OperatorHandle &,
                                DispatchKeySet KS, Stack *S) {
      using Fn = Ret(OperatorKernel *, DispatchKeySet, Args...);
      auto *Entry = reinterpret_cast<Fn *>(
          static_cast<detail::UnboxedEntryKernel *>(K)->Entry);
      detail::callUnboxedFromStack<Ret, Args...>(
          [Entry](DispatchKeySet Keys, auto &&...Unboxed) -> Ret {
            return Entry(nullptr, Keys,
                         std::forward<decltype(Unboxed)>(Unboxed)...);
          },
          KS, *S, std::index_sequence_for<Args...>());
    }
    template <typename Callable>
    static Ret unboxedCallable(OperatorKernel *K, DispatchKeySet KS,
                               Args... A) {
      auto &C = static_cast<detail::CallableKernel<Callable> *>(K)->Fn;
      return invoke(C, KS, std::forward<Args>(A)...);
    }
    template <typename Callable>
    static void boxedCallable(OperatorKernel *K, const OperatorHandle &,
                              DispatchKeySet KS, Stack *S) {
      auto &C = static_cast<detail::CallableKernel<Callable> *>(K)->Fn;
      detail::callUnboxedFromStack<Ret, Args...>(
          [&C](DispatchKeySet Keys, auto &&...Unboxed) -> Ret {
            return invoke(C, Keys, std::forward<decltype(Unboxed)>(Unboxed)...);
          },
          KS, *S, std::index_sequence_for<Args...>());
    }
  };

  /// The operator's parameters: Ps without a leading DispatchKeySet.
  template <typename... All> struct DropKeySet;
  template <typename First, typename... Rest>
  struct DropKeySet<First, Rest...> {
    using Type = std::conditional_t<WithKeySet, ForArgs<Rest...>,
                                    ForArgs<First, Rest...>>;
    static detail::CppSignature signature() {
      if constexpr (WithKeySet)
        return detail::CppSignature::of<Ret, Rest...>();
      else
        return detail::CppSignature::of<Ret, First, Rest...>();
    }
    static std::vector<SchemaType> argTypes() {
      if constexpr (WithKeySet)
        return detail::schemaTypesOf<Rest...>();
      else
        return detail::schemaTypesOf<First, Rest...>();
    }
  };
  template <typename... All> struct DropKeySet {
    using Type = ForArgs<>;
    static detail::CppSignature signature() {
      return detail::CppSignature::of<Ret>();
    }
    static std::vector<SchemaType> argTypes() { return {}; }
  };
  using Args = DropKeySet<Ps...>;

  static void describe(KernelFunction &K) {
    K.Signature = Args::signature();
    K.ArgTypes = Args::argTypes();
    detail::ReturnBoxer<Ret>::schemaTypes(K.RetTypes);
  }
};

template <BoxedKernelFn F> KernelFunction KernelFunction::makeFromBoxedFunction() {
  KernelFunction K;
  K.Boxed = [](OperatorKernel *, const OperatorHandle &Op, DispatchKeySet KS,
               Stack *S) { F(Op, KS, S); };
  return K;
}

template <typename FuncType, FuncType *F>
constexpr KernelFunction::EntryPoints
KernelFunction::entryPointsOf(CompileTimeFunctionPointer<FuncType, F>) {
  using Traits = detail::FunctionTraits<FuncType>;
  using W = Wrap<typename Traits::Ret, typename Traits::Params>;
  using ForArgs = typename W::Args::Type;
  return {&ForArgs::template unboxedEntry<FuncType, F>,
          &ForArgs::boxedViaUnboxed, &W::describe};
}

template <typename FuncType, FuncType *F>
KernelFunction
KernelFunction::makeFromUnboxed(CompileTimeFunctionPointer<FuncType, F> P) {
  return makeFromEntryPoints(entryPointsOf(P));
}

namespace detail {
/// The FunctionTraits of a function pointer, or of a lambda's operator().
/// (std::conditional_t would name both, and a pointer has no operator().)
template <typename Fn, typename = void> struct CallableTraits {
  using Type = FunctionTraits<Fn>;
};
template <typename Fn>
struct CallableTraits<Fn, std::void_t<decltype(&Fn::operator())>> {
  using Type = FunctionTraits<decltype(&Fn::operator())>;
};
} // namespace detail

template <typename Callable>
KernelFunction KernelFunction::makeFromUnboxedCallable(Callable C) {
  using Fn = std::decay_t<Callable>;
  using Traits = typename detail::CallableTraits<Fn>::Type;
  using W = Wrap<typename Traits::Ret, typename Traits::Params>;
  using ForArgs = typename W::Args::Type;
  KernelFunction K;
  K.Functor = std::make_shared<detail::CallableKernel<Fn>>(std::move(C));
  K.Unboxed =
      reinterpret_cast<void *>(&ForArgs::template unboxedCallable<Fn>);
  K.Boxed = &ForArgs::template boxedCallable<Fn>;
  W::describe(K);
  return K;
}

} // namespace sk

#endif // SK_DISPATCH_KERNELFUNCTION_H
