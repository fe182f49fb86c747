//===--- CoverageReport.cpp - What a kernel library covers ----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Emit/CoverageReport.h"
#include "skc/Emit/Emitters.h"
#include "skc/Parse/KernelDecl.h"

#include "EmitModel.h"
#include "RegistrationPlan.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"

#include <map>
#include <set>

using namespace llvm;

namespace skc {

namespace {

/// The variants a row can have, in column order, with their letters.
constexpr SchemaKind VariantOrder[] = {SchemaKind::Functional,
                                       SchemaKind::Inplace, SchemaKind::Mutable,
                                       SchemaKind::Out};

char getVariantLetter(SchemaKind K) {
  switch (K) {
  case SchemaKind::Functional:
    return 'f';
  case SchemaKind::Inplace:
    return 'i';
  case SchemaKind::Mutable:
    return 'm';
  case SchemaKind::Out:
  case SchemaKind::Scratch:
    return 'o';
  }
  return '?';
}

/// A report column: one dispatch key, or both composite keys.
struct Column {
  std::string Title;
  SmallVector<DispatchKey, 2> Keys;
  /// Whether the column is a backend whose kernels' dtypes are shown.
  bool ShowsDtypes = false;
};

/// One operator: a group's members, or a function outside any group.
struct Row {
  std::string Name;
  SmallVector<const EmittedFunction *, 4> Members;
};

/// PyTorch's spelling of the runtime's dtype names, and the groups the
/// report abbreviates (sk::dtypes::Floating, sk::dtypes::Integral).
const StringMap<StringRef> &getPyTorchDtypeNames() {
  static const StringMap<StringRef> Names = {
      {"Bool", "bool"},     {"Byte", "uint8"},        {"Char", "int8"},
      {"Short", "int16"},   {"Int", "int32"},         {"Long", "int64"},
      {"Half", "float16"},  {"BFloat16", "bfloat16"}, {"Float", "float32"},
      {"Double", "float64"}};
  return Names;
}

/// "floating, integral, bool", "float32, float64", "floating".
std::string formatDtypes(const std::set<std::string> &Dtypes) {
  struct Group {
    StringRef Name;
    SmallVector<StringRef, 5> Members;
  };
  static const Group Groups[] = {
      {"floating", {"Half", "BFloat16", "Float", "Double"}},
      {"integral", {"Byte", "Char", "Short", "Int", "Long"}}};
  std::set<std::string> Left = Dtypes;
  SmallVector<std::string, 4> Parts;
  for (const Group &G : Groups) {
    if (!all_of(G.Members,
                [&](StringRef D) { return Left.count(D.str()) != 0; }))
      continue;
    for (StringRef D : G.Members)
      Left.erase(D.str());
    Parts.push_back(G.Name.str());
  }
  // The rest in the runtime's dtype order.
  static const char *const Order[] = {"Half", "BFloat16", "Float", "Double",
                                      "Byte", "Char",     "Short", "Int",
                                      "Long", "Bool"};
  for (const char *D : Order)
    if (Left.erase(D))
      Parts.push_back(getPyTorchDtypeNames().lookup(D).str());
  for (const std::string &D : Left)
    Parts.push_back(D);
  return join(Parts, ", ");
}

class CoverageReporter {
public:
  CoverageReporter(const EmitModel &EM, ArrayRef<KernelDecl> Decls,
                   bool HaveSources)
      : EM(EM), HaveSources(HaveSources) {
    for (const KernelDecl &D : Decls)
      if (D.Kind != KernelDeclKind::Meta && !D.IsInvalid)
        ByName[{D.Name, D.InCUDASource}] = &D;
  }

  void print(raw_ostream &OS);

private:
  std::vector<Column> getColumns() const;
  std::vector<Row> getRows() const;
  /// The kernel definition \p R calls for \p Key, or null.
  const KernelDecl *findDecl(const Registration &R, DispatchKey Key) const;
  std::string getKind(const Row &R) const;

  const EmitModel &EM;
  bool HaveSources;
  std::map<std::pair<std::string, bool>, const KernelDecl *> ByName;
};

} // namespace

std::vector<Column> CoverageReporter::getColumns() const {
  std::vector<Column> Columns;
  for (DispatchKey B : EM.getOptions().Backends)
    Columns.push_back(
        {getDispatchKeyName(B).str(), {B}, /*ShowsDtypes=*/true});
  Columns.push_back(
      {getDispatchKeyName(DispatchKey::Meta).str(), {DispatchKey::Meta}});
  Columns.push_back({"Composite",
                     {DispatchKey::CompositeImplicitAutograd,
                      DispatchKey::CompositeExplicitAutograd}});
  return Columns;
}

std::vector<Row> CoverageReporter::getRows() const {
  std::map<std::string, Row> Rows;
  for (const EmittedFunction &EF : EM.getFunctions()) {
    const NativeFunctionsGroup *G = EF.F->Group;
    const EmittedFunction *Head = G ? EM.lookup(G->Functional) : nullptr;
    if (!Head)
      Head = &EF;
    std::string Name = Head->getRegistrationName();
    if (Head->DispatcherNamespace != EM.getOptions().Namespace)
      Name = Head->DispatcherNamespace + "::" + Name;
    Row &R = Rows[Name];
    R.Name = Name;
    R.Members.push_back(&EF);
  }
  std::vector<Row> Result;
  for (auto &[Name, R] : Rows) {
    sort(R.Members, [](const EmittedFunction *A, const EmittedFunction *B) {
      return find(VariantOrder, A->F->Kind) < find(VariantOrder, B->F->Kind);
    });
    Result.push_back(std::move(R));
  }
  return Result;
}

const KernelDecl *CoverageReporter::findDecl(const Registration &R,
                                             DispatchKey Key) const {
  bool InCUDA = Key == DispatchKey::CUDA;
  switch (R.Kind) {
  case Registration::Structured: {
    if (!R.Kernel)
      return nullptr;
    auto It =
        ByName.find({(StructuredClassPrefix + R.Kernel->Kernel).str(), InCUDA});
    return It == ByName.end() ? nullptr : It->second;
  }
  case Registration::Native: {
    auto It = ByName.find({R.Kernel->Kernel, InCUDA});
    return It == ByName.end() ? nullptr : It->second;
  }
  case Registration::FromFunctional:
    if (std::optional<Registration> F =
            planRegistration(EM, *R.Functional, Key))
      return findDecl(*F, Key);
    return nullptr;
  }
  return nullptr;
}

/// structured when a backend runs the structured machinery, native when
/// a backend has a kernel of its own, else composite (or native, when
/// nothing serves it).
std::string CoverageReporter::getKind(const Row &R) const {
  bool Native = false, Composite = false;
  for (const EmittedFunction *EF : R.Members) {
    for (DispatchKey K : {DispatchKey::CompositeImplicitAutograd,
                          DispatchKey::CompositeExplicitAutograd})
      Composite |= planRegistration(EM, *EF, K).has_value();
    for (DispatchKey B : EM.getOptions().Backends) {
      std::optional<Registration> Reg = planRegistration(EM, *EF, B);
      if (Reg && Reg->Kind == Registration::Structured)
        return "structured";
      Native |= Reg.has_value();
    }
  }
  return Composite && !Native ? "composite" : "native";
}

void CoverageReporter::print(raw_ostream &OS) {
  std::vector<Column> Columns = getColumns();
  std::vector<Row> Rows = getRows();

  // The table as strings first, to align its columns.
  std::vector<std::string> Header = {"operator", "kind"};
  for (const Column &C : Columns)
    Header.push_back(C.Title);
  for (const Column &C : Columns)
    if (C.ShowsDtypes)
      Header.push_back(C.Title + " dtypes");
  std::vector<std::vector<std::string>> Table;
  // Per column: functions with a kernel for it.
  std::vector<unsigned> Covered(Columns.size());
  unsigned Functions = 0;
  for (const Row &R : Rows) {
    std::vector<std::string> Cells = {"`" + R.Name + "`", getKind(R)};
    std::vector<std::set<std::string>> Dtypes(Columns.size());
    std::vector<bool> DtypesUnknown(Columns.size());
    std::vector<bool> Untyped(Columns.size());
    Functions += R.Members.size();
    for (size_t C = 0; C != Columns.size(); ++C) {
      std::string Cell;
      for (const EmittedFunction *EF : R.Members) {
        std::optional<Registration> Reg;
        DispatchKey RegKey = Columns[C].Keys.front();
        for (DispatchKey K : Columns[C].Keys)
          if ((Reg = planRegistration(EM, *EF, K))) {
            RegKey = K;
            break;
          }
        if (!Cell.empty())
          Cell += ' ';
        Cell += Reg ? getVariantLetter(EF->F->Kind) : '-';
        if (!Reg)
          continue;
        ++Covered[C];
        if (!Columns[C].ShowsDtypes)
          continue;
        const KernelDecl *D = findDecl(*Reg, RegKey);
        if (!D)
          DtypesUnknown[C] = true;
        else if (D->Dtypes.empty())
          Untyped[C] = true;
        else
          Dtypes[C].insert(D->Dtypes.begin(), D->Dtypes.end());
      }
      Cells.push_back(std::move(Cell));
    }
    for (size_t C = 0; C != Columns.size(); ++C) {
      if (!Columns[C].ShowsDtypes)
        continue;
      std::string Cell = formatDtypes(Dtypes[C]);
      auto Append = [&](StringRef Part) {
        Cell += (Cell.empty() ? "" : ", ") + Part.str();
      };
      if (Untyped[C])
        Append("untyped");
      // No source defines the kernel: its dtypes are unknown.
      if (DtypesUnknown[C])
        Append("?");
      if (Cell.empty())
        Cell = "-";
      Cells.push_back(std::move(Cell));
    }
    Table.push_back(std::move(Cells));
  }

  std::vector<size_t> Width(Header.size());
  for (size_t I = 0; I != Header.size(); ++I)
    Width[I] = Header[I].size();
  for (const std::vector<std::string> &Cells : Table)
    for (size_t I = 0; I != Cells.size(); ++I)
      Width[I] = std::max(Width[I], Cells[I].size());
  auto PrintRow = [&](ArrayRef<std::string> Cells) {
    OS << '|';
    for (size_t I = 0; I != Cells.size(); ++I)
      OS << ' ' << left_justify(Cells[I], Width[I]) << " |";
    OS << '\n';
  };
  PrintRow(Header);
  OS << '|';
  for (size_t W : Width)
    OS << std::string(W + 2, '-') << '|';
  OS << '\n';
  for (const std::vector<std::string> &Cells : Table)
    PrintRow(Cells);

  OS << '\n'
     << Rows.size() << " operators, " << Functions
     << " functions (f functional, i inplace, m mutable, o out=; - no "
        "kernel). Functions with a kernel:";
  for (size_t C = 0; C != Columns.size(); ++C)
    OS << (C ? "," : "") << ' ' << Columns[C].Title << ' ' << Covered[C];
  OS << ".\n"
     << "Dtypes are those the kernels dispatch on (sk::dispatchDtypes, "
        "sk::visitScalarType, sk::dispatchElementSize); untyped: a kernel "
        "that dispatches on none (it moves bytes or calls operators); "
        "composite kernels serve every backend with the dtypes of the "
        "operators they call.\n";
  if (!EM.getSkipped().empty())
    OS << EM.getSkipped().size()
       << " functions are not generated: their types have no runtime type.\n";
  if (!HaveSources)
    OS << "No kernel sources were given: dtypes are unknown (?).\n";
}

void printCoverageReport(const OperatorModel &Model, const EmitOptions &Opts,
                         ArrayRef<KernelDecl> Decls, bool HaveSources,
                         raw_ostream &OS) {
  EmitModel EM(Model, Opts);
  CoverageReporter(EM, Decls, HaveSources).print(OS);
}

} // namespace skc
