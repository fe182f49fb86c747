//===--- OutputFiles.cpp - All-or-nothing writes of skc's outputs ---------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Basic/OutputFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>

using namespace llvm;

namespace skc {

static Error fileError(std::error_code EC, StringRef Path) {
  return createStringError(EC, "cannot write '%s': %s", Path.str().c_str(),
                           EC.message().c_str());
}

namespace {
/// Holds back the signals that end a process while alive, so that a file is
/// never created without being registered for removal on them.
class SignalsHeldBack {
public:
  SignalsHeldBack() {
    sigset_t Set;
    sigemptyset(&Set);
    for (int Signal : {SIGHUP, SIGINT, SIGTERM, SIGQUIT, SIGUSR2})
      sigaddset(&Set, Signal);
    pthread_sigmask(SIG_BLOCK, &Set, &Saved);
  }
  ~SignalsHeldBack() { pthread_sigmask(SIG_SETMASK, &Saved, nullptr); }

private:
  sigset_t Saved;
};
} // namespace

/// Writes \p Contents to a new temporary file beside \p Path, registered for
/// removal on a signal, and returns its name.
static Expected<std::string> stage(StringRef Path, StringRef Contents) {
  int FD;
  SmallString<256> Temp;
  {
    SignalsHeldBack Held;
    if (std::error_code EC =
            sys::fs::createUniqueFile(Path + ".tmp-%%%%%%%%", FD, Temp))
      return fileError(EC, Path);
    sys::RemoveFileOnSignal(Temp);
  }
  raw_fd_ostream OS(FD, /*shouldClose=*/true);
  OS << Contents;
  // Close before asking: the last flush can fail too (a full disk), and an
  // error still pending at destruction is a fatal one.
  OS.close();
  if (OS.has_error()) {
    std::error_code EC = OS.error();
    OS.clear_error();
    sys::fs::remove(Temp);
    sys::DontRemoveFileOnSignal(Temp);
    return fileError(EC, Temp);
  }
  return std::string(Temp);
}

Error OutputFiles::commit() {
  // Check every destination, and drop the files that would not change.
  std::vector<const File *> Changed;
  StringSet<> Seen;
  for (const File &F : Files) {
    if (!Seen.insert(F.Path).second)
      return createStringError(std::errc::invalid_argument,
                               "'%s' is written twice", F.Path.c_str());
    sys::fs::file_status Status;
    if (!sys::fs::status(F.Path, Status) && sys::fs::is_directory(Status))
      return fileError(std::make_error_code(std::errc::is_a_directory),
                       F.Path);
    if (F.When == Rewrite::IfChanged)
      if (ErrorOr<std::unique_ptr<MemoryBuffer>> Old =
              MemoryBuffer::getFile(F.Path, /*IsText=*/false,
                                    /*RequiresNullTerminator=*/false))
        if ((*Old)->getBuffer() == F.Contents)
          continue;
    SmallString<256> Dir(F.Path);
    sys::path::remove_filename(Dir);
    if (!Dir.empty())
      if (std::error_code EC = sys::fs::create_directories(Dir))
        return fileError(EC, F.Path);
    Changed.push_back(&F);
  }

  std::vector<std::string> Staged;
  auto Unstage = [&](size_t From) {
    for (size_t I = From; I < Staged.size(); ++I) {
      sys::fs::remove(Staged[I]);
      sys::DontRemoveFileOnSignal(Staged[I]);
    }
  };
  for (const File *F : Changed) {
    Expected<std::string> Temp = stage(F->Path, F->Contents);
    if (!Temp) {
      Unstage(0);
      return Temp.takeError();
    }
    Staged.push_back(std::move(*Temp));
  }
  for (size_t I = 0; I != Changed.size(); ++I) {
    if (std::error_code EC = sys::fs::rename(Staged[I], Changed[I]->Path)) {
      // Only a change of the file system since the checks gets here.
      Unstage(I);
      return fileError(EC, Changed[I]->Path);
    }
    sys::DontRemoveFileOnSignal(Staged[I]);
  }
  return Error::success();
}

} // namespace skc
