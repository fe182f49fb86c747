//===--- SchemaSymbols.cpp - The schema's outline -------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Features.h"
#include "SourcePositions.h"

#include "llvm/ADT/StringMap.h"

using namespace llvm;

namespace skc {

/// Where entry \p E ends: the end of the last of its keys' values.
static SMLoc getEntryEnd(const SchemaEntry &E) {
  SMLoc End = E.Func.getRange().End;
  for (const auto &Key : E.KeyRanges)
    if (Key.second.End.getPointer() > End.getPointer())
      End = Key.second.End;
  return End;
}

std::vector<lsp::DocumentSymbol> getSchemaSymbols(const ProjectState &State) {
  const CheckedSchema *Schema = State.getSchema();
  if (!Schema)
    return {};
  const SourceMgr &SM = *Schema->SM;
  std::vector<lsp::DocumentSymbol> Operators;
  // One symbol per operator name, its overloads inside, in file order.
  StringMap<size_t> ByName;
  for (const std::unique_ptr<NativeFunction> &F :
       Schema->A.Model.getFunctions()) {
    const SchemaEntry &E = *F->Entry;
    lsp::Range Range = toLSPRange(SM, SMRange(E.Loc, getEntryEnd(E)));
    lsp::Range NameRange = toLSPRange(SM, F->getSchema().Name.Range);
    lsp::DocumentSymbol Overload(F->getName(), lsp::SymbolKind::Function,
                                 Range, NameRange);
    Overload.detail = E.Func.Value;
    const std::string &Name = F->getSchema().Name.Name;
    auto [It, Inserted] = ByName.try_emplace(Name, Operators.size());
    if (Inserted)
      Operators.emplace_back(Name, lsp::SymbolKind::Namespace, Range,
                             NameRange);
    lsp::DocumentSymbol &Operator = Operators[It->second];
    Operator.range.end = std::max(Operator.range.end, Range.end);
    Operator.children.push_back(std::move(Overload));
  }
  return Operators;
}

} // namespace skc
