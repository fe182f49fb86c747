//===--- KernelSourceParser.cpp - Kernel sources through Clang ------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The Clang front end of skc. clang::tooling::ClangTool parses every
/// kernel source (each as its own translation unit, -fsyntax-only), with
/// the generated headers mapped into an in-memory file system laid over
/// the real one. Per translation unit:
///
///  - ForwardingDiagConsumer hands Clang's diagnostics to skc's
///    DiagnosticsEngine (err_clang / warn_clang / note_clang), except the
///    few that Sema explains better (Note [Diagnostics left to Sema]);
///  - KernelDeclExtractor walks the main file's declarations and records
///    every meta, impl and native-function definition (KernelDecl.h), and
///    BodyFactCollector the facts about its body (Note [Body facts]).
///
/// Clang SourceLocations die with their translation unit, so everything is
/// converted to SMLocs while the unit is alive (LocationMapper).
///
/// This is the only file of skc that includes Clang headers.
///
//===----------------------------------------------------------------------===//

#include "skc/Parse/KernelSourceParser.h"
#include "skc/Basic/Diagnostic.h"

#include "DtypeDispatchFinder.h"
#include "MetaOutputFlow.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/PrettyPrinter.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/DiagnosticDriver.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/Utils.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <algorithm>

using namespace llvm;
using clang::CharSourceRange;
using clang::FileID;
using clang::LangOptions;
using clang::SourceLocation;
using clang::SourceManager;
namespace tooling = clang::tooling;

namespace skc {

//===----------------------------------------------------------------------===//
// Locations
//===----------------------------------------------------------------------===//

namespace {

/// Converts Clang locations into SMLocs of the DiagnosticsEngine's
/// llvm::SourceMgr. Each file Clang reports on is copied into that
/// SourceMgr once, byte for byte, so a file offset is the same in both:
/// the SMLoc of offset N in file F is the start of F's buffer plus N.
/// Macro locations become file locations first (SourceManager::getFileLoc:
/// the spelling of a macro argument, else the expansion site), as Clang's
/// own text diagnostics do.
class LocationMapper {
public:
  explicit LocationMapper(SourceMgr &SM) : SM(SM) {
    // A driver may have loaded a file already (a generated header whose
    // emitter reported on it): reuse its buffer.
    for (unsigned ID = 1, E = SM.getNumBuffers(); ID <= E; ++ID)
      BufferByName.try_emplace(SM.getMemoryBuffer(ID)->getBufferIdentifier(),
                               ID);
  }

  /// Forgets the FileIDs of the previous translation unit.
  void beginTranslationUnit() {
    StartByFile.clear();
    CurrentSM = nullptr;
  }

  SMLoc toSMLoc(SourceLocation Loc, const SourceManager &CSM) {
    if (Loc.isInvalid())
      return SMLoc();
    SourceLocation FileLoc = CSM.getFileLoc(Loc);
    auto [FID, Offset] = CSM.getDecomposedLoc(FileLoc);
    const char *Start = getBufferStart(FID, CSM);
    if (!Start)
      return SMLoc();
    return SMLoc::getFromPointer(Start + Offset);
  }

  /// The file range of \p R, or an empty range at its start when Clang
  /// cannot express it in one file.
  SMRange toSMRange(CharSourceRange R, const SourceManager &CSM,
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

  SMRange toSMRange(clang::SourceRange R, const SourceManager &CSM,
                    const LangOptions &LO) {
    return toSMRange(CharSourceRange::getTokenRange(R), CSM, LO);
  }

private:
  const char *getBufferStart(FileID FID, const SourceManager &CSM) {
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

  SourceMgr &SM;
  /// Buffer IDs in SM by file name, across translation units.
  StringMap<unsigned> BufferByName;
  /// The SM buffer of each file of the current translation unit.
  DenseMap<FileID, const char *> StartByFile;
  const SourceManager *CurrentSM = nullptr;
};

} // namespace

//===----------------------------------------------------------------------===//
// The authoring macros
//===----------------------------------------------------------------------===//

/// The macros that define kernels (runtime/sk/iter/MetaBase.h and the
/// runtime's SK_NATIVE_FUNC), and the kind each one defines.
static std::optional<KernelDeclKind> getKernelMacroKind(StringRef Name) {
  return StringSwitch<std::optional<KernelDeclKind>>(Name)
      .Cases({"SK_META_FUNC", "SK_PRECOMPUTE_META_FUNC"}, KernelDeclKind::Meta)
      .Case("SK_IMPL_FUNC", KernelDeclKind::Impl)
      .Case("SK_NATIVE_FUNC", KernelDeclKind::Native)
      .Default(std::nullopt);
}

/// Returns the name of the outermost macro whose expansion produced \p Loc,
/// or "" when \p Loc is not in a macro expansion.
static StringRef getOutermostMacroName(SourceLocation Loc,
                                       const SourceManager &SM) {
  if (!Loc.isMacroID())
    return "";
  bool Invalid = false;
  const char *P = SM.getCharacterData(SM.getExpansionLoc(Loc), &Invalid);
  if (Invalid)
    return "";
  size_t N = 0;
  while (clang::isAsciiIdentifierContinue(P[N]))
    ++N;
  return StringRef(P, N);
}

/// Returns the kind of kernel that the SK_*_FUNC macro expanding at \p Loc
/// defines, or std::nullopt when \p Loc is not in one.
static std::optional<KernelDeclKind> getKernelMacroAt(SourceLocation Loc,
                                                      const SourceManager &SM) {
  return getKernelMacroKind(getOutermostMacroName(Loc, SM));
}

/// Returns the location of the first argument of the macro invocation
/// whose name is at \p MacroNameLoc (`add` in `SK_META_FUNC(add, Tensor)`),
/// or \p MacroNameLoc when the tokens are not `NAME ( ARG`.
static SourceLocation getFirstMacroArgLoc(SourceLocation MacroNameLoc,
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

/// Returns the parentheses that follow the token at \p Loc, matched by
/// raw lexing, or an invalid range when no `(` follows.
static clang::SourceRange getParenthesesAfter(SourceLocation Loc,
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

/// Returns whether \p DC is the namespace \p Path (outermost first)
/// directly under the translation unit; inline namespaces count as their
/// parent.
static bool isNamespace(const clang::DeclContext *DC,
                        ArrayRef<StringRef> Path) {
  for (StringRef Name : llvm::reverse(Path)) {
    while (DC && DC->isInlineNamespace())
      DC = DC->getParent();
    const auto *NS = dyn_cast_or_null<clang::NamespaceDecl>(DC);
    if (!NS || NS->getName() != Name)
      return false;
    DC = NS->getParent();
  }
  return DC && DC->getRedeclContext()->isTranslationUnit();
}

/// Returns whether \p RD is the class sk::\p Name.
static bool isRuntimeClass(const clang::CXXRecordDecl *RD, StringRef Name) {
  return RD && RD->getIdentifier() && RD->getName() == Name &&
         isNamespace(RD->getDeclContext(), {"sk"});
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

// Note [Diagnostics left to Sema]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Every diagnostic Clang reports in a kernel source reaches skc's
// DiagnosticsEngine as err_clang / warn_clang / note_clang with Clang's
// message (warnings and warnings-as-errors with their " [-Wflag]"), at the
// same file location (macro locations mapped as in Clang's caret line),
// with Clang's ranges and fix-its. Three are not forwarded:
//
//  (a) err_member_decl_does_not_match(_suggest) ("out-of-line definition of
//      'meta' does not match any declaration in ...") with its notes, when
//      the definition comes from SK_META_FUNC, SK_PRECOMPUTE_META_FUNC,
//      SK_IMPL_FUNC or SK_NATIVE_FUNC. Clang keeps the definition in the
//      AST, marked invalid, with its parameters and body; it becomes a
//      KernelDecl with InvalidReason IR_NoMatchingDecl, and Sema reports the
//      mismatch against the schema with the expected signature.
//  (b) err_no_member(_suggest) ("no member named 'structured_X' in
//      namespace 'sk::meta'") with its notes, when it comes from one of the
//      struct-qualified macros: a meta or impl of an operator or kernel that
//      has no generated struct. It becomes a KernelDecl with InvalidReason
//      IR_UnknownName and the name; Sema says "did you mean". Without a
//      close match Clang drops the definition (no parameters, no facts);
//      with one Clang recovers with the corrected struct, and the
//      definition keeps its parameters (and the name written, not the
//      corrected one).
//      err_ovl_diff_return_type ("functions that differ only in their
//      return type cannot be overloaded") is the same mismatch for an
//      SK_NATIVE_FUNC whose return type differs from the generated
//      declaration's; Sema reports it against the schema's returns.
//  (c) warn_drv_new_cuda_version ("CUDA version is newer than the latest
//      supported version"): Clang 22 parses CUDA 13 host code correctly and
//      only warns that it does not know the version; harmless noise.
//
// Anything else, errors above all, is forwarded: an error Clang reports is
// never swallowed. Sema must report every KernelDecl whose InvalidReason is
// IR_NoMatchingDecl or IR_UnknownName, or the error would be lost.

namespace {

/// A meta or impl for a struct Clang does not know (Note [Diagnostics left
/// to Sema] (b)), until the translation unit's declarations are extracted.
struct UnknownKernel {
  KernelDeclKind Kind;
  std::string Name;
  /// The file location of the macro's name: the key that matches the
  /// definition when Clang kept one.
  SourceLocation MacroLoc;
  SMLoc Loc;
  SMRange ParamListRange;
};

/// What the parse of all sources shares: the output, the location mapper,
/// and what the diagnostic consumer tells the declaration extractor about
/// the current translation unit.
struct ParseSession {
  ParseSession(DiagnosticsEngine &Diags, std::vector<KernelDecl> &Decls,
               const KernelSourceOptions &Options)
      : Diags(Diags), Locs(Diags.getSourceMgr()), Decls(Decls),
        Options(Options) {}

  DiagnosticsEngine &Diags;
  LocationMapper Locs;
  std::vector<KernelDecl> &Decls;
  const KernelSourceOptions &Options;
  /// (b) in the current translation unit.
  SmallVector<UnknownKernel, 2> UnknownKernels;
  /// The locations of definitions whose (a) diagnostic was left to Sema.
  DenseSet<SourceLocation> MismatchedDefs;
};

/// Forwards Clang's diagnostics to skc's DiagnosticsEngine, less the ones
/// in Note [Diagnostics left to Sema].
class ForwardingDiagConsumer : public clang::DiagnosticConsumer {
public:
  explicit ForwardingDiagConsumer(ParseSession &Session) : Session(Session) {}

  void BeginSourceFile(const LangOptions &LO,
                       const clang::Preprocessor *) override {
    LangOpts = &LO;
    DroppingNotes = false;
    Session.Locs.beginTranslationUnit();
    Session.UnknownKernels.clear();
    Session.MismatchedDefs.clear();
  }
  void EndSourceFile() override { LangOpts = nullptr; }

  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;

private:
  /// Whether \p Info is left to Sema; records what Sema needs.
  bool leaveToSema(const clang::Diagnostic &Info);
  void forward(clang::DiagnosticsEngine::Level Level,
               const clang::Diagnostic &Info);

  ParseSession &Session;
  const LangOptions *LangOpts = nullptr;
  /// Whether the last error or warning was left to Sema, and so are the
  /// notes that follow it.
  bool DroppingNotes = false;
};

} // namespace

void ForwardingDiagConsumer::HandleDiagnostic(
    clang::DiagnosticsEngine::Level Level, const clang::Diagnostic &Info) {
  // Not clang::DiagnosticConsumer::HandleDiagnostic: its counts stay zero,
  // so that CompilerInstance prints no "N errors generated." to stderr;
  // skc's DiagnosticsEngine counts.
  if (Level == clang::DiagnosticsEngine::Note) {
    if (!DroppingNotes)
      forward(Level, Info);
    return;
  }
  DroppingNotes = leaveToSema(Info);
  if (!DroppingNotes)
    forward(Level, Info);
}

/// Returns the name a diagnostic argument holds, or "".
static std::string getNameArg(const clang::Diagnostic &Info, unsigned Index) {
  switch (Info.getArgKind(Index)) {
  case clang::DiagnosticsEngine::ak_identifierinfo:
    if (const clang::IdentifierInfo *II = Info.getArgIdentifier(Index))
      return II->getName().str();
    return "";
  case clang::DiagnosticsEngine::ak_declarationname:
    return clang::DeclarationName::getFromOpaqueInteger(Info.getRawArg(Index))
        .getAsString();
  default:
    return "";
  }
}

bool ForwardingDiagConsumer::leaveToSema(const clang::Diagnostic &Info) {
  unsigned ID = Info.getID();
  if (ID == clang::diag::warn_drv_new_cuda_version) // (c)
    return true;
  bool IsMismatch = ID == clang::diag::err_member_decl_does_not_match ||
                    ID == clang::diag::err_member_decl_does_not_match_suggest ||
                    ID == clang::diag::err_ovl_diff_return_type;
  bool IsNoMember = ID == clang::diag::err_no_member ||
                    ID == clang::diag::err_no_member_suggest;
  if ((!IsMismatch && !IsNoMember) || !Info.hasSourceManager() || !LangOpts)
    return false;
  const SourceManager &SM = Info.getSourceManager();
  SourceLocation Loc = Info.getLocation();
  std::optional<KernelDeclKind> Kind = getKernelMacroAt(Loc, SM);
  if (!Kind)
    return false;
  if (IsMismatch) { // (a)
    Session.MismatchedDefs.insert(Loc);
    return true;
  }
  // (b): only a struct name in sk::meta / sk::native, from a macro that
  // names one.
  if (*Kind == KernelDeclKind::Native ||
      Info.getArgKind(1) != clang::DiagnosticsEngine::ak_declcontext)
    return false;
  std::string Name = getNameArg(Info, 0);
  const auto *DC =
      reinterpret_cast<const clang::DeclContext *>(Info.getRawArg(1));
  StringRef Namespace = *Kind == KernelDeclKind::Meta ? "meta" : "native";
  if (!StringRef(Name).starts_with("structured_") ||
      !isNamespace(DC, {"sk", Namespace}))
    return false;
  SourceLocation MacroLoc = SM.getExpansionLoc(Loc);
  if (any_of(Session.UnknownKernels,
             [&](const UnknownKernel &U) { return U.MacroLoc == MacroLoc; }))
    return true; // SK_PRECOMPUTE_META_FUNC names the struct twice.
  UnknownKernel U;
  U.Kind = *Kind;
  U.Name = std::move(Name);
  U.MacroLoc = MacroLoc;
  U.Loc =
      Session.Locs.toSMLoc(getFirstMacroArgLoc(MacroLoc, SM, *LangOpts), SM);
  clang::SourceRange Parens =
      getParenthesesAfter(SM.getExpansionRange(Loc).getEnd(), SM, *LangOpts);
  U.ParamListRange = Session.Locs.toSMRange(Parens, SM, *LangOpts);
  Session.UnknownKernels.push_back(std::move(U));
  return true;
}

void ForwardingDiagConsumer::forward(clang::DiagnosticsEngine::Level Level,
                                     const clang::Diagnostic &Info) {
  SmallString<256> Message;
  Info.FormatDiagnostic(Message);
  diag::Kind Kind = diag::err_clang;
  switch (Level) {
  case clang::DiagnosticsEngine::Ignored:
    return;
  case clang::DiagnosticsEngine::Note:
  case clang::DiagnosticsEngine::Remark:
    Kind = diag::note_clang;
    break;
  case clang::DiagnosticsEngine::Warning:
    Kind = diag::warn_clang;
    break;
  case clang::DiagnosticsEngine::Error:
  case clang::DiagnosticsEngine::Fatal:
    Kind = diag::err_clang;
    break;
  }
  // The flag, as Clang's text printer shows it.
  if (Level == clang::DiagnosticsEngine::Warning ||
      Level == clang::DiagnosticsEngine::Error ||
      Level == clang::DiagnosticsEngine::Fatal) {
    clang::DiagnosticIDs &IDs = *Info.getDiags()->getDiagnosticIDs();
    StringRef Flag = IDs.getWarningOptionForDiag(Info.getID());
    if (!Flag.empty()) {
      Message += " [";
      if (Level != clang::DiagnosticsEngine::Warning &&
          !IDs.isDefaultMappingAsError(Info.getID()))
        Message += "-Werror,";
      Message += "-W";
      Message += Flag;
      Message += ']';
    }
  }

  if (!Info.hasSourceManager() || !LangOpts) {
    Session.Diags.report(SMLoc(), Kind) << Message.str();
    return;
  }
  const SourceManager &SM = Info.getSourceManager();
  LocationMapper &Locs = Session.Locs;
  DiagnosticBuilder B =
      Session.Diags.report(Locs.toSMLoc(Info.getLocation(), SM), Kind);
  B << Message.str();
  for (const CharSourceRange &R : Info.getRanges())
    B << Locs.toSMRange(R, SM, *LangOpts);
  for (const clang::FixItHint &F : Info.getFixItHints())
    B << FixItHint::replace(Locs.toSMRange(F.RemoveRange, SM, *LangOpts),
                            F.CodeToInsert);
}

//===----------------------------------------------------------------------===//
// Body facts
//===----------------------------------------------------------------------===//

// Note [Body facts]
// ~~~~~~~~~~~~~~~~~
// What counts (BodyFact::FactKind):
//
//  FK_SetOutput      this->set_output_strided / set_output_raw_strided /
//                    set_output_contiguous (OutputIndex when the first
//                    argument is an integer constant expression), and
//                    this->build*() of sk::TensorIteratorBase (build,
//                    build_binary_op, build_borrowing_unary_op, ...), which
//                    set every output (AllOutputs). Calls on another object
//                    (a local TensorIterator) do not set this kernel's
//                    outputs and are not facts. A call that is given
//                    `this` or `*this` as an argument (a helper such as
//                    resize_reduction(*this, ...)) may set any output: it
//                    is recorded with neither OutputIndex nor AllOutputs.
//                    Whether outputs are set on every path is the CFG's
//                    question (KernelDecl::OutputsSet); these facts say
//                    only that some path may set them, so that Sema warns
//                    rather than errs.
//  FK_DataAccess     reading tensor data: sk::Tensor::data_ptr,
//                    const_data_ptr, mutable_data_ptr, item, accessor,
//                    packed_accessor32/64; sk::TensorImpl::data and
//                    mutable_data; sk::StorageImpl::data; and operator<<
//                    with an sk::Tensor operand (printing reads the data).
//                    Detail is the function's name.
//  FK_AssignToParam  `P = ...` or `P op= ...` where P is a parameter of the
//                    kernel, builtin or overloaded, also through a cast
//                    (`const_cast<Tensor &>(out) = ...`) or a local
//                    reference bound to it; also when Clang rejected
//                    the assignment (`out = empty(...)` on a `const Tensor
//                    &out`, which Clang keeps as a RecoveryExpr: its first
//                    operand is P and the next token an assignment
//                    operator), so Sema can explain the error it caused.
//                    Detail is the parameter's name.
//  FK_PrecomputeSet  a call of a member set_<field> of a precompute_out
//                    struct (Note [Precomputed fields] in MetaBase.h).
//                    Detail is the field.
//
// Whether outputs are set on every path is not a fact of one call; the
// CFG decides it (Note [Outputs on every path] in MetaOutputFlow.cpp).

static bool isAssignmentToken(const clang::Token &Tok) {
  switch (Tok.getKind()) {
  case clang::tok::equal:
  case clang::tok::plusequal:
  case clang::tok::minusequal:
  case clang::tok::starequal:
  case clang::tok::slashequal:
  case clang::tok::percentequal:
  case clang::tok::ampequal:
  case clang::tok::pipeequal:
  case clang::tok::caretequal:
  case clang::tok::lesslessequal:
  case clang::tok::greatergreaterequal:
    return true;
  default:
    return false;
  }
}

namespace {

/// Collects the facts of one kernel body (Note [Body facts]).
class BodyFactCollector {
public:
  BodyFactCollector(const clang::FunctionDecl &FD, clang::ASTContext &Ctx,
                    LocationMapper &Locs, std::vector<BodyFact> &Facts)
      : FD(FD), Ctx(Ctx), SM(Ctx.getSourceManager()), Locs(Locs), Facts(Facts) {
  }

  void collect(const clang::Stmt *Body) { scan(Body); }

private:
  void scan(const clang::Stmt *S);
  void recordFacts(const clang::Expr *E);
  void recordMemberCall(const clang::CXXMemberCallExpr *Call);
  /// Returns the kernel parameter \p E names, or null.
  const clang::ParmVarDecl *getParam(const clang::Expr *E) const;
  BodyFact &add(BodyFact::FactKind Kind, const clang::Expr *E,
                StringRef Detail);

  const clang::FunctionDecl &FD;
  clang::ASTContext &Ctx;
  const SourceManager &SM;
  LocationMapper &Locs;
  std::vector<BodyFact> &Facts;
};

} // namespace

void BodyFactCollector::scan(const clang::Stmt *S) {
  if (!S)
    return;
  if (const auto *E = dyn_cast<clang::Expr>(S))
    recordFacts(E);
  for (const clang::Stmt *Child : S->children())
    scan(Child);
}

const clang::ParmVarDecl *
BodyFactCollector::getParam(const clang::Expr *E) const {
  // Through casts (`const_cast<Tensor &>(out)`), and through local
  // references bound to a parameter (`Tensor &O = const_cast<...>(out)`),
  // a few deep.
  for (unsigned Depth = 0; Depth != 4; ++Depth) {
    const auto *Ref = dyn_cast<clang::DeclRefExpr>(E->IgnoreParenCasts());
    if (!Ref)
      return nullptr;
    if (const auto *P = dyn_cast<clang::ParmVarDecl>(Ref->getDecl()))
      return P->getDeclContext() == &FD ? P : nullptr;
    const auto *Alias = dyn_cast<clang::VarDecl>(Ref->getDecl());
    if (!Alias || !Alias->getType()->isReferenceType() || !Alias->getInit())
      return nullptr;
    E = Alias->getInit();
  }
  return nullptr;
}

BodyFact &BodyFactCollector::add(BodyFact::FactKind Kind, const clang::Expr *E,
                                 StringRef Detail) {
  BodyFact F;
  F.Kind = Kind;
  F.Range = Locs.toSMRange(E->getSourceRange(), SM, Ctx.getLangOpts());
  F.Detail = Detail.str();
  Facts.push_back(std::move(F));
  return Facts.back();
}

/// Whether \p E is `this` or `*this`.
static bool isThis(const clang::Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (isa<clang::CXXThisExpr>(E))
    return true;
  const auto *Deref = dyn_cast<clang::UnaryOperator>(E);
  return Deref && Deref->getOpcode() == clang::UO_Deref &&
         isa<clang::CXXThisExpr>(Deref->getSubExpr()->IgnoreParenImpCasts());
}

void BodyFactCollector::recordFacts(const clang::Expr *E) {
  // A call that is handed the kernel itself (`resize_reduction(*this,
  // ...)`) may set outputs through it; see Note [Body facts].
  if (const auto *Call = dyn_cast<clang::CallExpr>(E)) {
    if (any_of(Call->arguments(), isThis)) {
      const clang::FunctionDecl *Callee = Call->getDirectCallee();
      add(BodyFact::FK_SetOutput, E,
          Callee && Callee->getIdentifier() ? Callee->getName() : "a call")
          .ThroughCall = true;
    }
  }
  if (const auto *Call = dyn_cast<clang::CXXMemberCallExpr>(E)) {
    recordMemberCall(Call);
    return;
  }
  if (const auto *Op = dyn_cast<clang::CXXOperatorCallExpr>(E)) {
    if (Op->isAssignmentOp() && Op->getNumArgs() == 2) {
      if (const clang::ParmVarDecl *P = getParam(Op->getArg(0)))
        add(BodyFact::FK_AssignToParam, E, P->getName());
      return;
    }
    if (Op->getOperator() != clang::OO_LessLess)
      return;
    for (const clang::Expr *Arg : Op->arguments())
      if (isRuntimeClass(Arg->getType()->getAsCXXRecordDecl(), "Tensor")) {
        add(BodyFact::FK_DataAccess, E, "operator<<");
        return;
      }
    return;
  }
  if (const auto *BO = dyn_cast<clang::BinaryOperator>(E)) {
    if (!BO->isAssignmentOp())
      return;
    if (const clang::ParmVarDecl *P = getParam(BO->getLHS()))
      add(BodyFact::FK_AssignToParam, E, P->getName());
    return;
  }
  // An assignment Clang rejected; see Note [Body facts].
  if (const auto *Recovery = dyn_cast<clang::RecoveryExpr>(E)) {
    ArrayRef<const clang::Expr *> Subs = Recovery->subExpressions();
    if (Subs.size() != 2)
      return;
    const clang::ParmVarDecl *P = getParam(Subs[0]);
    if (!P)
      return;
    std::optional<clang::Token> Next = clang::Lexer::findNextToken(
        Subs[0]->getEndLoc(), SM, Ctx.getLangOpts());
    if (Next && isAssignmentToken(*Next))
      add(BodyFact::FK_AssignToParam, E, P->getName());
  }
}

void BodyFactCollector::recordMemberCall(const clang::CXXMemberCallExpr *Call) {
  const clang::CXXMethodDecl *MD = Call->getMethodDecl();
  if (!MD || !MD->getIdentifier())
    return;
  StringRef Name = MD->getName();
  const clang::CXXRecordDecl *Class = MD->getParent();
  const clang::Expr *Object = Call->getImplicitObjectArgument();
  bool OnThis =
      Object && isa<clang::CXXThisExpr>(Object->IgnoreParenImpCasts());

  if (OnThis &&
      (Name == "set_output_strided" || Name == "set_output_raw_strided" ||
       Name == "set_output_contiguous")) {
    BodyFact &F = add(BodyFact::FK_SetOutput, Call, Name);
    if (Call->getNumArgs() == 0)
      return;
    const clang::Expr *Index = Call->getArg(0);
    if (Index->isValueDependent())
      return;
    if (std::optional<APSInt> V = Index->getIntegerConstantExpr(Ctx))
      F.OutputIndex = V->getExtValue();
    return;
  }
  if (OnThis && Name.starts_with("build") &&
      isRuntimeClass(Class, "TensorIteratorBase")) {
    add(BodyFact::FK_SetOutput, Call, Name).AllOutputs = true;
    return;
  }
  bool ReadsData =
      (isRuntimeClass(Class, "Tensor") &&
       is_contained({"data_ptr", "const_data_ptr", "mutable_data_ptr", "item",
                     "accessor", "packed_accessor32", "packed_accessor64"},
                    Name)) ||
      (isRuntimeClass(Class, "TensorImpl") &&
       (Name == "data" || Name == "mutable_data")) ||
      (isRuntimeClass(Class, "StorageImpl") && Name == "data");
  if (ReadsData) {
    add(BodyFact::FK_DataAccess, Call, Name);
    return;
  }
  if (Name.starts_with("set_") && Class->getIdentifier() &&
      Class->getName() == "precompute_out")
    add(BodyFact::FK_PrecomputeSet, Call, Name.drop_front(4));
}

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

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
    if (!Class->getIdentifier() || !Class->getName().starts_with("structured_"))
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

  SourceLocation NameLoc = FD->getLocation();
  SourceLocation MacroLoc = NameLoc.isMacroID() && getKernelMacroAt(NameLoc, SM)
                                ? SM.getExpansionLoc(NameLoc)
                                : SourceLocation();
  K.FromMacro = MacroLoc.isValid();
  K.File = SM.getFilename(SM.getExpansionLoc(NameLoc)).str();
  K.InCUDASource = LO.CUDA;
  if (FD->isInvalidDecl())
    K.setInvalid(Session.MismatchedDefs.contains(NameLoc)
                     ? KernelDecl::IR_NoMatchingDecl
                     : KernelDecl::IR_ClangReported);

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

  if (K.InvalidReason != KernelDecl::IR_UnknownName)
    if (const clang::FunctionDecl *Decl = getHeaderDeclaration(*FD, SM)) {
      K.HasDeclaration = true;
      for (const clang::ParmVarDecl *P : Decl->parameters())
        K.DeclaredParamTypes.push_back(canonical(P->getType()));
    }

  if (clang::FunctionTypeLoc FTL = FD->getFunctionTypeLoc())
    K.ParamListRange = Session.Locs.toSMRange(
        clang::SourceRange(FTL.getLParenLoc(), FTL.getRParenLoc()), SM, LO);
  fillParams(*FD, K);
  K.ReturnTypeAsWritten =
      writtenType(FD->getReturnTypeSourceRange(), FD->getReturnType());
  K.CanonicalReturnType = canonical(FD->getReturnType());
  BodyFactCollector(*FD, Ctx, Session.Locs, K.Facts).collect(FD->getBody());
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
  SourceLocation File = SM.getExpansionLoc(Loc);
  if (SM.isInSystemHeader(File))
    return false;
  StringRef Name = SM.getFilename(File);
  auto IsUnder = [&](StringRef Dir) {
    if (Dir.empty() || !Name.starts_with(Dir) || Name.size() == Dir.size())
      return false;
    return sys::path::is_separator(Dir.back()) ||
           sys::path::is_separator(Name[Dir.size()]);
  };
  return !IsUnder(Session.Options.RuntimeIncludeDir) &&
         !IsUnder(Session.Options.GeneratedIncludeDir);
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

//===----------------------------------------------------------------------===//
// The front-end action
//===----------------------------------------------------------------------===//

namespace {

class KernelDeclConsumer : public clang::ASTConsumer {
public:
  KernelDeclConsumer(ParseSession &Session, std::vector<KernelDecl> &Found)
      : Session(Session), Found(Found) {}

  void HandleTranslationUnit(clang::ASTContext &Ctx) override {
    KernelDeclExtractor(Ctx, Session, Found).TraverseAST(Ctx);
  }

private:
  ParseSession &Session;
  std::vector<KernelDecl> &Found;
};

/// Parses one source and appends its kernels to the session's output, in
/// source order.
class KernelDeclAction : public clang::ASTFrontendAction {
public:
  explicit KernelDeclAction(ParseSession &Session) : Session(Session) {}

protected:
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI, StringRef) override {
    if (Session.Options.Dependencies) {
      // The preprocessor exists already: attach by hand what
      // CompilerInstance would have attached when creating it.
      Dependencies = std::make_shared<clang::DependencyCollector>();
      Dependencies->attachToPreprocessor(CI.getPreprocessor());
    }
    return std::make_unique<KernelDeclConsumer>(Session, Found);
  }

  void EndSourceFileAction() override;

private:
  ParseSession &Session;
  std::vector<KernelDecl> Found;
  std::shared_ptr<clang::DependencyCollector> Dependencies;
};

class KernelDeclActionFactory : public tooling::FrontendActionFactory {
public:
  explicit KernelDeclActionFactory(ParseSession &Session) : Session(Session) {}
  std::unique_ptr<clang::FrontendAction> create() override {
    return std::make_unique<KernelDeclAction>(Session);
  }

private:
  ParseSession &Session;
};

} // namespace

void KernelDeclAction::EndSourceFileAction() {
  if (Dependencies) {
    StringRef Generated = Session.Options.GeneratedIncludeDir;
    for (const std::string &File : Dependencies->getDependencies())
      if (Generated.empty() || !StringRef(File).starts_with(Generated))
        Session.Options.Dependencies->insert(File);
  }
  // Unknown structs whose definitions Clang dropped.
  for (UnknownKernel &U : Session.UnknownKernels) {
    KernelDecl K;
    K.Kind = U.Kind;
    K.Name = std::move(U.Name);
    K.File = getCurrentFile().str();
    K.InCUDASource = getCompilerInstance().getLangOpts().CUDA;
    K.FromMacro = true;
    K.Loc = U.Loc;
    K.ParamListRange = U.ParamListRange;
    K.setInvalid(KernelDecl::IR_UnknownName);
    Found.push_back(std::move(K));
  }
  Session.UnknownKernels.clear();
  // In source order: by buffer (the order files were first read), then
  // offset; the index breaks ties, so the order never depends on the sort.
  const SourceMgr &SM = Session.Diags.getSourceMgr();
  SmallVector<std::tuple<unsigned, const char *, size_t>, 16> Order;
  for (size_t I = 0, E = Found.size(); I != E; ++I) {
    SMLoc Loc = Found[I].Loc;
    Order.emplace_back(Loc.isValid() ? SM.FindBufferContainingLoc(Loc) : 0,
                       Loc.getPointer(), I);
  }
  llvm::sort(Order);
  for (const auto &Entry : Order) {
    KernelDecl &K = Found[std::get<2>(Entry)];
    // A header that several sources include defines its kernels once.
    bool Seen = K.Loc.isValid() && any_of(Session.Decls, [&](const KernelDecl &Other) {
      return Other.Kind == K.Kind && Other.Name == K.Name && Other.Loc == K.Loc;
    });
    if (!Seen)
      Session.Decls.push_back(std::move(K));
  }
  Found.clear();
}

//===----------------------------------------------------------------------===//
// Compile commands
//===----------------------------------------------------------------------===//

namespace {

/// The database's first command for a file, or, for a file it does not
/// know (or without a database), the flags given on the command line. One
/// command per file: a database may list a file twice, and parsing it
/// twice would report everything twice. ClangTool never sees a file
/// without a command, so it never prints "Skipping ...".
class KernelCompilationDatabase : public tooling::CompilationDatabase {
public:
  KernelCompilationDatabase(const tooling::CompilationDatabase *Primary,
                            ArrayRef<std::string> Flags)
      : Primary(Primary), Fallback(".", Flags) {}

  std::vector<tooling::CompileCommand>
  getCompileCommands(StringRef File) const override {
    std::vector<tooling::CompileCommand> Commands;
    if (Primary)
      Commands = Primary->getCompileCommands(File);
    if (Commands.empty())
      Commands = Fallback.getCompileCommands(File);
    Commands.resize(std::min<size_t>(Commands.size(), 1));
    return Commands;
  }

private:
  const tooling::CompilationDatabase *Primary;
  tooling::FixedCompilationDatabase Fallback;
};

} // namespace

/// Returns whether \p Args (a compile command) or \p File's extension ask
/// for CUDA.
static bool isCUDASource(const tooling::CommandLineArguments &Args,
                         StringRef File) {
  if (sys::path::extension(File) == ".cu")
    return true;
  for (size_t I = 0, E = Args.size(); I != E; ++I)
    if (Args[I] == "-xcuda" ||
        (Args[I] == "-x" && I + 1 != E && Args[I + 1] == "cuda"))
      return true;
  return false;
}

/// Returns whether \p Arg is a flag of nvcc's own that Clang does not
/// accept; CMake writes compile commands of .cu sources for nvcc.
static bool isNvccOnlyFlag(StringRef Arg) {
  return Arg == "-forward-unknown-to-host-compiler" ||
         Arg == "--extended-lambda" || Arg == "--expt-relaxed-constexpr" ||
         Arg.starts_with("--generate-code") || Arg.starts_with("-gencode") ||
         Arg.starts_with("-arch=") || Arg.starts_with("--gpu-architecture") ||
         Arg.starts_with("-rdc=") || Arg.starts_with("--relocatable-device");
}

/// \p Args without the flags only nvcc understands, and with `-x cu`
/// spelled `-x cuda`; other commands unchanged.
static tooling::CommandLineArguments
withoutNvccFlags(const tooling::CommandLineArguments &Args) {
  if (Args.empty() || sys::path::stem(Args.front()) != "nvcc")
    return Args;
  tooling::CommandLineArguments Result;
  for (size_t I = 0, E = Args.size(); I != E; ++I) {
    if (isNvccOnlyFlag(Args[I]))
      continue;
    if (Args[I] == "-x" && I + 1 != E && Args[I + 1] == "cu") {
      Result.push_back("-x");
      Result.push_back("cuda");
      ++I;
      continue;
    }
    Result.push_back(Args[I]);
  }
  return Result;
}

static bool hasLanguageStandard(const tooling::CommandLineArguments &Args) {
  return any_of(Args, [](StringRef A) {
    return A.starts_with("-std=") || A.starts_with("--std=") || A == "-std" ||
           A == "--std" || A.starts_with("/std:");
  });
}

/// Puts skc's flags between the compiler and the author's flags, so the
/// generated and runtime headers come first in the search path and the
/// author's flags can still override the rest.
static tooling::ArgumentsAdjuster
getKernelFlagsAdjuster(const KernelSourceOptions &Options) {
  return [Options](const tooling::CommandLineArguments &OriginalArgs,
                   StringRef File) {
    tooling::CommandLineArguments Args = withoutNvccFlags(OriginalArgs);
    tooling::CommandLineArguments Prefix;
    if (!Options.GeneratedIncludeDir.empty())
      Prefix.push_back("-I" + Options.GeneratedIncludeDir);
    if (!Options.RuntimeIncludeDir.empty())
      Prefix.push_back("-I" + Options.RuntimeIncludeDir);
    if (!Options.ResourceDir.empty())
      Prefix.push_back("-resource-dir=" + Options.ResourceDir);
    Prefix.push_back("-fsyntax-only");
    if (!hasLanguageStandard(Args))
      Prefix.push_back("-std=c++17");
    Prefix.push_back("-DSKC_ANALYSIS=1");
    // One Highway target is enough to check a kernel source: its
    // foreach_target.h passes repeat the same code (Note [Highway dynamic
    // dispatch] in sk/iter/Loops.h).
    Prefix.push_back("-DHWY_COMPILE_ONLY_STATIC=1");
    if (isCUDASource(Args, File)) {
      // Host code only; CUDA 13 keeps CUB and Thrust in include/cccl, which
      // nvcc adds on its own and Clang does not.
      Prefix.insert(Prefix.end(), {"-x", "cuda", "--cuda-host-only"});
      if (!Options.CUDAPath.empty()) {
        Prefix.push_back("--cuda-path=" + Options.CUDAPath);
        Prefix.push_back("-I" + Options.CUDAPath + "/include/cccl");
      }
    }
    tooling::CommandLineArguments Result;
    Result.reserve(Args.size() + Prefix.size());
    if (!Args.empty())
      Result.push_back(Args.front());
    Result.insert(Result.end(), Prefix.begin(), Prefix.end());
    if (!Args.empty())
      Result.insert(Result.end(), Args.begin() + 1, Args.end());
    return Result;
  };
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

Expected<std::shared_ptr<const tooling::CompilationDatabase>>
loadCompilationDatabase(StringRef BuildDir) {
  std::string Message;
  std::unique_ptr<tooling::CompilationDatabase> DB =
      tooling::JSONCompilationDatabase::loadFromDirectory(BuildDir, Message);
  if (!DB)
    return createStringError(inconvertibleErrorCode(), Message);
  return std::shared_ptr<const tooling::CompilationDatabase>(std::move(DB));
}

Error parseKernelSources(ArrayRef<std::string> Sources,
                         const tooling::CompilationDatabase *Database,
                         const KernelSourceOptions &Options,
                         DiagnosticsEngine &Diags,
                         std::vector<KernelDecl> &Decls) {
  // The generated headers, in memory over the real file system. Options
  // outlives the tools, so the buffers need not be copies. The physical
  // file system has its own working directory: ClangTool changes it to each
  // command's directory, and must not change the process's.
  auto Generated = makeIntrusiveRefCnt<vfs::InMemoryFileSystem>();
  for (const VirtualFile &F : Options.GeneratedHeaders) {
    SmallString<256> Path(F.Path);
    if (std::error_code EC = sys::fs::make_absolute(Path))
      return createFileError(F.Path, EC);
    Generated->addFile(Path, /*ModificationTime=*/0,
                       MemoryBuffer::getMemBuffer(F.Contents, Path));
  }
  auto FS = makeIntrusiveRefCnt<vfs::OverlayFileSystem>(
      IntrusiveRefCntPtr<vfs::FileSystem>(vfs::createPhysicalFileSystem()));
  FS->pushOverlay(Generated);

  // A source that cannot be read, or a command whose directory is gone
  // (ClangTool would abort), is the environment's problem, not a
  // diagnostic.
  KernelCompilationDatabase Commands(Database, Options.ExtraFlags);
  for (const std::string &Source : Sources) {
    ErrorOr<vfs::Status> Status = FS->status(Source);
    if (!Status)
      return createFileError(Source, Status.getError());
    if (Status->isDirectory())
      return createFileError(Source,
                             std::make_error_code(std::errc::is_a_directory));
    SmallString<256> Absolute(Source);
    if (std::error_code EC = FS->makeAbsolute(Absolute))
      return createFileError(Source, EC);
    for (const tooling::CompileCommand &C :
         Commands.getCompileCommands(Absolute))
      if (!FS->exists(C.Directory))
        return createFileError(
            C.Directory,
            std::make_error_code(std::errc::no_such_file_or_directory),
            "the directory of the compile command for '%s'", Source.c_str());
  }

  ParseSession Session(Diags, Decls, Options);
  ForwardingDiagConsumer Consumer(Session);
  KernelDeclActionFactory Factory(Session);
  // One ClangTool per source: ClangTool::run prints "[1/N] Processing file"
  // to stderr when it is given more than one.
  for (const std::string &Source : Sources) {
    tooling::ClangTool Tool(Commands, Source,
                            std::make_shared<clang::PCHContainerOperations>(),
                            FS);
    Tool.setPrintErrorMessage(false);
    Tool.appendArgumentsAdjuster(getKernelFlagsAdjuster(Options));
    Tool.setDiagnosticConsumer(&Consumer);
    // run() fails when the source has errors; they were reported.
    (void)Tool.run(&Factory);
  }
  return Error::success();
}

} // namespace skc
