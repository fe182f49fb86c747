//===--- BaseType.cpp - The base types of the schema language -------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/schema/BaseType.h"

#include <iterator>

namespace sk::schema {

static constexpr std::string_view Spellings[] = {
#define SK_BASE_TYPE(Enumerator, Spelling, RuntimeKind) Spelling,
#include "sk/core/SchemaBaseTypes.def"
};

static constexpr ValueKind ValueKinds[] = {
#define SK_BASE_TYPE(Enumerator, Spelling, RuntimeKind) ValueKind::RuntimeKind,
#include "sk/core/SchemaBaseTypes.def"
};

std::string_view getSpelling(BaseType T) {
  return Spellings[static_cast<unsigned>(T)];
}

std::optional<BaseType> lookupBaseType(std::string_view Spelling) {
  for (unsigned I = 0; I != std::size(Spellings); ++I)
    if (Spellings[I] == Spelling)
      return static_cast<BaseType>(I);
  return std::nullopt;
}

ValueKind getValueKind(BaseType T) {
  return ValueKinds[static_cast<unsigned>(T)];
}

} // namespace sk::schema
