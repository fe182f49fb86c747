//===--- OpenDocuments.cpp - The files the client has open ----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "OpenDocuments.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace skc {

std::optional<Document> OpenDocuments::get(StringRef Path) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto It = Documents.find(Path);
  if (It == Documents.end())
    return std::nullopt;
  return It->second;
}

void OpenDocuments::set(StringRef Path, Document D) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Documents[Path] = std::move(D);
}

void OpenDocuments::erase(StringRef Path) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Documents.erase(Path);
}

std::vector<std::string> OpenDocuments::getPaths() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  std::vector<std::string> Paths;
  for (const auto &Entry : Documents)
    Paths.push_back(Entry.first().str());
  llvm::sort(Paths);
  return Paths;
}

uint64_t OpenDocuments::nextStamp() {
  std::lock_guard<std::mutex> Lock(Mutex);
  return ++LastStamp;
}

namespace {

/// An open document as a file: its text when it was opened for reading.
class DocumentFile : public vfs::File {
public:
  DocumentFile(vfs::Status Status, std::string Text)
      : Status(std::move(Status)), Text(std::move(Text)) {}
  ErrorOr<vfs::Status> status() override { return Status; }
  ErrorOr<std::unique_ptr<MemoryBuffer>> getBuffer(const Twine &Name, int64_t,
                                                   bool, bool) override {
    return MemoryBuffer::getMemBufferCopy(Text, Name);
  }
  std::error_code close() override { return {}; }

private:
  vfs::Status Status;
  std::string Text;
};

/// The real file system, with each open document read from its text. Its
/// working directory is its own, not the process's.
class DocumentFileSystem : public vfs::ProxyFileSystem {
public:
  explicit DocumentFileSystem(OpenDocuments &Documents)
      : ProxyFileSystem(vfs::createPhysicalFileSystem()), Documents(Documents) {
  }

  ErrorOr<vfs::Status> status(const Twine &Path) override {
    if (std::optional<std::pair<vfs::Status, std::string>> Open = getOpen(Path))
      return Open->first;
    return ProxyFileSystem::status(Path);
  }

  ErrorOr<std::unique_ptr<vfs::File>>
  openFileForRead(const Twine &Path) override {
    if (std::optional<std::pair<vfs::Status, std::string>> Open = getOpen(Path))
      return std::make_unique<DocumentFile>(std::move(Open->first),
                                            std::move(Open->second));
    return ProxyFileSystem::openFileForRead(Path);
  }

private:
  /// The status and text of \p Path's document, when it is open. The
  /// status is the file's own, with the document's size and stamp; a file
  /// not yet saved gets an ID of its path (Clang's FileManager tells files
  /// apart by ID).
  std::optional<std::pair<vfs::Status, std::string>>
  getOpen(const Twine &Path) {
    SmallString<256> Absolute;
    Path.toVector(Absolute);
    if (makeAbsolute(Absolute))
      return std::nullopt;
    std::optional<Document> D = Documents.get(Absolute);
    if (!D)
      return std::nullopt;
    ErrorOr<vfs::Status> OnDisk = ProxyFileSystem::status(Absolute);
    sys::fs::UniqueID ID =
        OnDisk ? OnDisk->getUniqueID()
               : sys::fs::UniqueID(~0ULL, hash_value(Absolute.str()));
    vfs::Status Status(
        Absolute, ID, sys::toTimePoint(static_cast<time_t>(D->Stamp)),
        /*User=*/0, /*Group=*/0, D->Text.size(),
        sys::fs::file_type::regular_file, sys::fs::perms::all_read);
    return std::make_pair(std::move(Status), std::move(D->Text));
  }

  OpenDocuments &Documents;
};

} // namespace

IntrusiveRefCntPtr<vfs::FileSystem> OpenDocuments::getFileSystem() {
  return makeIntrusiveRefCnt<DocumentFileSystem>(*this);
}

} // namespace skc
