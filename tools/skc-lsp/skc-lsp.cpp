//===--- skc-lsp.cpp - skc's language server ------------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// skc-lsp speaks LSP 3.17 over stdin and stdout; an editor starts it. With
/// -lit-test it reads messages separated by `// -----` lines and writes
/// readable JSON, for tests (as LLVM's language servers do).
///
//===----------------------------------------------------------------------===//

#include "skc/Config.h"
#include "skc/Driver/Invocation.h"
#include "skc/LSP/Server.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/LSP/Transport.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>

using namespace llvm;

static cl::OptionCategory Category("skc-lsp options");

static cl::opt<bool> LitTest(
    "lit-test",
    cl::desc("Read messages separated by '// -----' lines and write readable "
             "JSON (for lit tests)"),
    cl::cat(Category));

static cl::opt<bool>
    Sync("sync",
         cl::desc("Do each check and answer each request at once, in the order "
                  "the messages come, on one thread (implied by -lit-test)"),
         cl::cat(Category));

static cl::opt<unsigned> Debounce(
    "debounce",
    cl::desc("How long a check waits for the next edit before it starts, "
             "in milliseconds"),
    cl::value_desc("ms"), cl::init(50), cl::cat(Category));

static cl::opt<lsp::Logger::Level> LogLevel(
    "log", cl::desc("How much to log to stderr"),
    cl::values(clEnumValN(lsp::Logger::Level::Error, "error", "errors"),
               clEnumValN(lsp::Logger::Level::Info, "info", "what happens"),
               clEnumValN(lsp::Logger::Level::Debug, "verbose",
                          "every message")),
    cl::init(lsp::Logger::Level::Info), cl::cat(Category));

static cl::opt<std::string> DocsURL(
    "docs-url",
    cl::desc("docs/diagnostics.md as a URL, for each diagnostic's link to "
             "its entry; default: the installed skc's, else the source "
             "tree's; 'none' for no links"),
    cl::value_desc("url"), cl::cat(Category));

static cl::opt<std::string> SchemaPath(
    "schema",
    cl::desc("The schema that kernel sources outside every project are "
             "checked against; without it, they are not checked"),
    cl::value_desc("file"), cl::cat(Category));

static cl::opt<std::string> BuildPath(
    "p",
    cl::desc("The build directory with compile_commands.json and the "
             "project files skc_add_kernel_library writes; default: the "
             "nearest above each file (or its build/), as clangd looks"),
    cl::value_desc("dir"), cl::cat(Category));

static cl::opt<std::string> RuntimeInclude(
    "runtime-include",
    cl::desc("The runtime's headers (the directory holding sk/Kernel.h); "
             "default: the include/ beside an installed skc-lsp's bin/, "
             "else the source tree's"),
    cl::value_desc("dir"), cl::init(SKC_RUNTIME_INCLUDE_DIR),
    cl::cat(Category));

/// --runtime-include, else the installed or the source tree's headers.
static std::string findRuntimeInclude(const char *Argv0) {
  if (RuntimeInclude.getNumOccurrences())
    return RuntimeInclude;
  return skc::Invocation::getDefaultRuntimeIncludeDir(
      sys::fs::getMainExecutable(
          Argv0, reinterpret_cast<void *>(&findRuntimeInclude)));
}

/// The diagnostics reference: <prefix>/share/doc/skc/diagnostics.md beside
/// an installed skc-lsp, else the source tree's.
static std::string findDiagnosticsDoc(const char *Argv0) {
  if (DocsURL.getNumOccurrences())
    return DocsURL == "none" ? std::string() : std::string(DocsURL);
  std::string Exe = sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&findDiagnosticsDoc));
  SmallString<256> Path(sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(Path, "share", "doc", "skc", "diagnostics.md");
  if (Exe.empty() || !sys::fs::exists(Path))
    Path = SKC_DOCS_DIR "/diagnostics.md";
  Expected<lsp::URIForFile> URI = lsp::URIForFile::fromFile(Path);
  if (!URI) {
    consumeError(URI.takeError());
    return "";
  }
  return URI->uri().str();
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter(
      [](raw_ostream &OS) { OS << "skc-lsp " << SKC_VERSION << "\n"; });
  cl::ParseCommandLineOptions(
      argc, argv,
      "skc-lsp: skc's diagnostics, quick fixes, navigation and completion "
      "in an editor, over the Language Server Protocol (stdin and "
      "stdout)\n");
  lsp::Logger::setLogLevel(LogLevel);

  // Tests name their documents test:///file.
  if (LitTest)
    lsp::URIForFile::registerSupportedScheme("test");
  skc::ServerOptions Options;
  Options.DiagnosticsDocURL = findDiagnosticsDoc(argv[0]);
  if (!SchemaPath.empty()) {
    SmallString<256> Absolute(SchemaPath);
    sys::fs::make_absolute(Absolute);
    Options.SchemaPath = Absolute.str().str();
  }
  Options.BuildPath = BuildPath;
  Options.RuntimeIncludeDir = findRuntimeInclude(argv[0]);
  Options.Synchronous = Sync || LitTest;
  Options.Debounce = std::chrono::milliseconds(Debounce);
  lsp::JSONTransport Transport(stdin, outs(),
                               LitTest ? lsp::JSONStreamStyle::Delimited
                                       : lsp::JSONStreamStyle::Standard,
                               /*PrettyOutput=*/LitTest);
  if (Error E = skc::runServer(Options, Transport)) {
    lsp::Logger::error("{0}", toString(std::move(E)));
    return 1;
  }
  return 0;
}
