//===--- MetaOutputFlow.h - Outputs a meta function sets on every path ----===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Which outputs a structured kernel's meta function sets on every path
/// that returns normally, decided on Clang's CFG as -Wreturn-type and
/// -Wuninitialized decide theirs (Note [Outputs on every path]).
///
//===----------------------------------------------------------------------===//

#ifndef SKC_LIB_FRONTEND_METAOUTPUTFLOW_H
#define SKC_LIB_FRONTEND_METAOUTPUTFLOW_H

#include "skc/Parse/KernelDecl.h"

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace skc {

/// The outputs the meta function \p Meta (a member of the generated
/// structured struct) sets on every path that returns normally.
OutputsSetOnEveryPath findOutputsSetOnEveryPath(const clang::FunctionDecl &Meta,
                                                clang::ASTContext &Ctx);

} // namespace skc

#endif // SKC_LIB_FRONTEND_METAOUTPUTFLOW_H
