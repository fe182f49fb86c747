//===--- Project.cpp - The kernel library a file belongs to ---------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Project.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace llvm;

namespace skc {

/// The version of the project file format this server reads.
static constexpr int64_t ProjectFileVersion = 1;

bool Project::isSource(StringRef Path) const {
  return is_contained(Inv.Sources, Path);
}

bool Project::owns(StringRef Path) const {
  return Path == Inv.SchemaPath ||
         (!Inv.TagsPath.empty() && Path == Inv.TagsPath) ||
         (!Inv.DispatchKeysPath.empty() && Path == Inv.DispatchKeysPath) ||
         isSource(Path);
}

static Error makeProjectError(StringRef Path, const Twine &Why) {
  return createStringError(inconvertibleErrorCode(), "project file '%s': %s",
                           Path.str().c_str(), Why.str().c_str());
}

Expected<Project> readProjectFile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(Path);
  if (!Buffer)
    return makeProjectError(Path, Buffer.getError().message());
  Expected<json::Value> Value = json::parse((*Buffer)->getBuffer());
  if (!Value)
    return makeProjectError(Path, toString(Value.takeError()));
  const json::Object *O = Value->getAsObject();
  if (!O)
    return makeProjectError(Path, "not a JSON object");
  if (O->getInteger("version") != ProjectFileVersion)
    return makeProjectError(Path, "a version this skc-lsp does not read");

  Project P;
  P.ProjectFile = Path.str();
  auto GetString = [&](StringRef Key, std::string &Into) {
    if (std::optional<StringRef> S = O->getString(Key))
      Into = S->str();
  };
  auto GetStrings = [&](StringRef Key, std::vector<std::string> &Into) {
    if (const json::Array *A = O->getArray(Key))
      for (const json::Value &V : *A)
        if (std::optional<StringRef> S = V.getAsString())
          Into.push_back(S->str());
  };
  GetString("name", P.Name);
  GetString("schema", P.Inv.SchemaPath);
  GetString("tags", P.Inv.TagsPath);
  GetString("dispatchKeys", P.Inv.DispatchKeysPath);
  GetStrings("sources", P.Inv.Sources);
  GetString("namespace", P.Inv.Namespace);
  GetString("cppNamespace", P.Inv.CppNamespace);
  GetString("buildDirectory", P.Inv.BuildPath);
  GetString("generatedDirectory", P.GeneratedDir);
  GetString("runtimeInclude", P.Inv.RuntimeIncludeDir);
  if (std::optional<int64_t> Shards = O->getInteger("shards");
      Shards && *Shards > 0)
    P.Inv.Shards = static_cast<unsigned>(*Shards);
  std::vector<std::string> Backends;
  GetStrings("backends", Backends);
  for (const std::string &B : Backends) {
    std::optional<DispatchKey> Key = lookupBuiltinDispatchKey(B);
    if (!Key || !is_contained(getSelectableBackends(), *Key))
      return makeProjectError(Path, "unknown backend '" + B + "'");
    P.Inv.Backends.push_back(*Key);
  }
  // skc's options: the compile flags after `--` are the only ones a check
  // as you type needs.
  std::vector<std::string> Options;
  GetStrings("skcOptions", Options);
  auto DashDash = find(Options, "--");
  if (DashDash != Options.end())
    P.Inv.ExtraFlags.assign(std::next(DashDash), Options.end());
  if (P.Name.empty() || P.Inv.SchemaPath.empty())
    return makeProjectError(Path, "no 'name' or no 'schema'");
  if (P.Inv.Backends.empty())
    P.Inv.Backends = Invocation::getDefaultBackends(P.Inv.Sources);
  return P;
}

std::vector<std::string> listProjectFiles(StringRef BuildDir) {
  SmallString<256> Dir(BuildDir);
  sys::path::append(Dir, "skc-projects");
  std::vector<std::string> Files;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (sys::path::extension(It->path()) == ".json")
      Files.push_back(It->path());
  // Directory order is the file system's; the answer must not be.
  llvm::sort(Files);
  return Files;
}

std::vector<std::string> findBuildDirs(StringRef File) {
  std::vector<std::string> Dirs;
  for (StringRef Dir = sys::path::parent_path(File); !Dir.empty();
       Dir = sys::path::parent_path(Dir)) {
    for (StringRef Sub : {"", "build"}) {
      SmallString<256> Candidate(Dir);
      if (!Sub.empty())
        sys::path::append(Candidate, Sub);
      SmallString<256> Database(Candidate);
      sys::path::append(Database, "compile_commands.json");
      if (sys::fs::exists(Database))
        Dirs.push_back(Candidate.str().str());
    }
    if (Dir == sys::path::root_path(Dir))
      break;
  }
  return Dirs;
}

} // namespace skc
