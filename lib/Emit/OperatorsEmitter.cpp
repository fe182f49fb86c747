//===--- OperatorsEmitter.cpp - Operators.h/.cpp and Functions.h ----------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The typed C++ API (reference/torchgen.md §4.1): Operators.h declares a
/// struct per function (`sk::_ops::add_Tensor`) with its name, schema,
/// `call` and `redispatch`; Operators.cpp defines them over a typed
/// operator handle looked up once; Functions.h holds the inline functions
/// users call (`sk::add`, `sk::add_out`, `sk::add_outf`).
///
//===----------------------------------------------------------------------===//

#include "CodeWriter.h"
#include "EmitModel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace llvm;

namespace skc {

/// The struct of a function in Operators.h.
/// {0}: identifier; {1}: return type, spelled before a name; {2}: parameter
/// types; {3}: qualified name; {4}: overload; {5}: schema literal;
/// {6}: parameters; {7}: parameters after the key set; {8}: return type.
static const char *const OperatorStructTemplate = R"(
struct {0} {
  using schema = {8}({2});
  static constexpr const char *name = "{3}";
  static constexpr const char *overload_name = "{4}";
  static constexpr const char *schema_str = {5};
  static {1}call{6};
  static {1}redispatch(::sk::DispatchKeySet dispatchKeySet{7});
};
)";

/// The definitions of a struct's members in Operators.cpp.
/// {0}: identifier; {1}: return type, spelled before a name; {2}:
/// parameters; {3}: arguments;
/// {4}: parameters after the key set; {5}: `return ` or nothing.
static const char *const OperatorDefinitionTemplate = R"(
static ::sk::TypedOperatorHandle<{0}::schema> create_{0}_typed_handle() {{
  return ::sk::Dispatcher::singleton()
      .findSchemaOrThrow({0}::name, {0}::overload_name)
      .typed<{0}::schema>();
}

{1}{0}::call{2} {{
  static const auto op = create_{0}_typed_handle();
  {5}op.call({3});
}

{1}{0}::redispatch(::sk::DispatchKeySet dispatchKeySet{4}) {{
  static const auto op = create_{0}_typed_handle();
  {5}op.redispatch(dispatchKeySet{6});
}
)";

static std::string getParamTypes(const EmittedFunction &EF) {
  SmallVector<std::string, 6> Types;
  for (const KernelParamSpec &P : EF.Sig.Params)
    Types.push_back(P.Type->getQualifiedSpelling());
  return join(Types, ", ");
}

/// `, const ::sk::Tensor &self, ...` for the parameters after the key set.
static std::string getTrailingParams(const EmittedFunction &EF) {
  std::string Params = EF.getDispatcherParamList();
  StringRef Inner = StringRef(Params).drop_front().drop_back();
  return Inner.empty() ? "" : (", " + Inner).str();
}

static std::string getReturnPrefix(const EmittedFunction &EF) {
  return EF.Sig.Return->isVoid() ? "" : "return ";
}

/// The functions of \p EM by C++ namespace, in order.
static std::map<std::string, std::vector<const EmittedFunction *>>
byCppNamespace(ArrayRef<EmittedFunction> Functions) {
  std::map<std::string, std::vector<const EmittedFunction *>> Out;
  for (const EmittedFunction &EF : Functions)
    Out[EF.CppNamespace].push_back(&EF);
  return Out;
}

static GeneratedFile emitOperatorsHeader(const EmitModel &EM) {
  GeneratedFile File{"Operators.h", ""};
  raw_string_ostream OS(File.Contents);
  writeBanner(OS, File.Name, EM.getOptions());
  OS << "#pragma once\n\n";
  writeApiIncludes(OS);
  for (const auto &[CppNamespace, Functions] :
       byCppNamespace(EM.getFunctions())) {
    OS << '\n';
    NamespaceScope NS(OS, CppNamespace + "::_ops");
    for (const EmittedFunction *EF : Functions) {
      const OperatorName &Name = EF->getSchema().Name;
      OS << formatv(OperatorStructTemplate, EF->Ident,
                    getReturnSpelling(EF->Sig.Return), getParamTypes(*EF),
                    EF->DispatcherNamespace + "::" + Name.Name, Name.Overload,
                    getCppStringLiteral(EF->getSchema().getAsString()),
                    EF->getDispatcherParamList(), getTrailingParams(*EF),
                    EF->Sig.Return->getQualifiedSpelling());
    }
    OS << '\n';
  }
  EM.writeSkipped(OS);
  return File;
}

static GeneratedFile
emitOperatorsShard(const EmitModel &EM,
                   ArrayRef<EmittedFunction> Functions, StringRef FileName) {
  GeneratedFile File{FileName.str(), ""};
  raw_string_ostream OS(File.Contents);
  writeBanner(OS, File.Name, EM.getOptions());
  OS << "#include \"Operators.h\"\n\n"
     << "#include \"sk/dispatch/Dispatcher.h\"\n";
  for (const auto &[CppNamespace, Functions] : byCppNamespace(Functions)) {
    OS << '\n';
    NamespaceScope NS(OS, CppNamespace + "::_ops");
    for (const EmittedFunction *EF : Functions) {
      std::string Args = EF->getArgNames();
      OS << formatv(OperatorDefinitionTemplate, EF->Ident,
                    getReturnSpelling(EF->Sig.Return),
                    EF->getDispatcherParamList(),
                    Args, getTrailingParams(*EF), getReturnPrefix(*EF),
                    Args.empty() ? "" : ", " + Args);
    }
    OS << '\n';
  }
  return File;
}

static GeneratedFile emitFunctionsHeader(const EmitModel &EM) {
  GeneratedFile File{"Functions.h", ""};
  raw_string_ostream OS(File.Contents);
  writeBanner(OS, File.Name, EM.getOptions());
  OS << "#pragma once\n\n#include \"Operators.h\"\n";
  for (const auto &[CppNamespace, Functions] :
       byCppNamespace(EM.getFunctions())) {
    OS << '\n';
    NamespaceScope NS(OS, CppNamespace);
    for (const EmittedFunction *EF : Functions) {
      OS << "\n// " << EF->DispatcherNamespace << "::"
         << EF->getRegistrationName() << '\n';
      for (const CppApiDecl &D : EF->ApiDecls) {
        if (EM.isShadowedApiDecl(*EF, D)) {
          OS << "// " << D.Name
             << ": same C++ signature as an overload above.\n";
          continue;
        }
        OS << "inline " << getReturnSpelling(EF->Sig.Return) << D.Name
           << EF->getParamList(D, /*WithDefaults=*/true) << " {\n  "
           << getReturnPrefix(*EF) << "::" << CppNamespace
           << "::_ops::" << EF->Ident << "::call(" << EF->getArgNames()
           << ");\n}\n";
      }
    }
    OS << '\n';
  }
  return File;
}

void emitOperatorFiles(const EmitModel &EM, std::vector<GeneratedFile> &Files) {
  Files.push_back(emitOperatorsHeader(EM));
  Files.push_back(emitFunctionsHeader(EM));
  ArrayRef<EmittedFunction> All = EM.getFunctions();
  unsigned N = EM.getOptions().Shards;
  for (unsigned I = 0; I != N; ++I) {
    size_t Begin = All.size() * I / N, End = All.size() * (I + 1) / N;
    Files.push_back(emitOperatorsShard(EM, All.slice(Begin, End - Begin),
                                       getShardedName("Operators", I, N)));
  }
}

} // namespace skc
