//===--- SchemaRegistrationEmitter.cpp - RegisterSchema.cpp ---------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "CodeWriter.h"
#include "EmitModel.h"

#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace llvm;

namespace skc {

/// RegisterSchema.cpp: one m.def per function, in each namespace's
/// fragment. Fragments, not SK_LIBRARY: several kernel libraries may add
/// operators to one namespace (the default `aten` above all); a second
/// definition of one operator is still an error at registration.
GeneratedFile emitSchemaRegistration(const EmitModel &EM) {
  GeneratedFile File{"RegisterSchema.cpp", ""};
  raw_string_ostream OS(File.Contents);
  writeBanner(OS, File.Name, EM.getOptions());
  OS << "#include \"sk/dispatch/Library.h\"\n";
  std::map<std::string, std::vector<const EmittedFunction *>> ByNamespace;
  for (const EmittedFunction &EF : EM.getFunctions())
    ByNamespace[EF.DispatcherNamespace].push_back(&EF);
  for (const auto &[Namespace, Functions] : ByNamespace) {
    OS << "\nSK_LIBRARY_FRAGMENT(" << Namespace << ", m) {\n";
    for (const EmittedFunction *EF : Functions)
      OS << "  m.def(" << getCppStringLiteral(EF->getSchema().getAsString())
         << ");\n";
    OS << "}\n";
  }
  EM.writeSkipped(OS);
  return File;
}

} // namespace skc
