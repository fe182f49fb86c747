//===--- LSPEditBench.cpp - skc-lsp's answer to an edit -------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// How long an editor waits for skc-lsp's diagnostics after an edit. The
/// server runs in this process on its own thread, as skc-lsp runs it, and
/// the benchmark talks to it over pipes in LSP's framing, as an editor
/// does: it opens a file, then each iteration sends one edit and waits for
/// the publishDiagnostics of the edited version. The time is wall-clock,
/// from the edit's first byte sent to the diagnostics' last byte read,
/// with the server's debounce delay (the argument, in ms: 50 is skc-lsp's
/// default) included.
///
///   BM_EditKernelSource   kernels/cpu/UnaryOps.cpp of skc's own kernel
///                         library, found through its project file in the
///                         build directory: a statement added to and taken
///                         from a kernel body, in turn. The preamble is
///                         built when the file is opened, before timing;
///   BM_EditPyTorchSchema  PyTorch's whole native_functions.yaml (2.5.1's
///                         from ../shared, else 2.15's in third_party/),
///                         checked on its own with its tags.yaml: a comment
///                         line added to and taken from the middle, in
///                         turn.
///
/// Run from a Release build, after `cmake --build build` (the kernel
/// library's generated headers and compile commands must exist):
///
///   build/bench/skc-bench-lsp --benchmark_repetitions=5
///
//===----------------------------------------------------------------------===//

#include "skc/Config.h"
#include "skc/LSP/Server.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/LSP/Transport.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <unistd.h>

using namespace llvm;

namespace {

/// A language server in this process, and the editor's end of its pipes.
class InProcessServer {
public:
  explicit InProcessServer(std::chrono::milliseconds Debounce) {
    int ToServer[2], FromServer[2];
    if (pipe(ToServer) || pipe(FromServer))
      report_fatal_error("cannot make pipes");
    ClientOut = ToServer[1];
    ClientIn = FromServer[0];
    ServerIn = fdopen(ToServer[0], "r");
    ServerOut = std::make_unique<raw_fd_ostream>(FromServer[1],
                                                 /*shouldClose=*/true);
    Options.BuildPath = SKC_BENCH_BUILD_DIR;
    Options.RuntimeIncludeDir = SKC_RUNTIME_INCLUDE_DIR;
    Options.Debounce = Debounce;
    lsp::Logger::setLogLevel(lsp::Logger::Level::Error);
    Server = std::thread([this] {
      lsp::JSONTransport Transport(ServerIn, *ServerOut);
      if (Error E = skc::runServer(Options, Transport))
        consumeError(std::move(E));
      ServerOut->close();
    });
    Reader = std::thread([this] { read(); });
    send(json::Object{
        {"jsonrpc", "2.0"},
        {"id", 0},
        {"method", "initialize"},
        {"params", json::Object{{"capabilities", json::Object{}}}}});
  }

  ~InProcessServer() {
    send(json::Object{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "shutdown"}});
    send(json::Object{{"jsonrpc", "2.0"}, {"method", "exit"}});
    close(ClientOut);
    Server.join();
    Reader.join();
    fclose(ServerIn);
    close(ClientIn);
  }

  void notify(StringRef Method, json::Object Params) {
    send(json::Object{
        {"jsonrpc", "2.0"}, {"method", Method}, {"params", std::move(Params)}});
  }

  /// Waits for the diagnostics of version \p Version of \p URI.
  void waitForDiagnostics(const std::string &URI, int64_t Version) {
    std::unique_lock<std::mutex> Lock(Mutex);
    Published.wait(Lock, [&] { return Versions[URI] >= Version; });
  }

private:
  void send(json::Value Message) {
    std::string Body;
    raw_string_ostream(Body) << Message;
    std::string Text =
        "Content-Length: " + std::to_string(Body.size()) + "\r\n\r\n" + Body;
    for (size_t Sent = 0; Sent < Text.size();) {
      ssize_t N = write(ClientOut, Text.data() + Sent, Text.size() - Sent);
      if (N <= 0)
        report_fatal_error("the server stopped reading");
      Sent += N;
    }
  }

  /// Reads the server's messages, noting each document's last published
  /// version.
  void read() {
    std::string Buffer;
    char Chunk[1 << 16];
    while (true) {
      ssize_t N = ::read(ClientIn, Chunk, sizeof(Chunk));
      if (N <= 0)
        return;
      Buffer.append(Chunk, N);
      while (true) {
        size_t HeaderEnd = Buffer.find("\r\n\r\n");
        if (HeaderEnd == std::string::npos)
          break;
        size_t Length = std::stoul(Buffer.substr(strlen("Content-Length: ")));
        if (Buffer.size() < HeaderEnd + 4 + Length)
          break;
        Expected<json::Value> Message =
            json::parse(StringRef(Buffer).substr(HeaderEnd + 4, Length));
        Buffer.erase(0, HeaderEnd + 4 + Length);
        if (!Message) {
          consumeError(Message.takeError());
          continue;
        }
        const json::Object *O = Message->getAsObject();
        if (!O || O->getString("method") != "textDocument/publishDiagnostics")
          continue;
        const json::Object *Params = O->getObject("params");
        std::lock_guard<std::mutex> Lock(Mutex);
        Versions[Params->getString("uri")->str()] =
            Params->getInteger("version").value_or(0);
        Published.notify_all();
      }
    }
  }

  skc::ServerOptions Options;
  int ClientOut, ClientIn;
  std::FILE *ServerIn;
  std::unique_ptr<raw_fd_ostream> ServerOut;
  std::thread Server, Reader;
  std::mutex Mutex;
  std::condition_variable Published;
  std::map<std::string, int64_t> Versions;
};

/// Opens \p Path, then edits it at \p Line, inserting \p Insert and taking
/// it away in turn, one edit per iteration.
void benchmarkEdits(benchmark::State &State, StringRef Path, int Line,
                    StringRef Insert) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Path);
  if (!Text) {
    State.SkipWithError(("cannot read " + Path).str().c_str());
    return;
  }
  InProcessServer Server{std::chrono::milliseconds(State.range(0))};
  std::string URI = "file://" + Path.str();
  Server.notify("textDocument/didOpen",
                json::Object{{"textDocument",
                              json::Object{{"uri", URI},
                                           {"languageId", "cpp"},
                                           {"version", 1},
                                           {"text", (*Text)->getBuffer()}}}});
  Server.waitForDiagnostics(URI, 1);
  int64_t Version = 1;
  auto Position = [](int Line, int Character) {
    return json::Object{{"line", Line}, {"character", Character}};
  };
  for (auto _ : State) {
    bool Inserting = Version % 2 == 1;
    json::Object Range{
        {"start", Position(Line, 0)},
        {"end", Inserting ? Position(Line, 0) : Position(Line + 1, 0)}};
    Server.notify(
        "textDocument/didChange",
        json::Object{
            {"textDocument",
             json::Object{{"uri", URI}, {"version", ++Version}}},
            {"contentChanges",
             json::Array{json::Object{{"range", std::move(Range)},
                                      {"text", Inserting ? Insert : ""}}}}});
    Server.waitForDiagnostics(URI, Version);
  }
}

/// The line after the first line of kernels/cpu/UnaryOps.cpp that opens an
/// impl's body: a place in a function body.
int findKernelBodyLine(StringRef Text) {
  size_t Impl = Text.find("SK_IMPL_FUNC(");
  size_t Body = Text.find("{\n", Impl);
  return Impl == StringRef::npos || Body == StringRef::npos
             ? 0
             : static_cast<int>(Text.take_front(Body).count('\n')) + 1;
}

void BM_EditKernelSource(benchmark::State &State) {
  std::string Path = SKC_BENCH_KERNELS_DIR "/cpu/UnaryOps.cpp";
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Path);
  if (!Text) {
    State.SkipWithError("cannot read kernels/cpu/UnaryOps.cpp");
    return;
  }
  benchmarkEdits(State, Path, findKernelBodyLine((*Text)->getBuffer()),
                 "  ;\n");
}
BENCHMARK(BM_EditKernelSource)
    ->Arg(50)
    ->Arg(0)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(20);

void BM_EditPyTorchSchema(benchmark::State &State) {
  std::string Path =
      SKC_BENCH_SHARED_DIR "/data/pytorch-2.5/native_functions.yaml";
  if (!sys::fs::exists(Path))
    Path = SKC_BENCH_VENDORED_PYTORCH_DIR "/native_functions.yaml";
  State.SetLabel(Path.find("pytorch-2.5") != std::string::npos ? "2.5.1"
                                                               : "2.15");
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Path);
  int Middle =
      Text ? static_cast<int>((*Text)->getBuffer().count('\n') / 2) : 0;
  // The start of an entry, for a comment line of its own.
  if (Text) {
    SmallVector<StringRef, 0> Lines;
    (*Text)->getBuffer().split(Lines, '\n');
    while (Middle < static_cast<int>(Lines.size()) &&
           !Lines[Middle].starts_with("- func:"))
      ++Middle;
  }
  benchmarkEdits(State, Path, Middle, "# edited\n");
}
BENCHMARK(BM_EditPyTorchSchema)
    ->Arg(50)
    ->Arg(0)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(20);

} // namespace

BENCHMARK_MAIN();
