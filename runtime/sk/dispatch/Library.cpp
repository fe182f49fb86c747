//===--- Library.cpp - SK_LIBRARY and SK_LIBRARY_IMPL ---------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/dispatch/Library.h"

namespace sk {

Library::Library(Kind K, std::string Namespace, std::optional<DispatchKey> Key,
                 const char *File, unsigned Line)
    : LibKind(K), Namespace(std::move(Namespace)), Key(Key), File(File),
      Line(Line) {
  SK_CHECK(LibKind != Impl || this->Key,
           "SK_LIBRARY_IMPL needs a dispatch key (", debug(), ")");
}

std::string Library::debug() const {
  return detail::str("registered at ", File, ":", Line);
}

OperatorName Library::qualify(std::string_view Name) const {
  std::string_view Base = Name.substr(0, Name.find('.'));
  std::string_view Overload;
  if (Base.size() != Name.size())
    Overload = Name.substr(Base.size() + 1);
  OperatorName Result;
  Result.Name = Base.find("::") == std::string_view::npos
                    ? Namespace + "::" + std::string(Base)
                    : std::string(Base);
  Result.Overload = std::string(Overload);
  SK_CHECK(Result.Name.compare(0, Namespace.size() + 2, Namespace + "::") == 0,
           "Library for namespace '", Namespace,
           "' cannot register operator ", Result.str(), " (", debug(), ")");
  return Result;
}

Library &Library::def(std::string_view Schema) {
  SK_CHECK(LibKind != Impl, "def() is not allowed in SK_LIBRARY_IMPL; use "
                            "SK_LIBRARY or SK_LIBRARY_FRAGMENT (",
           debug(), ")");
  OperatorSchema S = OperatorSchema::parse(Schema);
  S.Name = qualify(S.Name.str());
  Handles.push_back(
      Dispatcher::singleton().registerDef(std::move(S), debug()));
  return *this;
}

Library &Library::impl(std::string_view Name, CppFunction F) {
  SK_CHECK(Key.has_value(),
           "impl() in SK_LIBRARY needs an explicit dispatch key, such as "
           "CompositeImplicitAutograd (",
           debug(), ")");
  return impl(Name, *Key, std::move(F));
}

Library &Library::impl(std::string_view Name, DispatchKey K, CppFunction F) {
  SK_CHECK(!this->Key || *this->Key == K, "impl() for key ", K,
           " in a library for key ", *this->Key, " (", debug(), ")");
  Handles.push_back(Dispatcher::singleton().registerImpl(
      qualify(Name), K, std::move(F).takeKernel(), debug()));
  return *this;
}

Library &Library::impl(ArrayRef<KernelRegistration> Kernels) {
  SK_CHECK(Key.has_value(),
           "impl() of a table needs SK_LIBRARY_IMPL's dispatch key (",
           debug(), ")");
  Handles.reserve(Handles.size() + Kernels.size());
  for (const KernelRegistration &R : Kernels)
    Handles.push_back(Dispatcher::singleton().registerImpl(
        qualify(R.Name), *Key, KernelFunction::makeFromEntryPoints(R.Kernel),
        debug()));
  return *this;
}

Library &Library::fallback(CppFunction F) {
  SK_CHECK(LibKind == Impl && Namespace == "_",
           "fallback() is only allowed in SK_LIBRARY_IMPL(_, Key, m) (",
           debug(), ")");
  Handles.push_back(Dispatcher::singleton().registerFallback(
      *Key, std::move(F).takeKernel(), debug()));
  return *this;
}

} // namespace sk
