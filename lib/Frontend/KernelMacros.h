//===--- KernelMacros.h - The authoring macros' tokens ----------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Where an authoring macro (SK_META_FUNC(add, Tensor), SK_IMPL_FUNC,
/// SK_NATIVE_FUNC) puts things: its first argument, the parameter list
/// that follows it. Diagnostics point at what the author wrote, not into
/// the macro's body. Which macros those are is the runtime's mark
/// (SK_KERNEL_DEFINITION), not their names.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_LIB_FRONTEND_KERNELMACROS_H
#define SKC_LIB_FRONTEND_KERNELMACROS_H

#include "clang/Basic/SourceLocation.h"

namespace clang {
class LangOptions;
class SourceManager;
} // namespace clang

namespace skc {

/// Returns the location of the first argument of the macro invocation
/// whose name is at \p MacroNameLoc (`add` in `SK_META_FUNC(add, Tensor)`),
/// or \p MacroNameLoc when the tokens are not `NAME ( ARG`.
clang::SourceLocation getFirstMacroArgLoc(clang::SourceLocation MacroNameLoc,
                                          const clang::SourceManager &SM,
                                          const clang::LangOptions &LO);

/// Returns the parentheses that follow the token at \p Loc, matched by
/// raw lexing, or an invalid range when no `(` follows.
clang::SourceRange getParenthesesAfter(clang::SourceLocation Loc,
                                       const clang::SourceManager &SM,
                                       const clang::LangOptions &LO);

} // namespace skc

#endif // SKC_LIB_FRONTEND_KERNELMACROS_H
