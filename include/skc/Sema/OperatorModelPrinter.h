//===--- OperatorModelPrinter.h - Dump the op model -------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `skc --print-op-model=json|text`: the op model as JSON for tools, and as
/// text for people. docs/op-model.md describes the JSON fields.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_SEMA_OPERATORMODELPRINTER_H
#define SKC_SEMA_OPERATORMODELPRINTER_H

#include "llvm/Support/JSON.h"

namespace llvm {
class SourceMgr;
class raw_ostream;
} // namespace llvm

namespace skc {

class OperatorModel;

/// Counts that summarise a model (`skc --stats`).
struct OperatorModelStats {
  unsigned Functions = 0;
  unsigned Groups = 0;
  unsigned StructuredGroups = 0;
  unsigned StructuredOut = 0;
  unsigned StructuredDelegates = 0;
  unsigned ResolvedDelegates = 0;
  unsigned ByKind[5] = {};
};

OperatorModelStats computeStats(const OperatorModel &Model);

llvm::json::Value toJSON(const OperatorModel &Model,
                         const llvm::SourceMgr &SM);
void printOperatorModel(const OperatorModel &Model, const llvm::SourceMgr &SM,
                        llvm::raw_ostream &OS);
void printStats(const OperatorModelStats &Stats, llvm::raw_ostream &OS);

} // namespace skc

#endif // SKC_SEMA_OPERATORMODELPRINTER_H
