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

namespace skc {

/// Writes the "@generated" banner at the top of a file:
/// {0} the file's name, {1} the inputs.
void writeBanner(llvm::raw_ostream &OS, llvm::StringRef FileName,
                 const EmitOptions &Opts);

/// Writes a section banner before an operator's code.
void writeSectionBanner(llvm::raw_ostream &OS, llvm::StringRef Title);

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
  llvm::SmallVector<llvm::StringRef, 2> Names;
};

} // namespace skc

#endif // SKC_LIB_EMIT_CODEWRITER_H
