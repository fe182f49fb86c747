//===--- SchemaSymbols.cpp - The schema's outline -------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Features.h"
#include "SchemaLookup.h"
#include "SourcePositions.h"

#include "llvm/ADT/StringMap.h"

using namespace llvm;

namespace skc {

std::vector<lsp::DocumentSymbol> getSchemaSymbols(const ProjectState &State) {
  const CheckedSchema *Schema = State.getSchema();
  if (!Schema)
    return {};
  const SourceMgr &SM = *Schema->SM;
  StringRef Text = SM.getMemoryBuffer(Schema->getSchemaBuffer())->getBuffer();
  std::vector<lsp::DocumentSymbol> Operators;
  // One symbol per operator name, its overloads inside, in file order.
  StringMap<size_t> ByName;
  for (const std::unique_ptr<NativeFunction> &F :
       Schema->A.Model.getFunctions()) {
    const SchemaEntry &E = *F->Entry;
    StringRef Entry = getEntryText(Schema->A.Model, *F, Text);
    lsp::Range Range =
        toLSPRange(SM, SMRange(SMLoc::getFromPointer(Entry.begin()),
                               SMLoc::getFromPointer(Entry.end())));
    lsp::Range NameRange = toLSPRange(SM, F->getSchema().Name.Range);
    lsp::DocumentSymbol Overload(F->getName(), lsp::SymbolKind::Function, Range,
                                 NameRange);
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
