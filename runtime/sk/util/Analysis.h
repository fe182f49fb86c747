//===--- Analysis.h - Marks for skc's checks of kernel sources --*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// skc parses kernel sources with Clang and -DSKC_ANALYSIS=1. These macros
/// mark runtime APIs for its checks with Clang annotations, so that skc
/// recognises them by the mark rather than by their names: a renamed
/// accessor or a new helper keeps its checks by carrying the mark. To every
/// other compiler they are nothing. skc's lib/Frontend/AnalysisMarks.cpp
/// reads them (Note [Analysis marks]).
///
///   SK_READS_DATA            the function reads tensor data (data_ptr,
///                            item, operator<<): an error in a meta
///                            function, which sees meta tensors
///   SK_SETS_OUTPUT(I)        the function sets output I of the structured
///                            kernel (MetaBase) it is handed, on every path
///                            that returns (Note [Outputs on every path] in
///                            lib/Frontend/MetaOutputFlow.cpp)
///   SK_SETS_OUTPUT_AT_ARG(N) the member sets the output of its kernel whose
///                            index is its argument N (set_output_*)
///   SK_SETS_ALL_OUTPUTS      the member sets every output of its kernel
///                            (TensorIteratorBase's build*)
///   SK_SETS_PRECOMPUTED(F)   the member sets precomputed field F (Note
///                            [Precomputed fields] in sk/iter/MetaBase.h)
///   SK_DISPATCHES_DTYPES(W)  the function calls its callback once per dtype
///                            it serves: W is "listed" when its first
///                            template argument is their mask
///                            (dispatchDtypes), "all" when it serves every
///                            dtype (visitScalarType); for skc's coverage
///                            report
///   SK_PRECOMPUTE_STRUCT_BASE the class template PrecomputeOut<Derived,
///                            Fields, SetMask>, the base of every generated
///                            precompute_out: which fields are set
///   SK_REFUSES_META_INPUT    the function raises on a meta tensor: a meta
///                            function reads data only on paths through a
///                            call of it (Note [Data-dependent output
///                            shapes] in sk/iter/DataDependentShape.h)
///   SK_KERNEL_DEFINITION(K)  on the function that an authoring macro
///                            defines: K is "meta" (SK_META_FUNC),
///                            "precompute_meta" (SK_PRECOMPUTE_META_FUNC),
///                            "impl" (SK_IMPL_FUNC) or "native"
///                            (SK_NATIVE_FUNC)
///   SK_OUT_ARGUMENT          on a parameter of a generated impl()
///                            declaration that is an out argument
///
//===----------------------------------------------------------------------===//

#ifndef SK_UTIL_ANALYSIS_H
#define SK_UTIL_ANALYSIS_H

#if defined(SKC_ANALYSIS) && defined(__clang__)
#define SK_ANALYSIS_MARK(...) [[clang::annotate(__VA_ARGS__)]]
#else
#define SK_ANALYSIS_MARK(...)
#endif

#define SK_READS_DATA SK_ANALYSIS_MARK("skc.reads_data")
#define SK_SETS_OUTPUT(I) SK_ANALYSIS_MARK("skc.sets_output", I)
#define SK_SETS_OUTPUT_AT_ARG(N) SK_ANALYSIS_MARK("skc.sets_output_at_arg", N)
#define SK_SETS_ALL_OUTPUTS SK_ANALYSIS_MARK("skc.sets_all_outputs")
#define SK_SETS_PRECOMPUTED(Field)                                             \
  SK_ANALYSIS_MARK("skc.sets_precomputed", Field)
#define SK_DISPATCHES_DTYPES(Which)                                            \
  SK_ANALYSIS_MARK("skc.dispatches_dtypes", Which)
#define SK_PRECOMPUTE_STRUCT_BASE                                              \
  SK_ANALYSIS_MARK("skc.precompute_struct_base")
#define SK_REFUSES_META_INPUT SK_ANALYSIS_MARK("skc.refuses_meta_input")
#define SK_KERNEL_DEFINITION(Kind) SK_ANALYSIS_MARK("skc.kernel", Kind)
#define SK_OUT_ARGUMENT SK_ANALYSIS_MARK("skc.out_argument")

#endif // SK_UTIL_ANALYSIS_H
