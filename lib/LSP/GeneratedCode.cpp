//===--- GeneratedCode.cpp - What skc generates for one operator ----------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Features.h"
#include "SchemaLookup.h"
#include "SourcePositions.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace skc {

/// The operator at \p P: the schema entry there, or the one the kernel
/// there belongs to.
static const NativeFunction *findOperator(const ProjectState &State,
                                          StringRef Path, lsp::Position P) {
  const CheckedSchema &Schema = *State.getSchema();
  if (Path == State.getProject().Inv.SchemaPath)
    return findFunctionAt(
        Schema.A.Model,
        fromLSPPosition(*Schema.SM, Schema.getSchemaBuffer(), P));
  std::vector<KernelSymbol> Kernels = State.getIndex().getKernels(Path);
  const KernelSymbol *S = findKernelAt(Kernels, P);
  if (!S)
    return nullptr;
  std::vector<KernelUse> Uses = findUses(Schema.A.Model, S->Kind, S->Name);
  return Uses.empty() ? nullptr : Uses.front().Function;
}

Expected<std::string> getGeneratedCode(const ProjectState &State,
                                       StringRef Path, lsp::Position P) {
  const CheckedSchema *Schema = State.getSchema();
  if (!Schema || Schema->HasErrors)
    return createStringError(inconvertibleErrorCode(),
                             "the schema has errors; fix them first");
  const NativeFunction *F = findOperator(State, Path, P);
  if (!F)
    return createStringError(inconvertibleErrorCode(),
                             "no operator here: place the cursor on a schema "
                             "entry or a kernel definition");

  // The operator's entries (its group's, when it has one) as a schema of
  // their own, run through skc as the build runs it.
  const OperatorModel &Model = Schema->A.Model;
  StringRef Text =
      Schema->SM->getMemoryBuffer(Schema->getSchemaBuffer())->getBuffer();
  std::string Entries;
  if (F->Group)
    for (const NativeFunction *Member : F->Group->getFunctions())
      Entries += getEntryText(Model, *Member, Text).str() + "\n";
  else
    Entries = getEntryText(Model, *F, Text).str() + "\n";

  Invocation Inv = State.getProject().Inv;
  auto Memory = makeIntrusiveRefCnt<vfs::InMemoryFileSystem>();
  SmallString<256> Own(sys::path::parent_path(Inv.SchemaPath));
  sys::path::append(Own, "skc-lsp-" + F->getSchema().Name.Name + ".yaml");
  Memory->addFile(Own, 0, MemoryBuffer::getMemBufferCopy(Entries, Own));
  auto FS = makeIntrusiveRefCnt<vfs::OverlayFileSystem>(
      vfs::createPhysicalFileSystem());
  FS->pushOverlay(Memory);
  // Its catalogues stay the project's: tags.yaml beside the real schema.
  Inv.TagsPath = Inv.findTagsFile();
  Inv.SchemaPath = Own.str().str();
  Inv.FileSystem = FS;
  SourceMgr SM;
  StoredDiagnosticConsumer Stored;
  DiagnosticsEngine Diags(SM, Stored);
  Expected<Analysis> A = analyzeSchema(Inv, Diags);
  if (!A)
    return A.takeError();
  if (Diags.hasErrors())
    return createStringError(
        inconvertibleErrorCode(), "'%s' does not check on its own: %s",
        F->getName().c_str(), Stored.Diagnostics.front().Message.c_str());
  std::string Out;
  raw_string_ostream OS(Out);
  // Named for the project's schema, as the build names them.
  EmitOptions Emit = getEmitOptions(Inv);
  Emit.Inputs = {sys::path::filename(State.getProject().Inv.SchemaPath).str()};
  for (const GeneratedFile &File : emitAll(A->Model, Emit))
    OS << "// ===== " << File.Name << " =====\n" << File.Contents << "\n";
  return Out;
}

} // namespace skc
