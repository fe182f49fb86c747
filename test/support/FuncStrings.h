//===--- FuncStrings.h - The func: strings of a schema file -----*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef SKC_TEST_SUPPORT_FUNCSTRINGS_H
#define SKC_TEST_SUPPORT_FUNCSTRINGS_H

#include <fstream>
#include <string>
#include <vector>

namespace skc::testing {

/// The `func:` strings of a native_functions.yaml, empty if there is no such
/// file. In PyTorch's files each is one line starting with `- func: `, so a
/// line scan finds them and the runtime's tests need no YAML library.
inline std::vector<std::string> readFuncStrings(const std::string &Path) {
  std::ifstream In(Path);
  std::vector<std::string> Schemas;
  std::string Line;
  while (std::getline(In, Line)) {
    if (Line.rfind("- func: ", 0) != 0)
      continue;
    Line.erase(0, 8);
    while (!Line.empty() && (Line.back() == ' ' || Line.back() == '\r'))
      Line.pop_back();
    Schemas.push_back(Line);
  }
  return Schemas;
}

} // namespace skc::testing

#endif // SKC_TEST_SUPPORT_FUNCSTRINGS_H
