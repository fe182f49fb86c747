//===--- SourcePositions.h - SMLocs as LSP positions and back ---*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// skc's locations are SMLocs in an llvm::SourceMgr; LSP's are 0-based lines
/// and columns counted in UTF-16 code units (LSP 3.17's default encoding).
///
//===----------------------------------------------------------------------===//

#ifndef SKC_LIB_LSP_SOURCEPOSITIONS_H
#define SKC_LIB_LSP_SOURCEPOSITIONS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/SMLoc.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace skc {

/// The LSP position of \p Loc; line 0, column 0 for an invalid one.
llvm::lsp::Position toLSPPosition(const llvm::SourceMgr &SM, llvm::SMLoc Loc);
/// \p R as an LSP range; an empty range at its start when R ends before it.
llvm::lsp::Range toLSPRange(const llvm::SourceMgr &SM, llvm::SMRange R);
/// The SMLoc of \p P in buffer \p BufferID; an invalid one when P is beyond
/// its text. A column beyond the end of its line is the line's end.
llvm::SMLoc fromLSPPosition(const llvm::SourceMgr &SM, unsigned BufferID,
                            llvm::lsp::Position P);
/// The offset of \p P in \p Text, as fromLSPPosition finds it; none when P
/// is beyond the text.
std::optional<size_t> getOffset(llvm::StringRef Text, llvm::lsp::Position P);
/// Applies \p Changes to \p Text in order, their ranges counted as every
/// position here is (UTF-16 columns; llvm::lsp's own applyTo counts bytes).
/// False, and Text as it was, when a range is not in the text.
bool applyChanges(
    llvm::ArrayRef<llvm::lsp::TextDocumentContentChangeEvent> Changes,
    std::string &Text);

/// The file of \p Loc, as its buffer is named ("" for none).
llvm::StringRef getFile(const llvm::SourceMgr &SM, llvm::SMLoc Loc);
/// The buffer named \p Path in \p SM; 0 for none.
unsigned findBuffer(const llvm::SourceMgr &SM, llvm::StringRef Path);

/// Whether \p P lies in \p R, both ends included (a cursor just after a
/// name is on it, as editors place it).
inline bool contains(const llvm::lsp::Range &R, const llvm::lsp::Position &P) {
  return !(P < R.start) && !(R.end < P);
}

} // namespace skc

#endif // SKC_LIB_LSP_SOURCEPOSITIONS_H
