//===--- YAMLNode.h - A located YAML tree, free of yaml-cpp -----*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// yaml-cpp is confined to one translation unit (YAMLReader.cpp). It turns
/// a buffer into this small tree, in which every node knows where it starts
/// in the llvm::SourceMgr buffer, so that later stages can point a caret at
/// any key, value, or character of a value.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_PARSE_YAMLNODE_H
#define SKC_PARSE_YAMLNODE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace skc {

class DiagnosticsEngine;

/// A scalar with its location. When the scalar is spelled verbatim in the
/// buffer (a plain scalar, or a quoted one without escapes), locAt() maps a
/// character offset of the value to its exact place in the file; otherwise
/// every offset maps to the start of the scalar.
struct YAMLScalar {
  std::string Value;
  /// Where the scalar starts, quote included.
  llvm::SMLoc Loc;
  /// Where Value's first character is, when Verbatim.
  llvm::SMLoc ValueLoc;
  bool Verbatim = false;
  /// Whether the scalar was written without quotes.
  bool Plain = true;

  llvm::SMLoc locAt(size_t Offset) const {
    if (!Verbatim)
      return Loc;
    return llvm::SMLoc::getFromPointer(ValueLoc.getPointer() + Offset);
  }
  /// The range of Value[Offset, Offset + Length).
  llvm::SMRange rangeAt(size_t Offset, size_t Length) const {
    if (!Verbatim)
      return getRange();
    return {locAt(Offset), locAt(Offset + Length)};
  }
  llvm::SMRange getRange() const {
    if (!Verbatim)
      return {Loc, Loc};
    return {ValueLoc, locAt(Value.size())};
  }
};

class YAMLNode {
public:
  enum NodeKind { NK_Null, NK_Scalar, NK_Sequence, NK_Mapping };

  using KeyValue = std::pair<YAMLScalar, YAMLNode>;

  NodeKind getKind() const { return Kind; }
  bool isNull() const { return Kind == NK_Null; }
  bool isScalar() const { return Kind == NK_Scalar; }
  bool isSequence() const { return Kind == NK_Sequence; }
  bool isMapping() const { return Kind == NK_Mapping; }

  llvm::SMLoc getLoc() const { return Loc; }

  const YAMLScalar &getScalar() const {
    assert(isScalar() && "not a scalar");
    return Scalar;
  }
  const std::vector<YAMLNode> &getItems() const {
    assert(isSequence() && "not a sequence");
    return Items;
  }
  /// The mapping's entries in file order; keys are unique (YAMLReader
  /// reports duplicates).
  const std::vector<KeyValue> &getEntries() const {
    assert(isMapping() && "not a mapping");
    return Entries;
  }

  static YAMLNode makeNull(llvm::SMLoc Loc) { return YAMLNode(NK_Null, Loc); }
  static YAMLNode makeScalar(YAMLScalar S) {
    YAMLNode N(NK_Scalar, S.Loc);
    N.Scalar = std::move(S);
    return N;
  }
  static YAMLNode makeSequence(llvm::SMLoc Loc, std::vector<YAMLNode> Items) {
    YAMLNode N(NK_Sequence, Loc);
    N.Items = std::move(Items);
    return N;
  }
  static YAMLNode makeMapping(llvm::SMLoc Loc, std::vector<KeyValue> Entries) {
    YAMLNode N(NK_Mapping, Loc);
    N.Entries = std::move(Entries);
    return N;
  }

  /// This tree with its locations moved from one copy of its text, at
  /// \p From, to another, at \p To.
  YAMLNode relocated(const char *From, const char *To) const;

private:
  YAMLNode(NodeKind Kind, llvm::SMLoc Loc) : Kind(Kind), Loc(Loc) {}

  NodeKind Kind;
  llvm::SMLoc Loc;
  YAMLScalar Scalar;
  std::vector<YAMLNode> Items;
  std::vector<KeyValue> Entries;
};

/// What reading a file again after an edit need not read again: the items
/// of a list at the top level whose text has not changed. yaml-cpp's
/// scanner is most of a schema check (docs/performance.md), and an editor
/// changes one entry at a time.
class YAMLReadCache {
public:
  YAMLReadCache();
  ~YAMLReadCache();
  YAMLReadCache(const YAMLReadCache &) = delete;
  YAMLReadCache &operator=(const YAMLReadCache &) = delete;

  struct Implementation;
  Implementation &getImplementation() { return *Impl; }

private:
  std::unique_ptr<Implementation> Impl;
};

/// Reads the first document of SourceMgr buffer \p BufferID. Syntax errors,
/// duplicate keys and non-scalar keys are reported to \p Diags; on a syntax
/// error there is no tree and the result is std::nullopt. With \p Cache, a
/// list at the top level (`- ` at the start of a line begins each item) is
/// read item by item, each item not read before on its own, with the same
/// result; anything else, or any problem, reads the whole document.
std::optional<YAMLNode> readYAML(unsigned BufferID, DiagnosticsEngine &Diags,
                                 YAMLReadCache *Cache = nullptr);

} // namespace skc

#endif // SKC_PARSE_YAMLNODE_H
