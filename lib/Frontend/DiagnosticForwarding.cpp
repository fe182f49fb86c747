//===--- DiagnosticForwarding.cpp - Clang's diagnostics to skc's ----------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "DiagnosticForwarding.h"

#include "AnalysisMarks.h"
#include "KernelMacros.h"
#include "ParseSession.h"

#include "skc/Parse/KernelDecl.h"

#include "clang/AST/DeclBase.h"
#include "clang/AST/DeclarationName.h"
#include "clang/Basic/DiagnosticDriver.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/DiagnosticParse.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"

using namespace llvm;
using clang::CharSourceRange;
using clang::LangOptions;
using clang::SourceLocation;
using clang::SourceManager;

namespace skc {

// Note [Diagnostics left to Sema]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Every diagnostic Clang reports in a kernel source reaches skc's
// DiagnosticsEngine as err_clang / warn_clang / note_clang with Clang's
// message (warnings and warnings-as-errors with their " [-Wflag]"), at the
// same file location (macro locations mapped as in Clang's caret line),
// with Clang's ranges and fix-its; but never in a generated header, which
// the author cannot edit: an error there moves to the first of its notes
// at the author's code (the line whose instantiation led there), and notes
// there are left out. One in a header that several sources include is
// reported for the first of them. Diagnostics are held until the end of the
// translation unit, when its kernels are known. Some are not forwarded,
// because skc says the same in schema terms:
//
//  (a) err_member_decl_does_not_match(_suggest) ("out-of-line definition of
//      'meta' does not match any declaration in ..."),
//      err_member_def_does_not_match_ret_type ("return type of out-of-line
//      definition differs", the wrong meta macro) and
//      err_ovl_diff_return_type ("functions that differ only in their
//      return type cannot be overloaded", an SK_NATIVE_FUNC whose return
//      type differs from the generated declaration's), with their notes,
//      when the definition is an authoring macro's (SK_KERNEL_DEFINITION,
//      Note [Analysis marks]). Clang keeps the definition in the AST, marked
//      invalid, with its parameters and body; it becomes a KernelDecl with
//      InvalidReason IR_NoMatchingDecl, and Sema reports the mismatch
//      against the schema with the expected signature.
//  (b) err_no_member(_suggest) ("no member named 'structured_X' in
//      namespace 'sk::meta'") with its notes, when a macro wrote it: a meta
//      or impl of an operator or kernel that has no generated struct. It
//      becomes a KernelDecl with InvalidReason IR_UnknownName and the name;
//      Sema says "did you mean". Without a close match Clang drops the
//      definition (no parameters, no facts), and rejects the macro's
//      SK_KERNEL_DEFINITION after the unknown name
//      (err_attributes_not_allowed, dropped too); with one Clang recovers
//      with the corrected struct, and the definition keeps its parameters
//      (and the name written, not the corrected one).
//  (c) warn_drv_new_cuda_version ("CUDA version is newer than the latest
//      supported version"): Clang 22 parses CUDA 13 host code correctly and
//      only warns that it does not know the version; harmless noise.
//  (d) the errors a body fact explains (ParseSession::Explanation), each at
//      the file location the front end recorded with the fact: every error
//      at a meta macro that does not fit the operator (KernelMacro); the
//      failed conversion of a returned precompute struct with fields unset
//      (PrecomputeUnset, FK_PrecomputeReturnUnset); the generated setter's
//      static_assert for a field set twice, whose instantiation note is at
//      the call (PrecomputeTwice, FK_PrecomputeSetAgain); "no viable
//      overloaded '='" for an out argument (AssignToOut, FK_AssignToParam
//      on a parameter the generated declaration marks SK_OUT_ARGUMENT).
//
// Anything else, errors above all, is forwarded: an error Clang reports is
// never swallowed. Sema must report every KernelDecl whose InvalidReason is
// IR_NoMatchingDecl or IR_UnknownName, and every fact of (d), or the error
// would be lost.

void ForwardingDiagConsumer::BeginSourceFile(const LangOptions &LO,
                                             const clang::Preprocessor *) {
  LangOpts = &LO;
  DroppingNotes = false;
  Held.clear();
  Session.beginTranslationUnit();
}

void ForwardingDiagConsumer::HandleDiagnostic(
    clang::DiagnosticsEngine::Level Level, const clang::Diagnostic &Info) {
  // Not clang::DiagnosticConsumer::HandleDiagnostic: its counts stay zero,
  // so that CompilerInstance prints no "N errors generated." to stderr;
  // skc's DiagnosticsEngine counts.
  if (Level == clang::DiagnosticsEngine::Ignored)
    return;
  if (Level == clang::DiagnosticsEngine::Note) {
    if (!DroppingNotes && !Held.empty())
      Held.back().Diagnostics.push_back(convert(Level, Info));
    return;
  }
  DroppingNotes = leaveToSema(Info);
  if (DroppingNotes)
    return;
  HeldGroup G;
  G.Diagnostics.push_back(convert(Level, Info));
  // (a): a mismatched definition that an authoring macro wrote.
  unsigned ID = Info.getID();
  if ((ID == clang::diag::err_member_decl_does_not_match ||
       ID == clang::diag::err_member_decl_does_not_match_suggest ||
       ID == clang::diag::err_member_def_does_not_match_ret_type ||
       ID == clang::diag::err_ovl_diff_return_type) &&
      Info.getLocation().isMacroID()) {
    G.Definition = G.Diagnostics.front().FileLoc;
    Session.MismatchedDefs.insert(G.Definition);
  }
  Held.push_back(std::move(G));
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

/// The kind of kernel whose generated struct would be in \p DC: sk::meta
/// holds meta structs, sk::native impl structs; else none.
static std::optional<KernelDeclKind>
getKernelNamespaceKind(const clang::DeclContext *DC) {
  if (isNamespace(DC, {"sk", "meta"}))
    return KernelDeclKind::Meta;
  if (isNamespace(DC, {"sk", "native"}))
    return KernelDeclKind::Impl;
  return std::nullopt;
}

bool ForwardingDiagConsumer::leaveToSema(const clang::Diagnostic &Info) {
  unsigned ID = Info.getID();
  if (ID == clang::diag::warn_drv_new_cuda_version) // (c)
    return true;
  bool IsNoMember = ID == clang::diag::err_no_member ||
                    ID == clang::diag::err_no_member_suggest;
  bool IsMisplacedMark = ID == clang::diag::err_attributes_not_allowed;
  if ((!IsNoMember && !IsMisplacedMark) || !Info.hasSourceManager() ||
      !LangOpts)
    return false;
  const SourceManager &SM = Info.getSourceManager();
  SourceLocation Loc = Info.getLocation();
  // Only what a macro wrote; spelled out by hand, a definition gets
  // Clang's own error.
  if (!Loc.isMacroID())
    return false;
  SourceLocation MacroLoc = SM.getExpansionLoc(Loc);
  bool KnownUnknown =
      any_of(Session.UnknownKernels,
             [&](const UnknownKernel &U) { return U.MacroLoc == MacroLoc; });
  if (IsMisplacedMark) // (b): SK_KERNEL_DEFINITION after the unknown struct.
    return KnownUnknown;
  // (b): only a struct name in sk::meta / sk::native.
  if (Info.getArgKind(1) != clang::DiagnosticsEngine::ak_declcontext)
    return false;
  std::string Name = getNameArg(Info, 0);
  std::optional<KernelDeclKind> Kind = getKernelNamespaceKind(
      reinterpret_cast<const clang::DeclContext *>(Info.getRawArg(1)));
  if (!Kind || !StringRef(Name).starts_with(StructuredClassPrefix))
    return false;
  if (KnownUnknown)
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

bool ForwardingDiagConsumer::isExplained(const HeldGroup &G) const {
  if (G.Definition.isValid())
    return Session.ExplainedDefs.contains(G.Definition);
  const HeldDiagnostic &Primary = G.Diagnostics.front();
  auto Explained = [&](Explanation E, SourceLocation Loc) {
    return Loc.isValid() && Session.Explained.count({E, Loc}) != 0;
  };
  if (Explained(Explanation::KernelMacro, Primary.FileLoc) &&
      Primary.Kind == diag::err_clang)
    return true;
  switch (Primary.ClangID) {
  case clang::diag::err_typecheck_nonviable_condition:
    return Explained(Explanation::PrecomputeUnset, Primary.FileLoc);
  case clang::diag::err_ovl_no_viable_oper:
    return Explained(Explanation::AssignToOut, Primary.FileLoc);
  case clang::diag::err_static_assert_failed:
  case clang::diag::err_static_assert_requirement_failed:
    // In the generated setter; the instantiation note is at the call.
    return any_of(G.Diagnostics, [&](const HeldDiagnostic &H) {
      return Explained(Explanation::PrecomputeTwice, H.FileLoc);
    });
  default:
    return false;
  }
}

HeldDiagnostic
ForwardingDiagConsumer::convert(clang::DiagnosticsEngine::Level Level,
                                const clang::Diagnostic &Info) {
  HeldDiagnostic H;
  SmallString<256> Message;
  Info.FormatDiagnostic(Message);
  diag::Kind Kind = diag::err_clang;
  switch (Level) {
  case clang::DiagnosticsEngine::Ignored:
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

  H.Kind = Kind;
  H.Message = Message.str().str();
  H.ClangID = Info.getID();
  if (!Info.hasSourceManager() || !LangOpts)
    return H;
  const SourceManager &SM = Info.getSourceManager();
  LocationMapper &Locs = Session.Locs;
  H.Loc = Locs.toSMLoc(Info.getLocation(), SM);
  if (Info.getLocation().isValid()) {
    H.FileLoc = SM.getFileLoc(Info.getLocation());
    H.InGeneratedHeader = Session.isGeneratedHeader(H.FileLoc, SM);
    H.InHeader = SM.getFileID(H.FileLoc) != SM.getMainFileID();
  }
  for (const CharSourceRange &R : Info.getRanges())
    H.Ranges.push_back(Locs.toSMRange(R, SM, *LangOpts));
  for (const clang::FixItHint &F : Info.getFixItHints())
    H.FixIts.push_back(FixItHint::replace(
        Locs.toSMRange(F.RemoveRange, SM, *LangOpts), F.CodeToInsert));
  return H;
}

void ForwardingDiagConsumer::emit(const HeldDiagnostic &H) {
  DiagnosticBuilder B = Session.Diags.report(H.Loc, H.Kind);
  B << H.Message;
  for (SMRange R : H.Ranges)
    B << R;
  for (const FixItHint &F : H.FixIts)
    B << F;
}

void ForwardingDiagConsumer::emit(HeldGroup &G) {
  // Never into a generated header: the author cannot edit it. An error
  // there (a static_assert of the runtime's, expanded in the generated
  // code) moves to the author's line that its notes lead to; notes there
  // (a candidate, a previous declaration) are left out.
  HeldDiagnostic &Primary = G.Diagnostics.front();
  if (Primary.InGeneratedHeader) {
    auto Author = find_if(G.Diagnostics, [](const HeldDiagnostic &H) {
      return !H.InGeneratedHeader && H.Loc.isValid();
    });
    if (Author != G.Diagnostics.end()) {
      Primary.Loc = Author->Loc;
      Primary.Ranges = Author->Ranges;
      Primary.InGeneratedHeader = false;
    }
  }
  // A header that several sources include has its diagnostics once.
  if (Primary.InHeader &&
      !Session.ReportedInHeaders.insert({Primary.Loc.getPointer(),
                                         Primary.Message})
           .second)
    return;
  emit(Primary);
  for (const HeldDiagnostic &Note : drop_begin(G.Diagnostics))
    if (!Note.InGeneratedHeader)
      emit(Note);
}

void ForwardingDiagConsumer::EndSourceFile() {
  // The kernels are known (extractKernelDecls ran at the end of the parse):
  // what Sema explains is not Clang's to report.
  for (HeldGroup &G : Held)
    if (!isExplained(G))
      emit(G);
  Held.clear();
  LangOpts = nullptr;
}

} // namespace skc
