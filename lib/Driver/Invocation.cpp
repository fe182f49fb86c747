//===--- Invocation.cpp - One run of skc, as parsed options ---------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Driver/Invocation.h"
#include "skc/Config.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace skc {

std::vector<DispatchKey>
Invocation::getDefaultBackends(const std::vector<std::string> &Sources) {
  auto IsCUDA = [](const std::string &S) {
    return StringRef(S).ends_with(".cu");
  };
  std::vector<DispatchKey> Result;
  if (!all_of(Sources, IsCUDA))
    Result.push_back(DispatchKey::CPU);
  if (any_of(Sources, IsCUDA))
    Result.push_back(DispatchKey::CUDA);
  return Result;
}

std::string Invocation::getOutputPath(StringRef Name) const {
  SmallString<256> Path(OutputDir);
  sys::path::append(Path, Name);
  return std::string(Path);
}

std::string Invocation::findTagsFile() const {
  if (!TagsPath.empty())
    return TagsPath;
  if (SchemaPath == "-")
    return "";
  SmallString<256> Beside(SchemaPath);
  sys::path::remove_filename(Beside);
  sys::path::append(Beside, "tags.yaml");
  return sys::fs::exists(Beside) ? std::string(Beside) : "";
}

std::string Invocation::getDefaultRuntimeIncludeDir(StringRef ExecutablePath) {
  SmallString<256> Installed(
      sys::path::parent_path(sys::path::parent_path(ExecutablePath)));
  sys::path::append(Installed, "include");
  SmallString<256> Probe(Installed);
  sys::path::append(Probe, "sk", "Kernel.h");
  if (!ExecutablePath.empty() && sys::fs::exists(Probe))
    return std::string(Installed);
  return SKC_RUNTIME_INCLUDE_DIR;
}

} // namespace skc
