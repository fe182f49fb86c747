//===--- KernelMacros.cpp - The authoring macros in Clang's tokens --------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KernelMacros.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace llvm;
using clang::LangOptions;
using clang::SourceLocation;
using clang::SourceManager;

namespace skc {
SourceLocation getFirstMacroArgLoc(SourceLocation MacroNameLoc,
                                   const SourceManager &SM,
                                   const LangOptions &LO) {
  std::optional<clang::Token> LParen =
      clang::Lexer::findNextToken(MacroNameLoc, SM, LO);
  if (!LParen || LParen->isNot(clang::tok::l_paren))
    return MacroNameLoc;
  std::optional<clang::Token> Arg =
      clang::Lexer::findNextToken(LParen->getLocation(), SM, LO);
  if (!Arg || Arg->isNot(clang::tok::raw_identifier))
    return MacroNameLoc;
  return Arg->getLocation();
}

clang::SourceRange getParenthesesAfter(SourceLocation Loc,
                                       const SourceManager &SM,
                                       const LangOptions &LO) {
  std::optional<clang::Token> Tok = clang::Lexer::findNextToken(Loc, SM, LO);
  if (!Tok || Tok->isNot(clang::tok::l_paren))
    return clang::SourceRange();
  SourceLocation Open = Tok->getLocation();
  unsigned Depth = 0;
  while (Tok && Tok->isNot(clang::tok::eof)) {
    if (Tok->is(clang::tok::l_paren))
      ++Depth;
    else if (Tok->is(clang::tok::r_paren) && --Depth == 0)
      return clang::SourceRange(Open, Tok->getLocation());
    Tok = clang::Lexer::findNextToken(Tok->getLocation(), SM, LO);
  }
  return clang::SourceRange();
}

} // namespace skc
