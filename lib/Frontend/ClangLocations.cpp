//===--- ClangLocations.cpp - Clang locations as SMLocs -------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "ClangLocations.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;
using clang::CharSourceRange;
using clang::FileID;
using clang::LangOptions;
using clang::SourceLocation;
using clang::SourceManager;

namespace skc {

LocationMapper::LocationMapper(SourceMgr &SM) : SM(SM) {
  for (unsigned ID = 1, E = SM.getNumBuffers(); ID <= E; ++ID)
    BufferByName.try_emplace(SM.getMemoryBuffer(ID)->getBufferIdentifier(), ID);
}

void LocationMapper::beginTranslationUnit() {
  StartByFile.clear();
  CurrentSM = nullptr;
}

SMLoc LocationMapper::toSMLoc(SourceLocation Loc, const SourceManager &CSM) {
  if (Loc.isInvalid())
    return SMLoc();
  SourceLocation FileLoc = CSM.getFileLoc(Loc);
  auto [FID, Offset] = CSM.getDecomposedLoc(FileLoc);
  const char *Start = getBufferStart(FID, CSM);
  if (!Start)
    return SMLoc();
  return SMLoc::getFromPointer(Start + Offset);
}

SMRange LocationMapper::toSMRange(CharSourceRange R, const SourceManager &CSM,
                                  const LangOptions &LO) {
  if (R.isInvalid())
    return SMRange();
  CharSourceRange File = clang::Lexer::makeFileCharRange(R, CSM, LO);
  if (File.isInvalid()) {
    // A range that starts or ends inside a macro body: take the
    // expansion, as Clang's caret line does.
    File = CSM.getExpansionRange(R);
    if (File.isTokenRange())
      File = CharSourceRange::getCharRange(
          File.getBegin(),
          clang::Lexer::getLocForEndOfToken(File.getEnd(), 0, CSM, LO));
  }
  SMLoc Begin = toSMLoc(File.getBegin(), CSM);
  SMLoc End = toSMLoc(File.getEnd(), CSM);
  if (!Begin.isValid())
    return SMRange();
  if (!End.isValid() ||
      CSM.getFileID(File.getBegin()) != CSM.getFileID(File.getEnd()) ||
      End.getPointer() < Begin.getPointer())
    End = Begin;
  return SMRange(Begin, End);
}

SMRange LocationMapper::toSMRange(clang::SourceRange R,
                                  const SourceManager &CSM,
                                  const LangOptions &LO) {
  return toSMRange(CharSourceRange::getTokenRange(R), CSM, LO);
}

const char *LocationMapper::getBufferStart(FileID FID,
                                           const SourceManager &CSM) {
  if (&CSM != CurrentSM) {
    StartByFile.clear();
    CurrentSM = &CSM;
  }
  auto [It, Inserted] = StartByFile.try_emplace(FID, nullptr);
  if (!Inserted)
    return It->second;
  std::optional<StringRef> Data = CSM.getBufferDataOrNone(FID);
  if (!Data)
    return nullptr;
  StringRef Name;
  if (clang::OptionalFileEntryRef FE = CSM.getFileEntryRefForID(FID))
    Name = FE->getName();
  else
    Name = CSM.getBufferName(CSM.getLocForStartOfFile(FID));
  unsigned &ID = BufferByName[Name];
  if (ID == 0 || SM.getMemoryBuffer(ID)->getBuffer() != *Data)
    ID = SM.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(*Data, Name),
                               SMLoc());
  It->second = SM.getMemoryBuffer(ID)->getBufferStart();
  return It->second;
}

} // namespace skc
