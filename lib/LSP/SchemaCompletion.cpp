//===--- SchemaCompletion.cpp - Completion in the schema ------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Features.h"
#include "SourcePositions.h"

#include "skc/Parse/SchemaFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace llvm;

namespace skc {

namespace {

/// What the text before the cursor asks for.
enum class CompletionContext { None, EntryKey, Type, DispatchKey, Kernel, Tag };

} // namespace

static size_t getIndent(StringRef Line) {
  return Line.find_first_not_of(' ') == StringRef::npos
             ? Line.size()
             : Line.find_first_not_of(' ');
}

/// The context at the end of \p Before (the text up to the cursor).
static CompletionContext getContext(StringRef Before) {
  size_t LineStart = Before.rfind('\n');
  StringRef Line =
      LineStart == StringRef::npos ? Before : Before.drop_front(LineStart + 1);
  StringRef Earlier =
      LineStart == StringRef::npos ? StringRef() : Before.take_front(LineStart);
  // Only a word is being typed, if anything.
  size_t WordStart = Line.find_last_not_of(
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
  StringRef Head = WordStart == StringRef::npos
                       ? StringRef()
                       : Line.take_front(WordStart + 1);
  StringRef Trimmed = Head.ltrim();
  bool Dash = Trimmed.consume_front("-");
  Trimmed = Trimmed.ltrim();

  // func: name(Type name, Type name=1, *, Type(a!) out) -> Type
  if (Trimmed.starts_with("func:")) {
    StringRef Args = Trimmed.drop_front(strlen("func:"));
    if (!Args.contains('(') || Args.contains(')'))
      return CompletionContext::None;
    StringRef Last = Head.rtrim();
    return Last.ends_with("(") || Last.ends_with(",") ? CompletionContext::Type
                                                      : CompletionContext::None;
  }
  if (Trimmed.starts_with("tags:"))
    return CompletionContext::Tag;
  // A key of its own: after an entry's `- `, or at the keys' indentation.
  if (Trimmed.empty() && (Dash || getIndent(Line) <= 2))
    return CompletionContext::EntryKey;

  // Inside a block: the nearest line above, less indented, ending in ':'.
  size_t Indent = getIndent(Line);
  SmallVector<StringRef, 0> Lines;
  Earlier.split(Lines, '\n');
  for (StringRef Above : llvm::reverse(Lines)) {
    if (Above.trim().empty() || Above.ltrim().starts_with("#"))
      continue;
    size_t AboveIndent = getIndent(Above);
    if (AboveIndent >= Indent)
      continue;
    StringRef Key = Above.trim();
    if (Key.consume_front("-"))
      Key = Key.ltrim();
    if (Key == "dispatch:")
      return Head.contains(':') ? CompletionContext::Kernel
                                : CompletionContext::DispatchKey;
    if (Key == "tags:")
      return CompletionContext::Tag;
    return CompletionContext::None;
  }
  return CompletionContext::None;
}

std::vector<lsp::CompletionItem> getSchemaCompletion(const ProjectState &State,
                                                     StringRef Text,
                                                     lsp::Position P) {
  std::optional<size_t> Offset = getOffset(Text, P);
  if (!Offset)
    return {};
  const CheckedSchema *Schema = State.getSchema();
  std::vector<lsp::CompletionItem> Items;
  auto Add = [&](StringRef Label, lsp::CompletionItemKind Kind,
                 StringRef Detail) {
    lsp::CompletionItem Item(Label, Kind);
    Item.detail = Detail.str();
    Items.push_back(std::move(Item));
  };
  switch (getContext(Text.take_front(*Offset))) {
  case CompletionContext::None:
    break;
  case CompletionContext::EntryKey:
    for (StringRef Key : getSchemaEntryKeys())
      Add(Key, lsp::CompletionItemKind::Property, "entry key");
    break;
  case CompletionContext::Type: {
    static const StringRef Types[] = {
#define SK_BASE_TYPE(Enumerator, Spelling, RuntimeKind) Spelling,
#include "sk/core/SchemaBaseTypes.def"
    };
    for (StringRef T : Types)
      Add(T, lsp::CompletionItemKind::TypeParameter, "schema type");
    break;
  }
  case CompletionContext::DispatchKey:
    if (Schema)
      for (StringRef Key : Schema->A.Model.getDispatchKeys().getNames())
        Add(Key, lsp::CompletionItemKind::EnumMember, "dispatch key");
    break;
  case CompletionContext::Kernel: {
    StringSet<> Seen;
    for (const KernelSymbol &S : State.getIndex().getAll()) {
      if (S.Kind == KernelDeclKind::Meta)
        continue;
      StringRef Name = S.Name;
      if (S.Kind == KernelDeclKind::Impl)
        Name.consume_front(StructuredClassPrefix);
      if (Seen.insert(Name).second)
        Add(Name, lsp::CompletionItemKind::Function,
            S.Kind == KernelDeclKind::Impl ? "SK_IMPL_FUNC" : "SK_NATIVE_FUNC");
    }
    break;
  }
  case CompletionContext::Tag:
    if (Schema && Schema->A.Tags)
      for (const auto &Tag : Schema->A.Tags->Tags)
        Add(Tag.getKey(), lsp::CompletionItemKind::EnumMember, "tag");
    break;
  }
  llvm::sort(Items,
             [](const lsp::CompletionItem &A, const lsp::CompletionItem &B) {
               return A.label < B.label;
             });
  return Items;
}

} // namespace skc
