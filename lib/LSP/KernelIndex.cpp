//===--- KernelIndex.cpp - The kernels a project's sources define ---------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KernelIndex.h"

#include "llvm/ADT/STLExtras.h"

#include <tuple>

using namespace llvm;

namespace skc {

void KernelIndex::set(StringRef File, std::vector<KernelSymbol> Symbols) {
  std::lock_guard<std::mutex> Lock(Mutex);
  ByFile[File] = std::move(Symbols);
}

void KernelIndex::setIfAbsent(StringRef File,
                              std::vector<KernelSymbol> Symbols) {
  std::lock_guard<std::mutex> Lock(Mutex);
  ByFile.try_emplace(File, std::move(Symbols));
}

bool KernelIndex::contains(StringRef File) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return ByFile.count(File);
}

std::vector<KernelSymbol> KernelIndex::find(KernelDeclKind Kind,
                                            StringRef Name) const {
  std::vector<KernelSymbol> Found;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    for (const auto &Entry : ByFile)
      for (const KernelSymbol &S : Entry.second)
        if (S.Kind == Kind && S.Name == Name)
          Found.push_back(S);
  }
  // The map's order is its hashing's; the answer's must not be.
  llvm::sort(Found, [](const KernelSymbol &A, const KernelSymbol &B) {
    return std::tie(A.File, A.NameRange.start) <
           std::tie(B.File, B.NameRange.start);
  });
  return Found;
}

std::vector<KernelSymbol> KernelIndex::getKernels(StringRef File) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto It = ByFile.find(File);
  return It == ByFile.end() ? std::vector<KernelSymbol>() : It->second;
}

std::vector<KernelSymbol> KernelIndex::getAll() const {
  std::vector<KernelSymbol> All;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    for (const auto &Entry : ByFile)
      All.insert(All.end(), Entry.second.begin(), Entry.second.end());
  }
  llvm::sort(All, [](const KernelSymbol &A, const KernelSymbol &B) {
    return std::tie(A.File, A.NameRange.start) <
           std::tie(B.File, B.NameRange.start);
  });
  return All;
}

} // namespace skc
