//===--- SchemaFileParser.cpp - Entries of a native_functions.yaml file ---===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Parse/SchemaFile.h"
#include "skc/Basic/Diagnostic.h"
#include "skc/Basic/Suggest.h"
#include "skc/Parse/SchemaParser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace skc {

namespace {

/// The shape a key's value must have, in err_yaml_value_type's %select order.
enum class ValueShape {
  Bool,
  String,
  StringList,
  Mapping,
  StringOrList,
  StringOrMapping,
};

/// The keys of an entry, one enumerator each.
enum class EntryKey {
#define SKC_ENTRY_KEY(Key, Shape, Reader, Field) Key,
#include "SchemaEntryKeys.def"
};

struct KeySpec {
  StringRef Key;
  ValueShape Shape;
  EntryKey Id;
};

} // namespace

static const KeySpec EntryKeys[] = {
#define SKC_ENTRY_KEY(Key, Shape, Reader, Field)                               \
  {#Key, ValueShape::Shape, EntryKey::Key},
#include "SchemaEntryKeys.def"
};

ArrayRef<StringRef> getSchemaEntryKeys() {
  static const StringRef Keys[] = {
#define SKC_ENTRY_KEY(Key, Shape, Reader, Field) #Key,
#include "SchemaEntryKeys.def"
  };
  return Keys;
}

static std::optional<bool> parseBool(StringRef S) {
  return StringSwitch<std::optional<bool>>(S)
      .Cases({"True", "true", "TRUE"}, true)
      .Cases({"False", "false", "FALSE"}, false)
      .Default(std::nullopt);
}

namespace {

/// Checks and stores the fields of one entry.
class EntryReader {
public:
  EntryReader(TypeContext &Types, DiagnosticsEngine &Diags)
      : Types(Types), Diags(Diags) {}

  std::optional<SchemaEntry> read(const YAMLNode &Node);

private:
  bool readField(SchemaEntry &E, const KeySpec &Spec, const YAMLScalar &Key,
                 const YAMLNode &Value);
  /// Reports that \p Key's value does not have shape \p Shape.
  bool badShape(const YAMLScalar &Key, const YAMLNode &Value,
                ValueShape Shape) {
    Diags.report(Value.getLoc(), diag::err_yaml_value_type)
        << Key.Value << static_cast<unsigned>(Shape) << Key.getRange();
    return false;
  }
  std::optional<std::vector<YAMLScalar>> readStringList(const YAMLScalar &Key,
                                                        const YAMLNode &Value,
                                                        ValueShape Shape);
  std::optional<std::vector<YAMLScalarPair>>
  readStringMap(const YAMLScalar &Key, const YAMLNode &Value, ValueShape Shape);

  TypeContext &Types;
  DiagnosticsEngine &Diags;
};

} // namespace

std::optional<std::vector<YAMLScalar>>
EntryReader::readStringList(const YAMLScalar &Key, const YAMLNode &Value,
                            ValueShape Shape) {
  if (Value.isScalar() && Shape == ValueShape::StringOrList)
    return std::vector<YAMLScalar>{Value.getScalar()};
  if (!Value.isSequence())
    return badShape(Key, Value, Shape), std::nullopt;
  std::vector<YAMLScalar> Result;
  for (const YAMLNode &Item : Value.getItems()) {
    if (!Item.isScalar())
      return badShape(Key, Item, Shape), std::nullopt;
    Result.push_back(Item.getScalar());
  }
  return Result;
}

std::optional<std::vector<YAMLScalarPair>>
EntryReader::readStringMap(const YAMLScalar &Key, const YAMLNode &Value,
                           ValueShape Shape) {
  if (!Value.isMapping())
    return badShape(Key, Value, Shape), std::nullopt;
  std::vector<YAMLScalarPair> Result;
  for (const auto &[K, V] : Value.getEntries()) {
    if (!V.isScalar())
      return badShape(Key, V, Shape), std::nullopt;
    Result.emplace_back(K, V.getScalar());
  }
  return Result;
}

bool EntryReader::readField(SchemaEntry &E, const KeySpec &Spec,
                            const YAMLScalar &Key, const YAMLNode &Value) {
  auto ReadString = [&](std::optional<YAMLScalar> &Field) {
    if (!Value.isScalar())
      return badShape(Key, Value, Spec.Shape);
    if (Value.getScalar().Value.empty()) {
      Diags.report(Value.getLoc(), diag::err_yaml_empty_value)
          << Key.Value << Key.getRange();
      return false;
    }
    Field = Value.getScalar();
    return true;
  };
  auto ReadBool = [&](std::optional<bool> &Field) {
    std::optional<bool> B;
    if (Value.isScalar())
      B = parseBool(Value.getScalar().Value);
    if (!B)
      return badShape(Key, Value, Spec.Shape);
    Field = *B;
    return true;
  };
  auto ReadList = [&](std::optional<std::vector<YAMLScalar>> &Field) {
    Field = readStringList(Key, Value, Spec.Shape);
    return Field.has_value();
  };
  auto ReadMap = [&](std::optional<std::vector<YAMLScalarPair>> &Field) {
    Field = readStringMap(Key, Value, Spec.Shape);
    return Field.has_value();
  };

  auto ReadFunc = [&](YAMLScalar &Field) {
    std::optional<YAMLScalar> Func;
    if (!ReadString(Func))
      return false;
    Field = std::move(*Func);
    return true;
  };
  // A lone string is the Generic inner loop.
  auto ReadUfunc = [&](std::optional<std::vector<YAMLScalarPair>> &Field) {
    if (!Value.isScalar())
      return ReadMap(Field);
    YAMLScalar Generic;
    Generic.Value = "Generic";
    Generic.Loc = Key.Loc;
    Field.emplace();
    Field->emplace_back(std::move(Generic), Value.getScalar());
    return true;
  };

  switch (Spec.Id) {
#define SKC_ENTRY_KEY(Key, Shape, Reader, Field)                               \
  case EntryKey::Key:                                                          \
    return Reader(E.Field);
#include "SchemaEntryKeys.def"
  }
  llvm_unreachable("every key of EntryKeys is handled");
}

std::optional<SchemaEntry> EntryReader::read(const YAMLNode &Node) {
  if (!Node.isMapping()) {
    Diags.report(Node.getLoc(), diag::err_yaml_expected_mapping);
    return std::nullopt;
  }
  SchemaEntry E;
  E.Loc = Node.getLoc();
  bool Ok = true;
  for (const YAMLNode::KeyValue &KV : Node.getEntries()) {
    const YAMLScalar &Key = KV.first;
    const YAMLNode &Value = KV.second;
    const KeySpec *Spec = find_if(
        EntryKeys, [&](const KeySpec &S) { return S.Key == Key.Value; });
    if (Spec == std::end(EntryKeys)) {
      std::string Suggestion =
          suggestClosest(Key.Value, getSchemaEntryKeys());
      if (Suggestion.empty()) {
        Diags.report(Key.Loc, diag::err_yaml_unknown_key)
            << Key.Value << Key.getRange();
      } else {
        Diags.report(Key.Loc, diag::err_yaml_unknown_key_suggest)
            << Key.Value << Suggestion << Key.getRange()
            << FixItHint::replace(Key.getRange(), Suggestion);
      }
      Ok = false;
      continue;
    }
    E.KeyRanges[Key.Value] = Key.getRange();
    Ok &= readField(E, *Spec, Key, Value);
  }
  if (!E.KeyRanges.count("func")) {
    Diags.report(E.Loc, diag::err_yaml_missing_func);
    return std::nullopt;
  }
  // A 'func' that is empty or not a string was reported; there is nothing
  // to parse.
  if (!E.Func.Loc.isValid())
    return E;
  // The schema is parsed even when another key was bad, so that one typo
  // does not hide the problems of the func string.
  E.Schema = parseFunctionSchema(E.Func, Types, Diags);
  if (!Ok)
    E.Schema.reset();
  return E;
}

namespace {
/// What err_yaml_expected_entry_list says a file lists, in its %select order.
enum class ListOf { OperatorEntries, Tags, DispatchKeys };
} // namespace

/// The YAML list that SourceMgr buffer \p BufferID holds; std::nullopt for
/// an empty file, and, reported, for one that is not a list.
static std::optional<YAMLNode> readList(unsigned BufferID, ListOf What,
                                        DiagnosticsEngine &Diags,
                                        YAMLReadCache *Cache = nullptr) {
  std::optional<YAMLNode> Root = readYAML(BufferID, Diags, Cache);
  if (!Root || Root->isNull())
    return std::nullopt;
  if (!Root->isSequence()) {
    Diags.report(Root->getLoc(), diag::err_yaml_expected_entry_list)
        << static_cast<unsigned>(What);
    return std::nullopt;
  }
  return Root;
}

std::vector<SchemaEntry> parseSchemaFile(unsigned BufferID, TypeContext &Types,
                                         DiagnosticsEngine &Diags,
                                         YAMLReadCache *Cache) {
  std::vector<SchemaEntry> Entries;
  std::optional<YAMLNode> Root =
      readList(BufferID, ListOf::OperatorEntries, Diags, Cache);
  if (!Root)
    return Entries;
  EntryReader Reader(Types, Diags);
  Entries.reserve(Root->getItems().size());
  for (const YAMLNode &Item : Root->getItems())
    if (std::optional<SchemaEntry> E = Reader.read(Item))
      Entries.push_back(std::move(*E));
  return Entries;
}

TagsFile parseTagsFile(unsigned BufferID, DiagnosticsEngine &Diags) {
  TagsFile Result;
  std::optional<YAMLNode> Root = readList(BufferID, ListOf::Tags, Diags);
  if (!Root)
    return Result;
  for (const YAMLNode &Item : Root->getItems()) {
    const YAMLScalar *Tag = nullptr;
    std::optional<StringRef> Desc;
    bool WellFormed = Item.isMapping();
    static const std::vector<YAMLNode::KeyValue> NoEntries;
    for (const auto &[Key, Value] :
         WellFormed ? Item.getEntries() : NoEntries) {
      if (Key.Value == "tag" && Value.isScalar())
        Tag = &Value.getScalar();
      else if (Key.Value == "desc" && Value.isScalar())
        Desc = Value.getScalar().Value;
      else if (Key.Value == "desc" && Value.isNull())
        Desc = "";
      else
        WellFormed = false;
    }
    if (!WellFormed || !Tag || !Desc || Tag->Value.empty()) {
      Diags.report(Item.getLoc(), diag::err_tags_file_entry);
      continue;
    }
    if (Desc->trim().empty()) {
      Diags.report(Tag->Loc, diag::err_tags_file_empty_desc)
          << Tag->Value << Tag->getRange();
      continue;
    }
    auto [It, Inserted] = Result.Tags.try_emplace(Tag->Value, Tag->Loc);
    if (!Inserted) {
      Diags.report(Tag->Loc, diag::err_tags_file_duplicate)
          << Tag->Value << Tag->getRange();
      Diags.report(It->second, diag::note_previous_definition);
    }
  }
  return Result;
}

DispatchKeysFile parseDispatchKeysFile(unsigned BufferID,
                                       DiagnosticsEngine &Diags) {
  DispatchKeysFile Result;
  std::optional<YAMLNode> Root =
      readList(BufferID, ListOf::DispatchKeys, Diags);
  if (!Root)
    return Result;
  for (const YAMLNode &Item : Root->getItems()) {
    DispatchKeysFile::Entry E;
    bool HasKey = false;
    bool WellFormed = Item.isMapping();
    static const std::vector<YAMLNode::KeyValue> NoEntries;
    for (const auto &[Key, Value] :
         WellFormed ? Item.getEntries() : NoEntries) {
      auto ReadBool = [&, &Value = Value](bool &Field) {
        std::optional<bool> B;
        if (Value.isScalar())
          B = parseBool(Value.getScalar().Value);
        if (B)
          Field = *B;
        return B.has_value();
      };
      if (Key.Value == "key" && Value.isScalar()) {
        E.Key = Value.getScalar();
        HasKey = true;
      } else if (Key.Value == "desc" && (Value.isScalar() || Value.isNull())) {
        continue;
      } else if (Key.Value == "runtime" && Value.isScalar()) {
        E.Runtime = Value.getScalar();
      } else if (Key.Value == "structured") {
        WellFormed &= ReadBool(E.Structured);
      } else if (Key.Value == "alias") {
        WellFormed &= ReadBool(E.Alias);
      } else {
        WellFormed = false;
      }
    }
    if (!WellFormed || !HasKey || E.Key.Value.empty()) {
      Diags.report(Item.getLoc(), diag::err_dispatch_keys_file_entry);
      continue;
    }
    Result.Entries.push_back(std::move(E));
  }
  return Result;
}

} // namespace skc
