//===--- Server.cpp - skc's language server -------------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/LSP/Server.h"
#include "skc/Config.h"

#include "Features.h"
#include "OpenDocuments.h"
#include "Scheduler.h"
#include "SourcePositions.h"
#include "Workspace.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/LSP/Transport.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace skc {

namespace {

/// The command that shows what skc generates for the operator at a place.
constexpr StringLiteral ShowGeneratedCodeCommand = "skc.showGeneratedCode";

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

/// textDocument/didSave's parameters.
struct DidSaveParams {
  lsp::TextDocumentIdentifier TextDocument;
};

bool fromJSON(const json::Value &Value, DidSaveParams &Result,
              json::Path Path) {
  json::ObjectMapper O(Value, Path);
  return O && O.map("textDocument", Result.TextDocument);
}

/// workspace/executeCommand's parameters: skc's commands take a place.
struct ExecuteCommandParams {
  std::string Command;
  lsp::TextDocumentPositionParams Place;
};

bool fromJSON(const json::Value &Value, ExecuteCommandParams &Result,
              json::Path Path) {
  json::ObjectMapper O(Value, Path);
  const json::Array *Arguments =
      Value.getAsObject() ? Value.getAsObject()->getArray("arguments")
                          : nullptr;
  return O && O.map("command", Result.Command) && Arguments &&
         Arguments->size() == 1 &&
         fromJSON((*Arguments)[0], Result.Place, Path.field("arguments"));
}

class Server {
public:
  Server(const ServerOptions &Options, lsp::JSONTransport &Transport,
         lsp::MessageHandler &Handler)
      : Options(Options), Transport(Transport),
        Work(Options,
             ServerHooks{
                 Options.DiagnosticsDocURL,
                 [this](const std::string &Message) { showWarning(Message); },
                 [this](StringRef Path) { return getURI(Path); },
                 [this] { return Documents.getFileSystem(); }}),
        Sched(Options.Synchronous, Options.Debounce),
        Indexer(Options.Synchronous, Options.Debounce, /*Background=*/true) {
    Handler.method("initialize", this, &Server::onInitialize);
    Handler.notification("initialized", this, &Server::onInitialized);
    Handler.method("shutdown", this, &Server::onShutdown);
    Handler.notification("textDocument/didOpen", this, &Server::onDidOpen);
    Handler.notification("textDocument/didChange", this, &Server::onDidChange);
    Handler.notification("textDocument/didSave", this, &Server::onDidSave);
    Handler.notification("textDocument/didClose", this, &Server::onDidClose);
    Handler.method("textDocument/codeAction", this, &Server::onCodeAction);
    Handler.method("textDocument/hover", this, &Server::onHover);
    Handler.method("textDocument/definition", this, &Server::onDefinition);
    Handler.method("textDocument/references", this, &Server::onReferences);
    Handler.method("textDocument/completion", this, &Server::onCompletion);
    Handler.method("textDocument/documentSymbol", this,
                   &Server::onDocumentSymbol);
    Handler.method("textDocument/inlayHint", this, &Server::onInlayHint);
    Handler.method("workspace/executeCommand", this, &Server::onExecuteCommand);
  }

private:
  // Every handler hands its work to the scheduler: all of the server's
  // state but the documents is the worker's, and so is every message out.
  void onInitialize(const lsp::InitializeParams &,
                    lsp::Callback<json::Value> Reply);
  void onInitialized(const lsp::InitializedParams &) {}
  void onShutdown(const lsp::NoParams &, lsp::Callback<std::nullptr_t> Reply) {
    Sched.schedule([Reply = std::move(Reply)]() mutable { Reply(nullptr); });
  }
  void onDidOpen(const lsp::DidOpenTextDocumentParams &Params);
  void onDidChange(const lsp::DidChangeTextDocumentParams &Params);
  void onDidSave(const DidSaveParams &Params);
  void onDidClose(const lsp::DidCloseTextDocumentParams &Params);
  void onCodeAction(const CodeActionRequest &Params,
                    lsp::Callback<json::Value> Reply);
  void onHover(const lsp::TextDocumentPositionParams &Params,
               lsp::Callback<std::optional<lsp::Hover>> Reply);
  void onDefinition(const lsp::TextDocumentPositionParams &Params,
                    lsp::Callback<std::vector<lsp::Location>> Reply);
  void onReferences(const lsp::ReferenceParams &Params,
                    lsp::Callback<std::vector<lsp::Location>> Reply);
  void onCompletion(const lsp::CompletionParams &Params,
                    lsp::Callback<lsp::CompletionList> Reply);
  void onDocumentSymbol(const lsp::DocumentSymbolParams &Params,
                        lsp::Callback<std::vector<lsp::DocumentSymbol>> Reply);
  void onInlayHint(const lsp::InlayHintsParams &Params,
                   lsp::Callback<std::vector<lsp::InlayHint>> Reply);
  void onExecuteCommand(const ExecuteCommandParams &Params,
                        lsp::Callback<json::Value> Reply);

  /// Runs \p Answer on the worker with the state of \p Path's project,
  /// its schema checked again if it changed; null when it has none.
  template <typename T>
  void answer(StringRef Path, lsp::Callback<T> Reply,
              unique_function<T(ProjectState *)> Answer);
  std::vector<lsp::Location> toLocations(ArrayRef<PlaceInFile> Places) const;

  /// Schedules a check of \p Path, after the debounce delay (an edit) or
  /// at once (an open, a save).
  void scheduleCheck(StringRef Path, bool Full, bool Now);
  /// Checks the document at \p Path and publishes what was found; when the
  /// schema of its project changed, its open kernel sources too.
  void check(StringRef Path, bool Full);
  void checkSource(ProjectState &State, StringRef Path, bool Full);
  void publishSchema(ProjectState &State);
  /// Indexes the sources of \p State's project that the index lacks.
  void scheduleIndexing(ProjectState &State);
  /// The URI of \p Path: an open document's as the client names it, any
  /// other file's as a file URI; "" when it has none.
  std::string getURI(StringRef Path) const;
  /// Publishes \p Diagnostics by file, and clears what the last check of
  /// \p Origin published for files it no longer reports on.
  void publish(StringRef Origin,
               StringMap<std::vector<json::Value>> Diagnostics);
  void showWarning(const std::string &Message);

  const ServerOptions &Options;
  lsp::JSONTransport &Transport;
  OpenDocuments Documents;
  Workspace Work;
  /// The files each check's origin last published diagnostics for.
  StringMap<StringSet<>> PublishedFor;
  /// What was last published for each file.
  StringMap<std::string> LastPublished;
  /// Last: their destructors run the requests still queued, which use the
  /// members above. The indexer's tasks own what they use.
  Scheduler Sched;
  /// Indexes the sources that are not open, at the system's lowest
  /// priority, so that a check never waits for it.
  Scheduler Indexer;
};

} // namespace

void Server::onInitialize(const lsp::InitializeParams &,
                          lsp::Callback<json::Value> Reply) {
  json::Object Capabilities{
      {"textDocumentSync",
       json::Object{{"openClose", true},
                    // Incremental: the client sends what changed.
                    {"change", 2},
                    {"save", true}}},
      {"positionEncoding", "utf-16"},
      // Every fix-it of a diagnostic, as a quick fix.
      {"codeActionProvider",
       json::Object{{"codeActionKinds", json::Array{"quickfix"}}}},
      {"hoverProvider", true},
      {"definitionProvider", true},
      {"referencesProvider", true},
      {"completionProvider",
       json::Object{{"triggerCharacters", json::Array{"(", ",", ":", " "}}}},
      {"documentSymbolProvider", true},
      {"inlayHintProvider", true},
      {"executeCommandProvider",
       json::Object{{"commands", json::Array{ShowGeneratedCodeCommand}}}}};
  Sched.schedule([Reply = std::move(Reply),
                  Capabilities = std::move(Capabilities)]() mutable {
    Reply(json::Object{{"capabilities", std::move(Capabilities)},
                       {"serverInfo", json::Object{{"name", "skc-lsp"},
                                                   {"version", SKC_VERSION}}}});
  });
}

void Server::onDidOpen(const lsp::DidOpenTextDocumentParams &Params) {
  Document D;
  D.URI = Params.textDocument.uri.uri().str();
  D.Text = Params.textDocument.text;
  D.Version = Params.textDocument.version;
  D.Stamp = Documents.nextStamp();
  Documents.set(Params.textDocument.uri.file(), std::move(D));
  scheduleCheck(Params.textDocument.uri.file(), /*Full=*/true, /*Now=*/true);
}

void Server::onDidChange(const lsp::DidChangeTextDocumentParams &Params) {
  StringRef Path = Params.textDocument.uri.file();
  std::optional<Document> D = Documents.get(Path);
  if (!D) {
    lsp::Logger::error("a change to '{0}', which is not open", Path);
    return;
  }
  if (!applyChanges(Params.contentChanges, D->Text)) {
    lsp::Logger::error("a change to '{0}' that does not fit its text", Path);
    return;
  }
  D->Version = Params.textDocument.version;
  D->Stamp = Documents.nextStamp();
  Documents.set(Path, std::move(*D));
  scheduleCheck(Path, /*Full=*/false, /*Now=*/false);
}

void Server::onDidSave(const DidSaveParams &Params) {
  scheduleCheck(Params.TextDocument.uri.file(), /*Full=*/true, /*Now=*/true);
}

void Server::onDidClose(const lsp::DidCloseTextDocumentParams &Params) {
  std::string Path = Params.textDocument.uri.file().str();
  Documents.erase(Path);
  Sched.scheduleDebounced(
      "check " + Path, [this, Path] { publish(Path, {}); },
      std::chrono::milliseconds(0));
}

void Server::scheduleCheck(StringRef Path, bool Full, bool Now) {
  std::string File = Path.str();
  auto Check = [this, File, Full] { check(File, Full); };
  if (Now)
    Sched.scheduleDebounced("check " + File, std::move(Check),
                            std::chrono::milliseconds(0));
  else
    Sched.scheduleDebounced("check " + File, std::move(Check));
}

void Server::check(StringRef Path, bool Full) {
  if (!Documents.get(Path))
    return; // Closed since.
  ProjectState *State = Work.getProjectFor(Path);
  if (!State) {
    publish(Path, {});
    return;
  }
  Expected<bool> Changed = State->refreshSchema();
  if (!Changed) {
    lsp::Logger::error("cannot check '{0}': {1}", Path,
                       toString(Changed.takeError()));
    return;
  }
  if (*Changed || getDocumentKind(Path) == DocumentKind::Schema)
    publishSchema(*State);
  if (*Changed)
    scheduleIndexing(*State);
  if (getDocumentKind(Path) == DocumentKind::KernelSource)
    checkSource(*State, Path, Full);
  if (!*Changed)
    return;
  // Every open kernel source of the project, against the new schema.
  for (const std::string &Open : Documents.getPaths())
    if (Open != Path && getDocumentKind(Open) == DocumentKind::KernelSource &&
        Work.getProjectFor(Open) == State)
      checkSource(*State, Open, /*Full=*/false);
}

void Server::checkSource(ProjectState &State, StringRef Path, bool Full) {
  std::optional<Document> D = Documents.get(Path);
  if (!D)
    return;
  Expected<SourceCheck> Checked = State.checkSource(Path, D->Text, Full);
  if (!Checked) {
    lsp::Logger::error("cannot check '{0}': {1}", Path,
                       toString(Checked.takeError()));
    return;
  }
  StringMap<std::vector<json::Value>> ByFile;
  ByFile[Path] = std::move(Checked->Diagnostics);
  publish(Path, std::move(ByFile));
  // The other way round: the schema's kernels that no source defines.
  if (Checked->KernelsChanged && State.isIndexed())
    publishSchema(State);
}

void Server::publishSchema(ProjectState &State) {
  publish("schema " + State.getProject().Inv.SchemaPath,
          State.getSchemaDiagnostics());
}

void Server::scheduleIndexing(ProjectState &State) {
  // What the sources not open define, for navigation, completion and the
  // kernels no source defines; the schema's diagnostics again once the
  // last is in.
  for (const std::string &Source : State.getProject().Inv.Sources) {
    if (State.getIndex().contains(Source) || Documents.get(Source))
      continue;
    std::optional<unique_function<void()>> Task = State.makeIndexTask(Source);
    if (!Task)
      return;
    Indexer.scheduleIdle([this, Source, Task = std::move(*Task)]() mutable {
      Task();
      Sched.schedule([this, Source] {
        ProjectState *Now = Work.getProjectFor(Source);
        if (Now && Now->isIndexed())
          publishSchema(*Now);
      });
    });
  }
}

void Server::onCodeAction(const CodeActionRequest &Params,
                          lsp::Callback<json::Value> Reply) {
  // The fixes travel in each diagnostic's `data` (toLSPDiagnostics).
  Sched.schedule([this, Params, Reply = std::move(Reply)]() mutable {
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
          List->getAsArray()->push_back(json::Object{
              {"range", *Edit->get("range")},
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
    Reply(json::Value(std::move(Actions)));
  });
}

template <typename T>
void Server::answer(StringRef Path, lsp::Callback<T> Reply,
                    unique_function<T(ProjectState *)> Answer) {
  Sched.schedule([this, File = Path.str(), Reply = std::move(Reply),
                  Answer = std::move(Answer)]() mutable {
    ProjectState *State = Work.getProjectFor(File);
    if (State) {
      Expected<bool> Changed = State->refreshSchema();
      if (!Changed) {
        lsp::Logger::error("cannot check '{0}': {1}", File,
                           toString(Changed.takeError()));
        State = nullptr;
      } else if (*Changed) {
        publishSchema(*State);
        scheduleIndexing(*State);
      } else if (!State->getSchema()) {
        State = nullptr;
      }
    }
    Reply(Answer(State));
  });
}

std::vector<lsp::Location>
Server::toLocations(ArrayRef<PlaceInFile> Places) const {
  std::vector<lsp::Location> Locations;
  for (const PlaceInFile &Place : Places) {
    Expected<lsp::URIForFile> URI =
        lsp::URIForFile::fromURI(getURI(Place.File));
    if (!URI) {
      consumeError(URI.takeError());
      continue;
    }
    Locations.push_back(lsp::Location{*URI, Place.Range});
  }
  return Locations;
}

void Server::onHover(const lsp::TextDocumentPositionParams &Params,
                     lsp::Callback<std::optional<lsp::Hover>> Reply) {
  lsp::Position P = Params.position;
  std::string Path = Params.textDocument.uri.file().str();
  answer<std::optional<lsp::Hover>>(
      Path, std::move(Reply),
      [Path, P](ProjectState *State) -> std::optional<lsp::Hover> {
        return State ? getHover(*State, Path, P) : std::nullopt;
      });
}

void Server::onDefinition(const lsp::TextDocumentPositionParams &Params,
                          lsp::Callback<std::vector<lsp::Location>> Reply) {
  lsp::Position P = Params.position;
  std::string Path = Params.textDocument.uri.file().str();
  answer<std::vector<lsp::Location>>(
      Path, std::move(Reply), [this, Path, P](ProjectState *State) {
        return State ? toLocations(getDefinition(*State, Path, P))
                     : std::vector<lsp::Location>();
      });
}

void Server::onReferences(const lsp::ReferenceParams &Params,
                          lsp::Callback<std::vector<lsp::Location>> Reply) {
  lsp::Position P = Params.position;
  std::string Path = Params.textDocument.uri.file().str();
  answer<std::vector<lsp::Location>>(
      Path, std::move(Reply), [this, Path, P](ProjectState *State) {
        return State ? toLocations(getReferences(*State, Path, P))
                     : std::vector<lsp::Location>();
      });
}

void Server::onCompletion(const lsp::CompletionParams &Params,
                          lsp::Callback<lsp::CompletionList> Reply) {
  lsp::Position P = Params.position;
  std::string Path = Params.textDocument.uri.file().str();
  answer<lsp::CompletionList>(
      Path, std::move(Reply), [this, Path, P](ProjectState *State) {
        lsp::CompletionList List;
        std::optional<Document> D = Documents.get(Path);
        if (State && D && getDocumentKind(Path) == DocumentKind::Schema)
          List.items = getSchemaCompletion(*State, D->Text, P);
        return List;
      });
}

void Server::onDocumentSymbol(
    const lsp::DocumentSymbolParams &Params,
    lsp::Callback<std::vector<lsp::DocumentSymbol>> Reply) {
  std::string Path = Params.textDocument.uri.file().str();
  answer<std::vector<lsp::DocumentSymbol>>(
      Path, std::move(Reply), [Path](ProjectState *State) {
        if (!State || Path != State->getProject().Inv.SchemaPath)
          return std::vector<lsp::DocumentSymbol>();
        return getSchemaSymbols(*State);
      });
}

void Server::onInlayHint(const lsp::InlayHintsParams &Params,
                         lsp::Callback<std::vector<lsp::InlayHint>> Reply) {
  std::string Path = Params.textDocument.uri.file().str();
  lsp::Range Visible = Params.range;
  answer<std::vector<lsp::InlayHint>>(
      Path, std::move(Reply), [Path, Visible](ProjectState *State) {
        std::vector<lsp::InlayHint> Hints;
        if (!State)
          return Hints;
        for (lsp::InlayHint &H : getInlayHints(*State, Path))
          if (contains(Visible, H.position))
            Hints.push_back(std::move(H));
        return Hints;
      });
}

void Server::onExecuteCommand(const ExecuteCommandParams &Params,
                              lsp::Callback<json::Value> Reply) {
  if (Params.Command != ShowGeneratedCodeCommand)
    return Reply(
        make_error<lsp::LSPError>("unknown command '" + Params.Command + "'",
                                  lsp::ErrorCode::InvalidParams));
  std::string Path = Params.Place.textDocument.uri.file().str();
  lsp::Position P = Params.Place.position;
  Sched.schedule([this, Path, P, Reply = std::move(Reply)]() mutable {
    ProjectState *State = Work.getProjectFor(Path);
    Expected<bool> Changed =
        State ? State->refreshSchema() : Expected<bool>(false);
    if (!Changed)
      return Reply(Changed.takeError());
    if (!State)
      return Reply(
          make_error<lsp::LSPError>("'" + Path + "' belongs to no project",
                                    lsp::ErrorCode::InvalidParams));
    Expected<std::string> Code = getGeneratedCode(*State, Path, P);
    if (!Code)
      return Reply(make_error<lsp::LSPError>(toString(Code.takeError()),
                                             lsp::ErrorCode::InvalidParams));
    Reply(json::Value(std::move(*Code)));
  });
}

std::string Server::getURI(StringRef Path) const {
  if (std::optional<Document> D = Documents.get(Path))
    return D->URI;
  Expected<lsp::URIForFile> URI = lsp::URIForFile::fromFile(Path);
  if (!URI) {
    consumeError(URI.takeError());
    return "";
  }
  return URI->uri().str();
}

void Server::publish(StringRef Origin,
                     StringMap<std::vector<json::Value>> Diagnostics) {
  StringSet<> &Before = PublishedFor[Origin];
  for (const auto &Entry : Before)
    Diagnostics.try_emplace(Entry.getKey());
  // Nothing to say of a file that is not open and had nothing to clear.
  for (auto It = Diagnostics.begin(); It != Diagnostics.end();)
    if (It->second.empty() && !Before.count(It->first()) &&
        !Documents.get(It->first()))
      Diagnostics.erase(It++);
    else
      ++It;
  Before.clear();
  // In path order, so that what a client sees does not depend on hashing.
  std::vector<StringRef> Files;
  for (const auto &Entry : Diagnostics)
    Files.push_back(Entry.first());
  llvm::sort(Files);
  for (StringRef File : Files) {
    std::vector<json::Value> &List = Diagnostics[File];
    std::string URI = getURI(File);
    if (URI.empty()) {
      lsp::Logger::error("cannot name '{0}' as a URI", File);
      continue;
    }
    if (!List.empty())
      Before.insert(File);
    json::Object Params{{"uri", URI},
                        {"diagnostics", json::Array(std::move(List))}};
    if (std::optional<Document> D = Documents.get(File))
      Params["version"] = D->Version;
    // What the client has already, it need not be sent again.
    json::Value Message(std::move(Params));
    std::string Text;
    raw_string_ostream(Text) << Message;
    std::string &Last = LastPublished[File];
    if (Text == Last)
      continue;
    Last = std::move(Text);
    Transport.notify("textDocument/publishDiagnostics", std::move(Message));
  }
}

void Server::showWarning(const std::string &Message) {
  lsp::Logger::info("{0}", Message);
  Transport.notify(
      "window/showMessage",
      json::Object{{"type", static_cast<int>(lsp::MessageType::Warning)},
                   {"message", Message}});
}

Error runServer(const ServerOptions &Options, lsp::JSONTransport &Transport) {
  lsp::MessageHandler Handler(Transport);
  Server S(Options, Transport, Handler);
  return Transport.run(Handler);
}

} // namespace skc
