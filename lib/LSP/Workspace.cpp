//===--- Workspace.cpp - The projects of the files the client opens -------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Workspace.h"

#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace skc {

DocumentKind getDocumentKind(StringRef Path) {
  StringRef Ext = sys::path::extension(Path);
  if (Ext == ".yaml" || Ext == ".yml")
    return DocumentKind::Schema;
  if (Ext == ".cpp" || Ext == ".cc" || Ext == ".cxx" || Ext == ".cu")
    return DocumentKind::KernelSource;
  return DocumentKind::Other;
}

Workspace::Workspace(const ServerOptions &Options, ServerHooks Hooks)
    : Options(Options), Hooks(std::move(Hooks)) {}

void Workspace::warnOnce(const std::string &Message) {
  if (Warned.insert(Message).second)
    Hooks.Warn(Message);
}

std::shared_ptr<const Project> Workspace::findInBuildDirs(StringRef Path) {
  std::vector<std::string> BuildDirs;
  if (!Options.BuildPath.empty())
    BuildDirs.push_back(Options.BuildPath);
  else
    BuildDirs = findBuildDirs(Path);
  for (const std::string &Dir : BuildDirs) {
    for (const std::string &File : listProjectFiles(Dir)) {
      sys::fs::file_status Status;
      if (sys::fs::status(File, Status))
        continue;
      CachedProjectFile &Cached = ProjectFiles[File];
      if (!Cached.P ||
          Cached.ModificationTime != Status.getLastModificationTime()) {
        Expected<Project> P = readProjectFile(File);
        if (!P) {
          warnOnce("skc-lsp: " + toString(P.takeError()));
          continue;
        }
        if (P->Inv.RuntimeIncludeDir.empty())
          P->Inv.RuntimeIncludeDir = Options.RuntimeIncludeDir;
        Cached = {Status.getLastModificationTime(),
                  std::make_shared<const Project>(std::move(*P))};
      }
      if (Cached.P->owns(Path))
        return Cached.P;
    }
  }
  return nullptr;
}

ProjectState &Workspace::getState(const std::string &Key, const Project &P) {
  std::unique_ptr<ProjectState> &State = States[Key];
  // A project file that changed (a source added, a flag) makes a new state.
  const Invocation *Had = State ? &State->getProject().Inv : nullptr;
  if (!Had || State->getProject().ProjectFile != P.ProjectFile ||
      Had->Sources != P.Inv.Sources || Had->Backends != P.Inv.Backends ||
      Had->BuildPath != P.Inv.BuildPath || Had->ExtraFlags != P.Inv.ExtraFlags)
    State = std::make_unique<ProjectState>(P, Hooks);
  return *State;
}

ProjectState *Workspace::getProjectFor(StringRef Path) {
  if (std::shared_ptr<const Project> P = findInBuildDirs(Path)) {
    LastProject[Path] = P->ProjectFile;
    return &getState(P->ProjectFile, *P);
  }
  // A file whose project file has gone (the build directory was deleted or
  // reconfigured): its project as it was.
  if (auto It = LastProject.find(Path); It != LastProject.end()) {
    auto State = States.find(It->second);
    if (State != States.end() &&
        !State->second->getProject().ProjectFile.empty()) {
      warnOnce("skc-lsp: the project file '" + It->second +
               "' is gone (was the build directory deleted?); its files are "
               "checked as it last said until the build is configured again");
      return State->second.get();
    }
  }
  DocumentKind Kind = getDocumentKind(Path);
  if (!Options.SchemaPath.empty() &&
      (Kind == DocumentKind::KernelSource || Path == Options.SchemaPath)) {
    // The server's --schema, -p and flags: the sources given are checked
    // against it.
    Project P;
    P.Inv.SchemaPath = Options.SchemaPath;
    P.Inv.BuildPath = Options.BuildPath;
    P.Inv.RuntimeIncludeDir = Options.RuntimeIncludeDir;
    P.Inv.ExtraFlags = Options.ExtraFlags;
    // Both kinds of source, so that one state serves .cpp and .cu files.
    P.Inv.Backends = Invocation::getDefaultBackends({"a.cpp", "a.cu"});
    return &getState("--schema", P);
  }
  if (Kind != DocumentKind::Schema)
    return nullptr;
  // A schema on its own, with the tags.yaml beside it, as `skc --schema`
  // checks it.
  Project P;
  P.Inv.SchemaPath = Path.str();
  P.Inv.RuntimeIncludeDir = Options.RuntimeIncludeDir;
  return &getState("schema:" + Path.str(), P);
}

} // namespace skc
