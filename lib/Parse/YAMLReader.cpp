//===--- YAMLReader.cpp - The one place that talks to yaml-cpp ------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// yaml-cpp reports problems by throwing, and it silently accepts duplicate
/// keys. This translation unit is compiled with exceptions, catches every
/// YAML::Exception at its mark, and walks each mapping by iteration to
/// report duplicates. Nothing else in skc includes yaml-cpp.
///
//===----------------------------------------------------------------------===//

#include "skc/Basic/Diagnostic.h"
#include "skc/Parse/YAMLNode.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <yaml-cpp/yaml.h>

using namespace llvm;

namespace skc {

namespace {

/// Converts a yaml-cpp tree into YAMLNodes, reporting duplicate keys.
class Converter {
public:
  Converter(StringRef Buffer, DiagnosticsEngine &Diags)
      : Buffer(Buffer), Diags(Diags),
        // Aliases let a small document expand into a huge tree, or repeat
        // one long scalar many times; without them no document has more
        // nodes, or more bytes of scalars, than it has bytes.
        NodeBudget(Buffer.size() + 64), ByteBudget(Buffer.size() + 64) {}

  std::optional<YAMLNode> convert(const YAML::Node &N);
  bool failed() const { return Failed; }

private:
  SMLoc locOf(const YAML::Mark &M) const {
    if (M.is_null() || M.pos < 0 || static_cast<size_t>(M.pos) > Buffer.size())
      return SMLoc::getFromPointer(Buffer.data());
    return SMLoc::getFromPointer(Buffer.data() + M.pos);
  }
  /// Converts a scalar node; reports a quoted scalar that never closes.
  YAMLScalar makeScalar(const YAML::Node &N);
  /// Takes a node of \p Bytes scalar bytes from the budgets; false, once
  /// reported, when they run out.
  bool charge(const YAML::Node &N, size_t Bytes);

  StringRef Buffer;
  DiagnosticsEngine &Diags;
  size_t NodeBudget;
  size_t ByteBudget;
  bool BudgetExceeded = false;
  /// Set when a scalar was malformed in a way yaml-cpp let through.
  bool Failed = false;
};

} // namespace

/// Whether the quoted scalar at the start of \p Text has its closing quote
/// (yaml-cpp accepts one that runs to the end of the file).
static bool hasClosingQuote(StringRef Text) {
  char Quote = Text.front();
  for (size_t I = 1; I < Text.size(); ++I) {
    if (Quote == '"' && Text[I] == '\\') {
      ++I;
      continue;
    }
    if (Text[I] != Quote)
      continue;
    // In single quotes, '' is an escaped quote.
    if (Quote == '\'' && I + 1 < Text.size() && Text[I + 1] == '\'') {
      ++I;
      continue;
    }
    return true;
  }
  return false;
}

YAMLScalar Converter::makeScalar(const YAML::Node &N) {
  YAMLScalar S;
  S.Value = N.Scalar();
  S.Loc = locOf(N.Mark());
  size_t Pos = S.Loc.getPointer() - Buffer.data();
  StringRef Rest = Buffer.substr(Pos);
  if (!Rest.empty() && (Rest.front() == '\'' || Rest.front() == '"')) {
    S.Plain = false;
    char Quote = Rest.front();
    if (!hasClosingQuote(Rest)) {
      // Like a syntax error, it leaves no tree: the rest of the file is
      // inside the string.
      Diags.report(S.Loc, diag::err_yaml_unterminated_quote)
          << (Quote == '"' ? 1 : 0) << SMRange(S.Loc, S.Loc);
      Failed = true;
    }
    // Verbatim when the quoted text has no escapes: it is then the value.
    if (Rest.substr(1).starts_with(S.Value) &&
        Rest.size() > S.Value.size() + 1 && Rest[S.Value.size() + 1] == Quote) {
      S.Verbatim = true;
      S.ValueLoc = SMLoc::getFromPointer(Rest.data() + 1);
    }
    return S;
  }
  if (!Rest.empty() && (Rest.front() == '|' || Rest.front() == '>'))
    S.Plain = false;
  if (S.Plain && Rest.starts_with(S.Value)) {
    S.Verbatim = true;
    S.ValueLoc = S.Loc;
  }
  return S;
}

bool Converter::charge(const YAML::Node &N, size_t Bytes) {
  if (BudgetExceeded)
    return false;
  if (NodeBudget == 0 || Bytes > ByteBudget) {
    BudgetExceeded = true;
    Diags.report(locOf(N.Mark()), diag::err_yaml_syntax)
        << (NodeBudget == 0
                ? "the document expands to more nodes than it has bytes "
                  "(through aliases?)"
                : "the document expands to more bytes of text than it has "
                  "(through aliases?)");
    return false;
  }
  --NodeBudget;
  ByteBudget -= Bytes;
  return true;
}

std::optional<YAMLNode> Converter::convert(const YAML::Node &N) {
  if (!charge(N, N.IsScalar() ? N.Scalar().size() : 0))
    return std::nullopt;

  switch (N.Type()) {
  case YAML::NodeType::Undefined:
  case YAML::NodeType::Null:
    return YAMLNode::makeNull(locOf(N.Mark()));
  case YAML::NodeType::Scalar:
    return YAMLNode::makeScalar(makeScalar(N));
  case YAML::NodeType::Sequence: {
    std::vector<YAMLNode> Items;
    Items.reserve(N.size());
    for (const YAML::Node &Item : N) {
      std::optional<YAMLNode> Converted = convert(Item);
      if (!Converted)
        return std::nullopt;
      Items.push_back(std::move(*Converted));
    }
    return YAMLNode::makeSequence(locOf(N.Mark()), std::move(Items));
  }
  case YAML::NodeType::Map: {
    std::vector<YAMLNode::KeyValue> Entries;
    StringMap<SMLoc> Seen;
    for (const auto &KV : N) {
      if (!KV.first.IsScalar()) {
        Diags.report(locOf(KV.first.Mark()), diag::err_yaml_non_scalar_key);
        continue;
      }
      if (!charge(KV.first, KV.first.Scalar().size()))
        return std::nullopt;
      YAMLScalar Key = makeScalar(KV.first);
      auto [It, Inserted] = Seen.try_emplace(Key.Value, Key.Loc);
      if (!Inserted) {
        Diags.report(Key.Loc, diag::err_yaml_duplicate_key)
            << Key.Value << Key.getRange();
        Diags.report(It->second, diag::note_previous_key) << Key.Value;
        continue;
      }
      std::optional<YAMLNode> Value = convert(KV.second);
      if (!Value)
        return std::nullopt;
      // `key:` with nothing after it has no mark of its own; point at the key.
      if (Value->isNull())
        Value = YAMLNode::makeNull(Key.Loc);
      Entries.emplace_back(std::move(Key), std::move(*Value));
    }
    return YAMLNode::makeMapping(locOf(N.Mark()), std::move(Entries));
  }
  }
  return std::nullopt;
}

YAMLNode YAMLNode::relocated(const char *From, const char *To) const {
  auto Move = [&](SMLoc Loc) {
    return Loc.isValid() ? SMLoc::getFromPointer(To + (Loc.getPointer() - From))
                         : Loc;
  };
  auto MoveScalar = [&](YAMLScalar S) {
    S.Loc = Move(S.Loc);
    S.ValueLoc = Move(S.ValueLoc);
    return S;
  };
  YAMLNode N(Kind, Move(Loc));
  N.Scalar = MoveScalar(Scalar);
  N.Items.reserve(Items.size());
  for (const YAMLNode &Item : Items)
    N.Items.push_back(Item.relocated(From, To));
  N.Entries.reserve(Entries.size());
  for (const KeyValue &KV : Entries)
    N.Entries.emplace_back(MoveScalar(KV.first), KV.second.relocated(From, To));
  return N;
}

struct YAMLReadCache::Implementation {
  struct Item {
    Item(YAMLNode Node) : Node(std::move(Node)) {}
    /// Its locations point into the entry's key: a copy of its text.
    YAMLNode Node;
    bool Used = false;
  };
  /// By the item's text.
  StringMap<Item> Items;
};

YAMLReadCache::YAMLReadCache() : Impl(std::make_unique<Implementation>()) {}
YAMLReadCache::~YAMLReadCache() = default;

/// The items of the list \p Buffer holds, each from the cache or read on
/// its own; none when Buffer is not a plain list of items, or an item has a
/// problem (the whole document's read then reports it).
static std::optional<YAMLNode> readItems(StringRef Buffer, const SourceMgr &SM,
                                         YAMLReadCache::Implementation &Cache) {
  // Before the first item: comments and blank lines only.
  SmallVector<StringRef, 0> Chunks;
  size_t ItemStart = StringRef::npos;
  for (size_t LineStart = 0; LineStart < Buffer.size();) {
    size_t LineEnd = Buffer.find('\n', LineStart);
    if (LineEnd == StringRef::npos)
      LineEnd = Buffer.size();
    StringRef Line = Buffer.slice(LineStart, LineEnd);
    if (Line == "-" || Line.starts_with("- ")) {
      if (ItemStart != StringRef::npos)
        Chunks.push_back(Buffer.slice(ItemStart, LineStart));
      ItemStart = LineStart;
    } else if (ItemStart == StringRef::npos) {
      StringRef Trimmed = Line.trim();
      if (!Trimmed.empty() && !Trimmed.starts_with("#"))
        return std::nullopt;
    } else if (Line.starts_with("---") || Line.starts_with("...") ||
               Line.starts_with("%")) {
      return std::nullopt; // Documents and directives: the whole read.
    }
    LineStart = LineEnd + 1;
  }
  if (ItemStart == StringRef::npos)
    return std::nullopt;
  Chunks.push_back(Buffer.substr(ItemStart));

  std::vector<YAMLNode> Items;
  Items.reserve(Chunks.size());
  for (StringRef Chunk : Chunks) {
    auto Cached = Cache.Items.find(Chunk);
    if (Cached == Cache.Items.end()) {
      // Read on its own; anything reported sends the file to the whole read.
      StoredDiagnosticConsumer Problems;
      DiagnosticsEngine Scratch(const_cast<SourceMgr &>(SM), Problems);
      std::optional<YAMLNode> Item;
      try {
        YAML::Node Root = YAML::Load(Chunk.str());
        if (!Root.IsSequence() || Root.size() != 1)
          return std::nullopt;
        Converter C(Chunk, Scratch);
        Item = C.convert(Root[0]);
        if (C.failed())
          return std::nullopt;
      } catch (const YAML::Exception &) {
        return std::nullopt;
      }
      if (!Item || !Problems.Diagnostics.empty())
        return std::nullopt;
      Cached =
          Cache.Items.try_emplace(Chunk, YAMLNode::makeNull(SMLoc())).first;
      Cached->second.Node =
          Item->relocated(Chunk.data(), Cached->first().data());
    }
    Cached->second.Used = true;
    Items.push_back(
        Cached->second.Node.relocated(Cached->first().data(), Chunk.data()));
  }
  // What this read did not use, the next will not either.
  for (auto It = Cache.Items.begin(); It != Cache.Items.end();) {
    auto Next = std::next(It);
    if (!It->second.Used)
      Cache.Items.erase(It);
    else
      It->second.Used = false;
    It = Next;
  }
  return YAMLNode::makeSequence(SMLoc::getFromPointer(Chunks.front().data()),
                                std::move(Items));
}

std::optional<YAMLNode> readYAML(unsigned BufferID, DiagnosticsEngine &Diags,
                                 YAMLReadCache *Cache) {
  const MemoryBuffer *MB = Diags.getSourceMgr().getMemoryBuffer(BufferID);
  StringRef Buffer = MB->getBuffer();
  if (Cache)
    if (std::optional<YAMLNode> Tree =
            readItems(Buffer, Diags.getSourceMgr(), Cache->getImplementation()))
      return Tree;
  try {
    YAML::Node Root = YAML::Load(Buffer.str());
    Converter C(Buffer, Diags);
    std::optional<YAMLNode> Tree = C.convert(Root);
    if (C.failed())
      return std::nullopt;
    return Tree;
  } catch (const YAML::Exception &E) {
    SMLoc Loc = SMLoc::getFromPointer(Buffer.data());
    if (!E.mark.is_null() && E.mark.pos >= 0 &&
        static_cast<size_t>(E.mark.pos) <= Buffer.size())
      Loc = SMLoc::getFromPointer(Buffer.data() + E.mark.pos);
    Diags.report(Loc, diag::err_yaml_syntax) << E.msg;
    return std::nullopt;
  }
}

} // namespace skc
