//===--- KernelDeclExtractor.cpp - Kernel definitions in an AST -----------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KernelDeclExtractor.h"

#include "AnalysisMarks.h"
#include "BodyFacts.h"
#include "DtypeDispatchFinder.h"
#include "KernelMacros.h"
#include "MetaInputRefusal.h"
#include "MetaOutputFlow.h"
#include "ParseSession.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/PrettyPrinter.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using clang::CharSourceRange;
using clang::LangOptions;
using clang::SourceLocation;
using clang::SourceManager;

namespace skc {

/// Returns the source text of \p R when it is written in one file, else "".
static StringRef getWrittenText(clang::SourceRange R, const SourceManager &SM,
                                const LangOptions &LO) {
  CharSourceRange File = clang::Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(R), SM, LO);
  if (File.isInvalid())
    return "";
  bool Invalid = false;
  StringRef Text = clang::Lexer::getSourceText(File, SM, LO, &Invalid);
  return Invalid ? "" : Text;
}

/// Returns the identifier spelled at \p Loc ("structured_add_out").
static StringRef getSpelledIdentifier(SourceLocation Loc,
                                      const SourceManager &SM) {
  bool Invalid = false;
  const char *P = SM.getCharacterData(SM.getSpellingLoc(Loc), &Invalid);
  if (Invalid)
    return "";
  size_t N = 0;
  while (clang::isAsciiIdentifierContinue(P[N]))
    ++N;
  return StringRef(P, N);
}

/// Returns the location of the struct's name in \p FD's qualifier
/// (`structured_add_out` in `void sk::native::structured_add_out::impl()`),
/// or an invalid location when there is no qualifier.
static SourceLocation getStructNameLoc(const clang::FunctionDecl &FD) {
  clang::NestedNameSpecifierLoc Q = FD.getQualifierLoc();
  if (!Q)
    return SourceLocation();
  clang::TypeLoc TL = Q.getAsTypeLoc();
  if (!TL)
    return SourceLocation();
  if (auto Tag = TL.getAs<clang::TagTypeLoc>())
    return Tag.getNameLoc();
  return TL.getEndLoc();
}

/// Returns the declaration that \p FD defines, from a header (the
/// generated one): its first declaration; or, when Clang found no
/// declaration to match (IR_NoMatchingDecl), the one that was meant: the
/// function of the same name in the same struct or namespace, the one with
/// as many parameters when there are overloads. Returns null when there is
/// none outside the definition's own file.
static const clang::FunctionDecl *
getHeaderDeclaration(const clang::FunctionDecl &FD, const SourceManager &SM) {
  clang::FileID DefinitionFile =
      SM.getFileID(SM.getExpansionLoc(FD.getLocation()));
  auto InHeader = [&](const clang::FunctionDecl *D) {
    return D != &FD && !D->isInvalidDecl() &&
           SM.getFileID(SM.getExpansionLoc(D->getLocation())) != DefinitionFile;
  };
  const clang::FunctionDecl *First = FD.getFirstDecl();
  if (First != &FD)
    return InHeader(First) ? First : nullptr;
  const clang::FunctionDecl *Meant = nullptr;
  for (const clang::NamedDecl *ND :
       FD.getDeclContext()->lookup(FD.getDeclName())) {
    const auto *Candidate = dyn_cast<clang::FunctionDecl>(ND);
    if (!Candidate || !InHeader(Candidate))
      continue;
    if (!Meant || Candidate->getNumParams() == FD.getNumParams())
      Meant = Candidate;
  }
  return Meant;
}

namespace {

/// Finds the kernel definitions of a translation unit's main file. Only
/// the main file's declarations are traversed, and no bodies: the
/// definitions are out-of-line members or namespace-scope functions.
class KernelDeclExtractor : public clang::DynamicRecursiveASTVisitor {
public:
  KernelDeclExtractor(clang::ASTContext &Ctx, ParseSession &Session,
                      std::vector<KernelDecl> &Found)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()),
        Session(Session), Found(Found),
        Dtypes([this](SourceLocation Loc) { return isAuthorCode(Loc); }) {
    // Canonical types as Sema compares them: desugared (typedefs and
    // aliases resolved, int64_t is long), every scope spelled from the
    // global namespace without a leading "::", no class-key.
    Canonical.SuppressTagKeyword = true;
    Canonical.SuppressScope = false;
    Canonical.FullyQualifiedName = true;
    Canonical.PrintAsCanonical = true;
    Canonical.UsePreferredNames = false;
  }

  /// Kernels are read wherever the author wrote them: the source, or a
  /// header of theirs that it includes; not the runtime's headers, the
  /// generated ones or system headers.
  bool TraverseDecl(clang::Decl *D) override {
    if (!D)
      return true;
    if (!isa<clang::TranslationUnitDecl>(D) && !isAuthorCode(D->getLocation()))
      return true;
    return clang::DynamicRecursiveASTVisitor::TraverseDecl(D);
  }
  /// Bodies are BodyFactCollector's.
  bool TraverseStmt(clang::Stmt *) override { return true; }

  bool VisitFunctionDecl(clang::FunctionDecl *FD) override;

private:
  void fillParams(const clang::FunctionDecl &FD, KernelDecl &K);
  /// Whether \p Loc is in the kernel sources or their own headers: not a
  /// system header, the runtime's or a generated one.
  bool isAuthorCode(SourceLocation Loc) const;
  std::string canonical(clang::QualType T) const {
    return T.getCanonicalType().getAsString(Canonical);
  }
  /// The type of \p R as written, or \p T printed when it is not written
  /// in one file (it comes from a macro).
  std::string writtenType(clang::SourceRange R, clang::QualType T) const {
    StringRef Text = getWrittenText(R, SM, LO);
    if (!Text.empty())
      return Text.str();
    return T.getAsString(clang::PrintingPolicy(LO));
  }

  clang::ASTContext &Ctx;
  const SourceManager &SM;
  const LangOptions &LO;
  ParseSession &Session;
  std::vector<KernelDecl> &Found;
  clang::PrintingPolicy Canonical{LO};
  DtypeDispatchFinder Dtypes;
};

} // namespace

bool KernelDeclExtractor::VisitFunctionDecl(clang::FunctionDecl *FD) {
  if (!FD->doesThisDeclarationHaveABody() || !FD->getIdentifier())
    return true;
  KernelDecl K;
  const auto *MD = dyn_cast<clang::CXXMethodDecl>(FD);
  if (MD) {
    const clang::CXXRecordDecl *Class = MD->getParent();
    if (!Class->getIdentifier() ||
        !Class->getName().starts_with(StructuredClassPrefix))
      return true;
    if (FD->getName() == "meta" &&
        isNamespace(Class->getDeclContext(), {"sk", "meta"}))
      K.Kind = KernelDeclKind::Meta;
    else if (FD->getName() == "impl" &&
             isNamespace(Class->getDeclContext(), {"sk", "native"}))
      K.Kind = KernelDeclKind::Impl;
    else
      return true;
    K.Name = Class->getName().str();
  } else {
    // A native kernel is registered by name: helpers with internal
    // linkage, templates and CUDA device code are not kernels.
    if (!isNamespace(FD->getDeclContext(), {"sk", "native"}) ||
        FD->isTemplated() || FD->getStorageClass() == clang::SC_Static ||
        FD->hasAttr<clang::CUDAGlobalAttr>() ||
        (FD->hasAttr<clang::CUDADeviceAttr>() &&
         !FD->hasAttr<clang::CUDAHostAttr>()))
      return true;
    K.Kind = KernelDeclKind::Native;
    K.Name = FD->getName().str();
  }

  // An authoring macro marks what it defines (SK_KERNEL_DEFINITION).
  SourceLocation NameLoc = FD->getLocation();
  SourceLocation MacroLoc;
  if (const clang::AnnotateAttr *Mark =
          findMark(*FD, AnalysisMark::KernelDefinition);
      Mark && NameLoc.isMacroID()) {
    MacroLoc = SM.getExpansionLoc(NameLoc);
    K.Macro = getStringArg(*Mark, 0).value_or("").str();
    K.MacroNameRange =
        Session.Locs.toSMRange(clang::SourceRange(MacroLoc, MacroLoc), SM, LO);
  }
  K.File = SM.getFilename(SM.getExpansionLoc(NameLoc)).str();
  K.InCUDASource = LO.CUDA;
  if (FD->isInvalidDecl()) {
    SourceLocation FileLoc = SM.getFileLoc(NameLoc);
    bool Mismatch = K.isFromMacro() && Session.MismatchedDefs.contains(FileLoc);
    K.setInvalid(Mismatch ? KernelDecl::IR_NoMatchingDecl
                          : KernelDecl::IR_ClangReported);
    if (Mismatch)
      Session.ExplainedDefs.insert(FileLoc);
  }

  // Where the name is: the macro's first argument, else the struct's name
  // in the qualifier (meta, impl) or the function's name (native).
  SourceLocation StructNameLoc = MD ? getStructNameLoc(*FD) : SourceLocation();
  SourceLocation Loc = NameLoc;
  if (MacroLoc.isValid() && K.Kind != KernelDeclKind::Native)
    Loc = getFirstMacroArgLoc(MacroLoc, SM, LO);
  else if (StructNameLoc.isValid())
    Loc = StructNameLoc;
  K.Loc = Session.Locs.toSMLoc(Loc, SM);

  // A struct Clang replaced by a close match (Note [Diagnostics left to
  // Sema] (b)): the kernel is the name written, not the struct's. Spelled
  // out by hand, Clang's own error was forwarded.
  auto Unknown = find_if(Session.UnknownKernels, [&](const UnknownKernel &U) {
    return MacroLoc.isValid() && U.MacroLoc == MacroLoc;
  });
  if (Unknown != Session.UnknownKernels.end()) {
    K.Name = Unknown->Name;
    K.setInvalid(KernelDecl::IR_UnknownName);
    Session.UnknownKernels.erase(Unknown);
  } else if (StructNameLoc.isValid()) {
    StringRef Written = getSpelledIdentifier(StructNameLoc, SM);
    if (!Written.empty() && Written != K.Name) {
      K.Name = Written.str();
      K.setInvalid(KernelDecl::IR_ClangReported);
    }
  }

  const clang::FunctionDecl *Declaration =
      K.InvalidReason != KernelDecl::IR_UnknownName
          ? getHeaderDeclaration(*FD, SM)
          : nullptr;
  if (Declaration) {
    K.HasDeclaration = true;
    for (const clang::ParmVarDecl *P : Declaration->parameters())
      K.DeclaredParamTypes.push_back(canonical(P->getType()));
    // The meta macro that does not fit the declaration (SK_META_FUNC for
    // a meta that returns precomputed fields, or the other way round):
    // Sema says which macro to use, and Clang's errors at it are noise.
    bool ReturnsPrecomputed = !Declaration->getReturnType()->isVoidType();
    if ((K.Macro == "meta" && ReturnsPrecomputed) ||
        (K.Macro == "precompute_meta" && !ReturnsPrecomputed))
      Session.explain(Explanation::KernelMacro, MacroLoc, SM);
  }

  if (clang::FunctionTypeLoc FTL = FD->getFunctionTypeLoc())
    K.ParamListRange = Session.Locs.toSMRange(
        clang::SourceRange(FTL.getLParenLoc(), FTL.getRParenLoc()), SM, LO);
  fillParams(*FD, K);
  K.ReturnTypeAsWritten =
      writtenType(FD->getReturnTypeSourceRange(), FD->getReturnType());
  K.CanonicalReturnType = canonical(FD->getReturnType());
  BodyFactOptions FactOptions;
  FactOptions.IsAuthorCode = [this](SourceLocation Loc) {
    return isAuthorCode(Loc);
  };
  FactOptions.FollowDataReads = K.Kind == KernelDeclKind::Meta;
  FactOptions.IsOutArgument = [Declaration](unsigned I) {
    return Declaration && I < Declaration->getNumParams() &&
           hasOwnMark(*Declaration->getParamDecl(I), AnalysisMark::OutArgument);
  };
  FactOptions.Explain = [this](Explanation E, SourceLocation Loc) {
    Session.explain(E, Loc, SM);
  };
  if (K.Kind == KernelDeclKind::Meta)
    FactOptions.PastMetaRefusal = findStatementsPastMetaRefusal(*FD, Ctx);
  collectBodyFacts(*FD, Ctx, Session.Locs, FactOptions, K.Facts);
  // Also for a definition Clang found no declaration for: its body is
  // whole, and Sema checks it as it checks the signature.
  if (K.Kind == KernelDeclKind::Meta)
    K.OutputsSet = findOutputsSetOnEveryPath(*FD, Ctx);
  if (K.Kind != KernelDeclKind::Meta && !FD->isInvalidDecl())
    K.Dtypes = Dtypes.findDtypes(*FD);
  Found.push_back(std::move(K));
  return true;
}

bool KernelDeclExtractor::isAuthorCode(SourceLocation Loc) const {
  return Session.isAuthorCode(Loc, SM);
}

void KernelDeclExtractor::fillParams(const clang::FunctionDecl &FD,
                                     KernelDecl &K) {
  for (const clang::ParmVarDecl *P : FD.parameters()) {
    KernelParam Param;
    if (P->getIdentifier()) {
      Param.Name = P->getName().str();
      Param.NameLoc = Session.Locs.toSMLoc(P->getLocation(), SM);
    }
    // The type runs from the declaration's start (`const`, which the
    // TypeLoc leaves out) to the end of its TypeLoc (`&`).
    clang::SourceRange TypeRange(P->getBeginLoc(), P->getBeginLoc());
    if (const clang::TypeSourceInfo *TSI = P->getTypeSourceInfo())
      TypeRange.setEnd(TSI->getTypeLoc().getEndLoc());
    Param.TypeAsWritten = writtenType(TypeRange, P->getType());
    Param.CanonicalType = canonical(P->getType());
    Param.Range = Session.Locs.toSMRange(P->getSourceRange(), SM, LO);
    Param.TypeRange = Session.Locs.toSMRange(TypeRange, SM, LO);
    K.Params.push_back(std::move(Param));
  }
}

void extractKernelDecls(clang::ASTContext &Ctx, ParseSession &Session,
                        std::vector<KernelDecl> &Found) {
  KernelDeclExtractor(Ctx, Session, Found).TraverseAST(Ctx);
}

} // namespace skc
