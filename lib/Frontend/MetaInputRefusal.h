//===--- MetaInputRefusal.h - Where a meta function has data ----*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef SKC_LIB_FRONTEND_METAINPUTREFUSAL_H
#define SKC_LIB_FRONTEND_METAINPUTREFUSAL_H

#include "llvm/ADT/DenseSet.h"

namespace clang {
class ASTContext;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace skc {

/// The statements of \p Meta that every path reaches only through a call
/// of a function marked SK_REFUSES_META_INPUT, which raises on meta
/// tensors: there, the tensors have data (Note [Data-dependent output
/// shapes] in the runtime's sk/iter/DataDependentShape.h). Empty when the
/// function makes no such call.
llvm::DenseSet<const clang::Stmt *>
findStatementsPastMetaRefusal(const clang::FunctionDecl &Meta,
                              clang::ASTContext &Ctx);

} // namespace skc

#endif // SKC_LIB_FRONTEND_METAINPUTREFUSAL_H
