//===--- CodeWriter.h - Helpers shared by the emitters ----------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef SKC_LIB_EMIT_CODEWRITER_H
#define SKC_LIB_EMIT_CODEWRITER_H

#include "skc/Emit/Emitters.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace skc {

/// Writes the "@generated" banner at the top of a file:
/// {0} the file's name, {1} the inputs.
void writeBanner(llvm::raw_ostream &OS, llvm::StringRef FileName,
                 const EmitOptions &Opts);

/// Writes a section banner before an operator's code.
void writeSectionBanner(llvm::raw_ostream &OS, llvm::StringRef Title);

/// Writes the includes that declare every type of the C++ API (Tensor,
/// Scalar, ...) and no more, so that API headers stay cheap to include.
void writeApiIncludes(llvm::raw_ostream &OS);

/// `Stem.cpp`, or `Stem_<Shard>.cpp` when there are several shards.
std::string getShardedName(llvm::StringRef Stem, unsigned Shard,
                           unsigned NumShards);

/// A C++ string literal holding \p S.
std::string getCppStringLiteral(llvm::StringRef S);

/// Opens `namespace A { namespace B {` for "A::B" and closes it when
/// destroyed, with `} // namespace B` comments.
class NamespaceScope {
public:
  NamespaceScope(llvm::raw_ostream &OS, llvm::StringRef QualifiedName);
  ~NamespaceScope();
  NamespaceScope(const NamespaceScope &) = delete;
  NamespaceScope &operator=(const NamespaceScope &) = delete;

private:
  llvm::raw_ostream &OS;
  /// Names points into it: callers often pass a temporary.
  std::string QualifiedName;
  llvm::SmallVector<llvm::StringRef, 2> Names;
};

} // namespace skc

#endif // SKC_LIB_EMIT_CODEWRITER_H
