//===--- KernelDeclExtractor.h - Kernel definitions in an AST ---*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef SKC_LIB_FRONTEND_KERNELDECLEXTRACTOR_H
#define SKC_LIB_FRONTEND_KERNELDECLEXTRACTOR_H

#include "skc/Parse/KernelDecl.h"

#include <vector>

namespace clang {
class ASTContext;
} // namespace clang

namespace skc {

struct ParseSession;

/// Appends to \p Found every meta, impl and native-function definition of
/// the translation unit that the author wrote (the sources and their own
/// headers; not the runtime's, generated or system headers), with its
/// signature, body facts, outputs set and dtypes.
void extractKernelDecls(clang::ASTContext &Ctx, ParseSession &Session,
                        std::vector<KernelDecl> &Found);

} // namespace skc

#endif // SKC_LIB_FRONTEND_KERNELDECLEXTRACTOR_H
