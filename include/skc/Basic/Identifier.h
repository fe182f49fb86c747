//===--- Identifier.h - C++ identifiers in schema files ---------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef SKC_BASIC_IDENTIFIER_H
#define SKC_BASIC_IDENTIFIER_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

namespace skc {

/// Whether \p S is an ASCII C++ identifier: what kernel names, namespaces
/// and dispatch keys must be, since generated code spells them.
inline bool isIdentifier(llvm::StringRef S) {
  return !S.empty() && (llvm::isAlpha(S[0]) || S[0] == '_') &&
         llvm::all_of(S, [](char C) { return llvm::isAlnum(C) || C == '_'; });
}

} // namespace skc

#endif // SKC_BASIC_IDENTIFIER_H
