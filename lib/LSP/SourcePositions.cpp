//===--- SourcePositions.cpp - SMLocs as LSP positions and back -----------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "SourcePositions.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;

namespace skc {

/// The number of UTF-16 code units of the UTF-8 text \p Text: a code point
/// of four bytes is two units, any other one.
static int64_t countUTF16(StringRef Text) {
  int64_t Units = 0;
  for (unsigned char C : Text) {
    if ((C & 0xC0) == 0x80)
      continue; // A continuation byte.
    Units += C >= 0xF0 ? 2 : 1;
  }
  return Units;
}

lsp::Position toLSPPosition(const SourceMgr &SM, SMLoc Loc) {
  lsp::Position P;
  unsigned ID = Loc.isValid() ? SM.FindBufferContainingLoc(Loc) : 0;
  if (!ID)
    return P;
  auto [Line, Column] = SM.getLineAndColumn(Loc, ID);
  P.line = static_cast<int>(Line) - 1;
  StringRef Before(Loc.getPointer() - (Column - 1), Column - 1);
  P.character = static_cast<int>(countUTF16(Before));
  return P;
}

lsp::Range toLSPRange(const SourceMgr &SM, SMRange R) {
  lsp::Range Range;
  Range.start = toLSPPosition(SM, R.Start);
  Range.end = R.End.isValid() && R.Start.getPointer() <= R.End.getPointer()
                  ? toLSPPosition(SM, R.End)
                  : Range.start;
  return Range;
}

std::optional<size_t> getOffset(StringRef Text, lsp::Position P) {
  if (P.line < 0 || P.character < 0)
    return std::nullopt;
  size_t Offset = 0;
  for (int Line = 0; Line != P.line; ++Line) {
    Offset = Text.find('\n', Offset);
    if (Offset == StringRef::npos)
      return std::nullopt;
    ++Offset;
  }
  // Count UTF-16 units along the line.
  int64_t Units = 0;
  while (Offset < Text.size() && Text[Offset] != '\n' && Units < P.character) {
    unsigned char C = Text[Offset];
    Units += C >= 0xF0 ? 2 : 1;
    ++Offset;
    while (Offset < Text.size() && (Text[Offset] & 0xC0) == 0x80)
      ++Offset;
  }
  return Offset;
}

SMLoc fromLSPPosition(const SourceMgr &SM, unsigned BufferID, lsp::Position P) {
  if (!BufferID || BufferID > SM.getNumBuffers())
    return SMLoc();
  StringRef Text = SM.getMemoryBuffer(BufferID)->getBuffer();
  std::optional<size_t> Offset = getOffset(Text, P);
  return Offset ? SMLoc::getFromPointer(Text.data() + *Offset) : SMLoc();
}

bool applyChanges(ArrayRef<lsp::TextDocumentContentChangeEvent> Changes,
                  std::string &Text) {
  std::string Edited = Text;
  for (const lsp::TextDocumentContentChangeEvent &Change : Changes) {
    if (!Change.range) {
      Edited = Change.text;
      continue;
    }
    std::optional<size_t> Start = getOffset(Edited, Change.range->start);
    std::optional<size_t> End = getOffset(Edited, Change.range->end);
    if (!Start || !End || *End < *Start)
      return false;
    Edited.replace(*Start, *End - *Start, Change.text);
  }
  Text = std::move(Edited);
  return true;
}

StringRef getFile(const SourceMgr &SM, SMLoc Loc) {
  unsigned ID = Loc.isValid() ? SM.FindBufferContainingLoc(Loc) : 0;
  return ID ? SM.getMemoryBuffer(ID)->getBufferIdentifier() : "";
}

unsigned findBuffer(const SourceMgr &SM, StringRef Path) {
  for (unsigned ID = 1, E = SM.getNumBuffers(); ID <= E; ++ID)
    if (SM.getMemoryBuffer(ID)->getBufferIdentifier() == Path)
      return ID;
  return 0;
}

} // namespace skc
