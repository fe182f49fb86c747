//===--- Server.cpp - skc's language server -------------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/LSP/Server.h"
#include "skc/Basic/Diagnostic.h"
#include "skc/Config.h"
#include "skc/Driver/Pipeline.h"

#include "DiagnosticConversion.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/LSP/Transport.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace llvm;

namespace skc {

namespace {

/// A file the client has open: its text as edited, which need not be
/// saved.
struct Document {
  /// The URI the client names it by.
  std::string URI;
  std::string Text;
  int64_t Version = 0;
};

/// What kind of file skc checks a document as.
enum class DocumentKind { Schema, KernelSource, Other };

DocumentKind getDocumentKind(StringRef Path) {
  StringRef Ext = sys::path::extension(Path);
  if (Ext == ".yaml" || Ext == ".yml")
    return DocumentKind::Schema;
  if (Ext == ".cpp" || Ext == ".cc" || Ext == ".cxx" || Ext == ".cu")
    return DocumentKind::KernelSource;
  return DocumentKind::Other;
}

/// textDocument/codeAction's parameters, with the diagnostics as the
/// client sent them back (lsp::CodeActionParams drops their `data`).
struct CodeActionRequest {
  lsp::TextDocumentIdentifier TextDocument;
  json::Array Diagnostics;
};

bool fromJSON(const json::Value &Value, CodeActionRequest &Result,
              json::Path Path) {
  json::ObjectMapper O(Value, Path);
  const json::Object *Context =
      Value.getAsObject() ? Value.getAsObject()->getObject("context") : nullptr;
  if (!O || !O.map("textDocument", Result.TextDocument) || !Context)
    return false;
  if (const json::Array *Diagnostics = Context->getArray("diagnostics"))
    Result.Diagnostics = *Diagnostics;
  return true;
}

class Server {
public:
  Server(const ServerOptions &Options, lsp::JSONTransport &Transport,
         lsp::MessageHandler &Handler)
      : Options(Options), Transport(Transport) {
    Handler.method("initialize", this, &Server::onInitialize);
    Handler.notification("initialized", this, &Server::onInitialized);
    Handler.method("shutdown", this, &Server::onShutdown);
    Handler.notification("textDocument/didOpen", this, &Server::onDidOpen);
    Handler.notification("textDocument/didChange", this, &Server::onDidChange);
    Handler.notification("textDocument/didClose", this, &Server::onDidClose);
    Handler.method("textDocument/codeAction", this, &Server::onCodeAction);
  }

private:
  void onInitialize(const lsp::InitializeParams &,
                    lsp::Callback<json::Value> Reply);
  void onInitialized(const lsp::InitializedParams &) {}
  void onShutdown(const lsp::NoParams &, lsp::Callback<std::nullptr_t> Reply) {
    Reply(nullptr);
  }
  void onDidOpen(const lsp::DidOpenTextDocumentParams &Params);
  void onDidChange(const lsp::DidChangeTextDocumentParams &Params);
  void onDidClose(const lsp::DidCloseTextDocumentParams &Params);
  void onCodeAction(const CodeActionRequest &Params,
                    lsp::Callback<json::Value> Reply);
  /// The URI of \p Path: an open document's as the client names it, any
  /// other file's as a file URI; "" when it has none.
  std::string getURI(StringRef Path) const;

  /// Checks the document at \p Path and publishes what was found; after
  /// the server's schema, every open kernel source too.
  void checkAll(StringRef Path);
  void check(StringRef Path);
  /// The real file system with the open documents' texts over it.
  IntrusiveRefCntPtr<vfs::FileSystem> getFileSystem() const;
  /// Publishes \p Diagnostics for \p Path, and clears what the last check
  /// of \p Origin published for files it no longer reports on.
  void publish(StringRef Origin,
               StringMap<std::vector<json::Value>> Diagnostics);

  const ServerOptions &Options;
  lsp::JSONTransport &Transport;
  StringMap<Document> Documents;
  /// The files each document's last check published diagnostics for.
  StringMap<StringSet<>> PublishedFor;
};

} // namespace

void Server::onInitialize(const lsp::InitializeParams &,
                          lsp::Callback<json::Value> Reply) {
  json::Object Capabilities{
      {"textDocumentSync",
       json::Object{{"openClose", true},
                    // Incremental: the client sends what changed.
                    {"change", 2}}},
      {"positionEncoding", "utf-16"},
      // Every fix-it of a diagnostic, as a quick fix.
      {"codeActionProvider",
       json::Object{{"codeActionKinds", json::Array{"quickfix"}}}}};
  Reply(json::Object{{"capabilities", std::move(Capabilities)},
                     {"serverInfo", json::Object{{"name", "skc-lsp"},
                                                 {"version", SKC_VERSION}}}});
}

void Server::onDidOpen(const lsp::DidOpenTextDocumentParams &Params) {
  Document &D = Documents[Params.textDocument.uri.file()];
  D.URI = Params.textDocument.uri.uri().str();
  D.Text = Params.textDocument.text;
  D.Version = Params.textDocument.version;
  checkAll(Params.textDocument.uri.file());
}

void Server::onDidChange(const lsp::DidChangeTextDocumentParams &Params) {
  auto It = Documents.find(Params.textDocument.uri.file());
  if (It == Documents.end()) {
    lsp::Logger::error("a change to '{0}', which is not open",
                       Params.textDocument.uri.file());
    return;
  }
  if (failed(lsp::TextDocumentContentChangeEvent::applyTo(Params.contentChanges,
                                                          It->second.Text))) {
    lsp::Logger::error("a change to '{0}' that does not fit its text",
                       Params.textDocument.uri.file());
    return;
  }
  It->second.Version = Params.textDocument.version;
  checkAll(It->first());
}

void Server::onDidClose(const lsp::DidCloseTextDocumentParams &Params) {
  StringRef Path = Params.textDocument.uri.file();
  Documents.erase(Path);
  publish(Path, {});
}

void Server::onCodeAction(const CodeActionRequest &Params,
                          lsp::Callback<json::Value> Reply) {
  // The fixes travel in each diagnostic's `data` (toLSPDiagnostics).
  json::Array Actions;
  for (const json::Value &D : Params.Diagnostics) {
    const json::Object *Diag = D.getAsObject();
    const json::Object *Data = Diag ? Diag->getObject("data") : nullptr;
    const json::Array *Fixes = Data ? Data->getArray("fixes") : nullptr;
    if (!Fixes)
      continue;
    for (const json::Value &F : *Fixes) {
      const json::Object *Fix = F.getAsObject();
      const json::Array *Edits = Fix ? Fix->getArray("edits") : nullptr;
      std::optional<StringRef> Title =
          Fix ? Fix->getString("title") : std::nullopt;
      if (!Edits || !Title)
        continue;
      json::Object Changes;
      for (const json::Value &E : *Edits) {
        const json::Object *Edit = E.getAsObject();
        std::optional<StringRef> File =
            Edit ? Edit->getString("file") : std::nullopt;
        std::string URI = File ? getURI(*File) : "";
        if (URI.empty())
          continue;
        json::Value *List = Changes.get(URI);
        if (!List)
          List = &(Changes[URI] = json::Array());
        List->getAsArray()->push_back(
            json::Object{{"range", *Edit->get("range")},
                         {"newText", Edit->getString("newText").value_or("")}});
      }
      if (Changes.empty())
        continue;
      Actions.push_back(json::Object{
          {"title", *Title},
          {"kind", "quickfix"},
          {"diagnostics", json::Array{D}},
          {"isPreferred", Fixes->size() == 1},
          {"edit", json::Object{{"changes", std::move(Changes)}}}});
    }
  }
  Reply(std::move(Actions));
}

std::string Server::getURI(StringRef Path) const {
  if (auto Doc = Documents.find(Path); Doc != Documents.end())
    return Doc->second.URI;
  Expected<lsp::URIForFile> URI = lsp::URIForFile::fromFile(Path);
  if (!URI) {
    consumeError(URI.takeError());
    return "";
  }
  return URI->uri().str();
}

IntrusiveRefCntPtr<vfs::FileSystem> Server::getFileSystem() const {
  auto Open = makeIntrusiveRefCnt<vfs::InMemoryFileSystem>();
  for (const auto &Entry : Documents)
    Open->addFile(
        Entry.first(), /*ModificationTime=*/0,
        MemoryBuffer::getMemBufferCopy(Entry.second.Text, Entry.first()));
  auto FS =
      makeIntrusiveRefCnt<vfs::OverlayFileSystem>(vfs::getRealFileSystem());
  FS->pushOverlay(Open);
  return FS;
}

void Server::checkAll(StringRef Path) {
  check(Path);
  if (Options.SchemaPath.empty() ||
      !sys::fs::equivalent(Path, Options.SchemaPath))
    return;
  for (const auto &Entry : Documents)
    if (getDocumentKind(Entry.first()) == DocumentKind::KernelSource)
      check(Entry.first());
}

void Server::check(StringRef Path) {
  DocumentKind Kind = getDocumentKind(Path);
  if (Kind == DocumentKind::Other ||
      (Kind == DocumentKind::KernelSource && Options.SchemaPath.empty())) {
    publish(Path, {});
    return;
  }
  // A schema on its own (and the tags.yaml beside it), as
  // `skc --schema FILE` checks it; a kernel source against the server's
  // schema, as `skc --schema S --no-missing-kernels FILE` checks it.
  Invocation Inv;
  Inv.FileSystem = getFileSystem();
  if (Kind == DocumentKind::Schema) {
    Inv.SchemaPath = Path.str();
  } else {
    Inv.SchemaPath = Options.SchemaPath;
    Inv.Sources = {Path.str()};
    Inv.NoMissingKernels = true;
    Inv.BuildPath = Options.BuildPath;
    Inv.RuntimeIncludeDir = Options.RuntimeIncludeDir;
    Inv.ExtraFlags = Options.ExtraFlags;
    Inv.Backends = Invocation::getDefaultBackends(Inv.Sources);
  }
  SourceMgr SM;
  StoredDiagnosticConsumer Stored;
  DiagnosticsEngine Diags(SM, Stored);
  Expected<Analysis> A = analyze(Inv, Diags);
  if (!A) {
    lsp::Logger::error("cannot check '{0}': {1}", Path,
                       toString(A.takeError()));
    return;
  }
  StringMap<std::vector<json::Value>> ByFile =
      toLSPDiagnostics(SM, Stored.Diagnostics, Options.DiagnosticsDocURL);
  // Only the document's own: a source's check reports the schema's
  // problems on the schema's own check.
  if (Kind == DocumentKind::KernelSource)
    for (auto It = ByFile.begin(); It != ByFile.end();)
      if (It->first() != Path && !It->first().empty())
        ByFile.erase(It++);
      else
        ++It;
  // A diagnostic without a file (none today) is shown on the document.
  if (auto It = ByFile.find(""); It != ByFile.end()) {
    std::vector<json::Value> &Here = ByFile[Path];
    for (json::Value &V : It->second)
      Here.push_back(std::move(V));
    ByFile.erase("");
  }
  ByFile.try_emplace(Path);
  publish(Path, std::move(ByFile));
}

void Server::publish(StringRef Origin,
                     StringMap<std::vector<json::Value>> Diagnostics) {
  StringSet<> &Before = PublishedFor[Origin];
  for (const auto &Entry : Before)
    Diagnostics.try_emplace(Entry.getKey());
  Before.clear();
  for (auto &Entry : Diagnostics) {
    // An open document by the client's URI, any other file by its path.
    auto Doc = Documents.find(Entry.first());
    std::string URI = getURI(Entry.first());
    if (URI.empty()) {
      lsp::Logger::error("cannot name '{0}' as a URI", Entry.first());
      continue;
    }
    json::Object Params{{"uri", URI},
                        {"diagnostics", json::Array(std::move(Entry.second))}};
    if (Doc != Documents.end())
      Params["version"] = Doc->second.Version;
    if (!Params.getArray("diagnostics")->empty())
      Before.insert(Entry.first());
    Transport.notify("textDocument/publishDiagnostics", std::move(Params));
  }
}

Error runServer(const ServerOptions &Options, lsp::JSONTransport &Transport) {
  lsp::MessageHandler Handler(Transport);
  Server S(Options, Transport, Handler);
  return Transport.run(Handler);
}

} // namespace skc
