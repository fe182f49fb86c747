//===--- OpenDocuments.h - The files the client has open --------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The documents the client has open, as edited and not yet saved, and a
/// file system that shows them over the real one. The protocol thread
/// changes them while checks read them on the server's worker, so every
/// access takes the lock and hands out copies.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_LIB_LSP_OPENDOCUMENTS_H
#define SKC_LIB_LSP_OPENDOCUMENTS_H

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace skc {

struct Document {
  /// The URI the client names it by.
  std::string URI;
  std::string Text;
  int64_t Version = 0;
  /// Counts the document's edits across the session: the modification time
  /// its file shows, so that a cached preamble that included it is rebuilt
  /// after an edit that keeps its size.
  uint64_t Stamp = 0;
};

class OpenDocuments {
public:
  /// A copy of the document at absolute path \p Path, if it is open.
  std::optional<Document> get(llvm::StringRef Path) const;
  void set(llvm::StringRef Path, Document D);
  void erase(llvm::StringRef Path);
  std::vector<std::string> getPaths() const;
  /// A fresh stamp for an edit.
  uint64_t nextStamp();

  /// The real file system with the open documents' texts over it, as they
  /// are when a file is read.
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> getFileSystem();

private:
  mutable std::mutex Mutex;
  llvm::StringMap<Document> Documents;
  uint64_t LastStamp = 0;
};

} // namespace skc

#endif // SKC_LIB_LSP_OPENDOCUMENTS_H
