//===--- Print.cpp - PyTorch's repr of a tensor ---------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Tensor::toString and operator<< print what `repr(t)` prints in PyTorch
/// 1.13 (torch/_tensor_str.py) with the default print options: precision
/// 4, threshold 1000, edgeitems 3, linewidth 80.
///
/// Note [Tensor repr rules]
///  - One formatter for the whole tensor decides a common width. Integers
///    and bools print as Python does (`True`), right-aligned to it.
///  - Floats (float16 and bfloat16 as float) look only at the nonzero
///    finite values: if all are integers they print as `1.` unless the
///    largest is over 1e8 or 1000 times the smallest, which gives
///    scientific notation (`1.0000e+05`); otherwise `%.4f`, or scientific
///    notation also when the smallest is under 1e-4.
///  - Over 1000 elements, dimensions longer than 6 show their first and
///    last 3 entries around `...`, and only those decide the format.
///  - Rows wrap at 80 columns; nested dimensions indent by one more column
///    and are separated by dim - 1 newlines.
///  - CUDA tensors print the values of a copy on the host, then
///    `device='cuda:0'`.
///  - Suffixes: `device='meta'` off the CPU; `dtype=torch.float16` unless
///    float32, int64 or bool (empty and meta tensors show every dtype but
///    float32); `size=(0, 3)` for empty tensors that are not 1-d and for
///    meta tensors, whose data prints as `...`.
///
//===----------------------------------------------------------------------===//

#include "sk/core/Tensor.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace sk {

namespace {

constexpr int kPrecision = 4;
constexpr int64_t kThreshold = 1000;
constexpr int64_t kEdgeItems = 3;
constexpr int kLineWidth = 80;

/// printf into a std::string.
template <typename... Args> std::string format(const char *Fmt, Args... A) {
  int N = std::snprintf(nullptr, 0, Fmt, A...);
  std::string S(static_cast<size_t>(N), '\0');
  std::snprintf(S.data(), S.size() + 1, Fmt, A...);
  return S;
}

/// Formats the elements of one tensor (torch._tensor_str._Formatter) and
/// lays them out (_tensor_str_with_formatter).
class TensorPrinter {
public:
  explicit TensorPrinter(const Tensor &T)
      : T(T), Dtype(T.dtype()), ItemSize(static_cast<int64_t>(T.itemsize())),
        Floating(isFloatingType(T.dtype())), Summarize(T.numel() > kThreshold) {
    initFormat();
  }

  /// The contents for `tensor(` at column \p Indent.
  std::string contents(int Indent) const {
    return tensorStr(static_cast<const char *>(T.data_ptr()), 0, Indent);
  }

private:
  /// The indices of dimension \p D that are printed; -1 marks the `...`.
  std::vector<int64_t> shownIndices(int64_t D) const {
    int64_t Size = T.sizes()[D];
    std::vector<int64_t> Indices;
    if (Summarize && Size > 2 * kEdgeItems) {
      for (int64_t I = 0; I != kEdgeItems; ++I)
        Indices.push_back(I);
      Indices.push_back(-1);
      for (int64_t I = Size - kEdgeItems; I != Size; ++I)
        Indices.push_back(I);
      return Indices;
    }
    for (int64_t I = 0; I != Size; ++I)
      Indices.push_back(I);
    return Indices;
  }

  const char *element(const char *Base, int64_t D, int64_t Index) const {
    return Base + Index * T.strides()[D] * ItemSize;
  }

  /// Calls \p Fn on every printed element.
  template <typename Fn>
  void forEachShown(const char *Base, int64_t D, Fn &&F) const {
    if (D == T.dim()) {
      F(Base);
      return;
    }
    for (int64_t I : shownIndices(D))
      if (I >= 0)
        forEachShown(element(Base, D, I), D + 1, F);
  }

  /// The value of the floating-point element at \p P (float16 and
  /// bfloat16 through float, as PyTorch prints them).
  double value(const char *P) const {
    return visitScalarType(Dtype, [&](auto Tag) -> double {
      using E = decltype(Tag);
      if constexpr (std::is_same_v<E, double>)
        return *reinterpret_cast<const double *>(P);
      else if constexpr (std::is_integral_v<E>)
        return 0;
      else
        return static_cast<float>(*reinterpret_cast<const E *>(P));
    });
  }

  /// The element at \p P as Python's str() of its value (int or bool), or
  /// for floats before padding.
  std::string rawString(const char *P) const {
    if (Dtype == kBool)
      return *reinterpret_cast<const bool *>(P) ? "True" : "False";
    if (!Floating) {
      int64_t V = visitScalarType(Dtype, [&](auto Tag) -> int64_t {
        using E = decltype(Tag);
        if constexpr (std::is_integral_v<E>)
          return static_cast<int64_t>(*reinterpret_cast<const E *>(P));
        else
          return 0;
      });
      return std::to_string(V);
    }
    double V = value(P);
    if (std::isnan(V))
      return "nan";
    if (std::isinf(V))
      return V > 0 ? "inf" : "-inf";
    if (SciMode)
      return format("%.*e", kPrecision, V);
    if (IntMode)
      return format("%.0f", V) + ".";
    return format("%.*f", kPrecision, V);
  }

  void initFormat() {
    const char *Base = static_cast<const char *>(T.data_ptr());
    if (!Floating) {
      forEachShown(Base, 0, [&](const char *P) {
        MaxWidth = std::max(MaxWidth, rawString(P).size());
      });
      return;
    }
    std::vector<double> Values;
    forEachShown(Base, 0, [&](const char *P) {
      double V = value(P);
      if (std::isfinite(V) && V != 0)
        Values.push_back(V);
    });
    if (Values.empty())
      return;
    double Min = std::fabs(Values[0]), Max = Min;
    for (double V : Values) {
      Min = std::min(Min, std::fabs(V));
      Max = std::max(Max, std::fabs(V));
      IntMode &= V == std::ceil(V);
    }
    SciMode = Max / Min > 1000.0 || Max > 1.0e8 || (!IntMode && Min < 1.0e-4);
    for (double V : Values) {
      size_t Width;
      if (SciMode)
        Width = format("%.*e", kPrecision, V).size();
      else if (IntMode)
        Width = format("%.0f", V).size() + 1;
      else
        Width = format("%.*f", kPrecision, V).size();
      MaxWidth = std::max(MaxWidth, Width);
    }
  }

  /// _Formatter.format: the element padded to the common width.
  std::string formatElement(const char *P) const {
    std::string S = rawString(P);
    if (S.size() < MaxWidth)
      S.insert(0, MaxWidth - S.size(), ' ');
    return S;
  }

  /// _vector_str.
  std::string vectorStr(const char *Base, int64_t D, int Indent) const {
    std::vector<std::string> Data;
    for (int64_t I : shownIndices(D))
      Data.push_back(I < 0 ? " ..." : formatElement(element(Base, D, I)));
    size_t ElementLength = MaxWidth + 2;
    size_t PerLine = 1;
    if (Indent < kLineWidth)
      PerLine = std::max<size_t>(1, (kLineWidth - Indent) / ElementLength);
    std::string S = "[";
    for (size_t I = 0; I != Data.size(); ++I) {
      if (I != 0)
        S += I % PerLine == 0 ? ",\n" + std::string(Indent + 1, ' ') : ", ";
      S += Data[I];
    }
    return S + "]";
  }

  /// _tensor_str_with_formatter for the dimensions from \p D on.
  std::string tensorStr(const char *Base, int64_t D, int Indent) const {
    int64_t Rest = T.dim() - D;
    if (Rest == 0)
      return formatElement(Base);
    if (Rest == 1)
      return vectorStr(Base, D, Indent);
    std::string Separator =
        "," + std::string(Rest - 1, '\n') + std::string(Indent + 1, ' ');
    std::string S = "[";
    bool First = true;
    for (int64_t I : shownIndices(D)) {
      if (!First)
        S += Separator;
      First = false;
      S += I < 0 ? "..." : tensorStr(element(Base, D, I), D + 1, Indent + 1);
    }
    return S + "]";
  }

  const Tensor &T;
  ScalarType Dtype;
  int64_t ItemSize;
  bool Floating;
  bool Summarize;
  bool IntMode = true;
  bool SciMode = false;
  size_t MaxWidth = 1;
};

/// Python's str(tuple(sizes)): `(2, 3)`, `(5,)`, `()`.
std::string sizeTuple(IntArrayRef Sizes) {
  std::string S = "(";
  for (size_t I = 0; I != Sizes.size(); ++I)
    S += (I ? ", " : "") + std::to_string(Sizes[I]);
  return S + (Sizes.size() == 1 ? ",)" : ")");
}

std::string dtypeSuffix(ScalarType Dtype) {
  return "dtype=torch." + std::string(toString(Dtype));
}

/// _add_suffixes: appends `, suffix` for each, wrapping at 80 columns.
std::string addSuffixes(std::string S, const std::vector<std::string> &Suffixes,
                        int Indent) {
  // PyTorch's count: len(s) - s.rfind("\n") + 1, two more than the last
  // line's length.
  size_t Newline = S.rfind('\n');
  int64_t LastLineLength =
      static_cast<int64_t>(S.size()) -
      (Newline == std::string::npos ? -1 : static_cast<int64_t>(Newline)) + 1;
  for (const std::string &Suffix : Suffixes) {
    int64_t Length = static_cast<int64_t>(Suffix.size());
    if (LastLineLength + Length + 2 > kLineWidth) {
      S += ",\n" + std::string(Indent, ' ') + Suffix;
      LastLineLength = Indent + Length;
      continue;
    }
    S += ", " + Suffix;
    LastLineLength += Length + 2;
  }
  return S + ")";
}

} // namespace

/// The repr of the CPU tensor \p T, with \p Suffixes (its device's) ahead
/// of its own.
static std::string cpuRepr(const Tensor &T, std::vector<std::string> Suffixes) {
  const std::string Prefix = "tensor(";
  const int Indent = static_cast<int>(Prefix.size());
  if (T.numel() == 0) {
    if (T.dim() != 1)
      Suffixes.push_back("size=" + sizeTuple(T.sizes()));
    if (T.dtype() != kFloat)
      Suffixes.push_back(dtypeSuffix(T.dtype()));
    return addSuffixes(Prefix + "[]", Suffixes, Indent);
  }
  if (T.dtype() != kFloat && T.dtype() != kLong && T.dtype() != kBool)
    Suffixes.push_back(dtypeSuffix(T.dtype()));
  return addSuffixes(Prefix + TensorPrinter(T).contents(Indent), Suffixes,
                     Indent);
}

std::string Tensor::toString() const {
  if (!defined())
    return "tensor(undefined)";
  std::vector<std::string> Suffixes;
  if (!is_cpu())
    Suffixes.push_back("device='" + device().str() + "'");
  // CUDA tensors print the values of a copy on the host.
  if (is_cuda())
    return cpuRepr(to(kCPU), std::move(Suffixes));
  // Tensors whose data this process cannot read print like meta tensors.
  if (!is_cpu()) {
    Suffixes.push_back("size=" + sizeTuple(sizes()));
    if (dtype() != kFloat)
      Suffixes.push_back(dtypeSuffix(dtype()));
    const std::string Prefix = "tensor(";
    return addSuffixes(Prefix + "...", Suffixes,
                       static_cast<int>(Prefix.size()));
  }
  return cpuRepr(*this, std::move(Suffixes));
}

std::ostream &operator<<(std::ostream &OS, const Tensor &T) {
  return OS << T.toString();
}

} // namespace sk
