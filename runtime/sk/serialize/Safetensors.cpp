//===--- Safetensors.cpp - Reading and writing safetensors files ----------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Note [What a safetensors header must hold]
/// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
/// The checks of the reference implementation (safetensors' Rust crate,
/// `SafeTensors::read_metadata` and `Metadata::validate`), each an error
/// naming the file and, where there is one, the tensor:
///  - the header's length is at most kMaxHeaderBytes and within the file;
///  - the header is JSON (UTF-8, as simdjson checks), an object whose
///    members are tensors and an optional "__metadata__" object of
///    strings; each tensor has a "dtype" string, a "shape" array of
///    non-negative integers and a two-integer "data_offsets";
///  - no name twice;
///  - the element count and byte count of a shape do not overflow, and a
///    tensor's byte range is exactly its count times its element size;
///  - sorted by offset, the tensors tile the data: the first starts at 0,
///    each starts where the one before ends (no overlap, no hole), and
///    the last ends at the end of the file.
/// Loading relies on them: a checked header never points outside the file.
///
//===----------------------------------------------------------------------===//

#include "sk/serialize/Safetensors.h"

#include "sk/core/EmptyTensor.h"
#include "sk/core/Storage.h"
#include "sk/core/TensorImpl.h"
#include "sk/iter/CopyBytes.h"
#include "sk/iter/Parallel.h"
#include "sk/util/Exception.h"

#include <simdjson.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "safetensors files are little-endian, as this host must be");

namespace sk {
namespace safetensors {

//===----------------------------------------------------------------------===//
// Dtypes
//===----------------------------------------------------------------------===//

// The format's dtypes (safetensors' `Dtype`) that the runtime has, and
// those it lacks, with what they are.
#define SK_SAFETENSORS_DTYPES(_)                                               \
  _(Bool, "BOOL")                                                              \
  _(Byte, "U8")                                                                \
  _(Char, "I8")                                                                \
  _(Short, "I16")                                                              \
  _(Int, "I32")                                                                \
  _(Long, "I64")                                                               \
  _(Half, "F16")                                                               \
  _(BFloat16, "BF16")                                                          \
  _(Float, "F32")                                                              \
  _(Double, "F64")

namespace {
struct MissingDtype {
  std::string_view Name;
  std::string_view What;
};
} // namespace

static constexpr MissingDtype kMissingDtypes[] = {
    {"U16", "16-bit unsigned integers"},
    {"U32", "32-bit unsigned integers"},
    {"U64", "64-bit unsigned integers"},
    {"F8_E4M3", "8-bit floats"},
    {"F8_E5M2", "8-bit floats"},
    {"F8_E8M0", "8-bit floats"},
    {"F6_E2M3", "6-bit floats"},
    {"F6_E3M2", "6-bit floats"},
    {"F4", "4-bit floats"},
    {"C64", "complex numbers"},
};

std::string_view dtypeName(ScalarType T) {
  switch (T) {
#define SK_CASE(Type, Name)                                                    \
  case ScalarType::Type:                                                       \
    return Name;
    SK_SAFETENSORS_DTYPES(SK_CASE)
#undef SK_CASE
  default:
    break;
  }
  SK_CHECK(false, "safetensors has no dtype for ", toString(T));
  __builtin_unreachable();
}

std::optional<ScalarType> dtypeFromName(std::string_view Name) {
#define SK_CASE(Type, String)                                                  \
  if (Name == String)                                                          \
    return ScalarType::Type;
  SK_SAFETENSORS_DTYPES(SK_CASE)
#undef SK_CASE
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Headers
//===----------------------------------------------------------------------===//

namespace {
/// Builds the errors of one file's header.
class HeaderErrors {
public:
  explicit HeaderErrors(std::string_view File) : File(File) {}

  template <typename... Args>
  [[noreturn]] void fail(const Args &...Message) const {
    SK_CHECK(false, "safetensors file '", File, "': ", Message...);
    __builtin_unreachable();
  }
  template <typename... Args>
  [[noreturn]] void failTensor(std::string_view Name,
                               const Args &...Message) const {
    fail("tensor '", Name, "': ", Message...);
  }

private:
  std::string_view File;
};
} // namespace

/// A member of \p Object that must be there.
static simdjson::dom::element requireMember(const HeaderErrors &Errors,
                                            std::string_view Tensor,
                                            simdjson::dom::object Object,
                                            std::string_view Key) {
  simdjson::dom::element E;
  if (Object[Key].get(E) != simdjson::SUCCESS)
    Errors.failTensor(Tensor, "has no \"", Key, "\"");
  return E;
}

/// An array of non-negative integers that fit int64_t.
static std::vector<int64_t> readCounts(const HeaderErrors &Errors,
                                       std::string_view Tensor,
                                       simdjson::dom::element E,
                                       std::string_view Key) {
  simdjson::dom::array Array;
  if (E.get_array().get(Array) != simdjson::SUCCESS)
    Errors.failTensor(Tensor, "\"", Key, "\" is not an array");
  std::vector<int64_t> Out;
  for (simdjson::dom::element V : Array) {
    uint64_t U;
    if (V.get_uint64().get(U) != simdjson::SUCCESS ||
        U > static_cast<uint64_t>(INT64_MAX))
      Errors.failTensor(Tensor, "\"", Key, "\" holds ", simdjson::to_string(V),
                        ", not a non-negative integer");
    Out.push_back(static_cast<int64_t>(U));
  }
  return Out;
}

const TensorInfo *Header::find(std::string_view Name) const {
  auto It = std::lower_bound(
      Tensors.begin(), Tensors.end(), Name,
      [](const TensorInfo &T, std::string_view N) { return T.Name < N; });
  return It != Tensors.end() && It->Name == Name ? &*It : nullptr;
}

Header parseHeader(std::string_view FileName, std::string_view Json,
                   uint64_t FileBytes, size_t PaddedCapacity) {
  HeaderErrors Errors(FileName);
  Header H;
  H.DataStart = 8 + Json.size();
  H.FileBytes = FileBytes;
  SK_CHECK(H.DataStart <= FileBytes, "safetensors file '", FileName,
           "': a header of ", Json.size(), " bytes does not fit in ", FileBytes,
           " bytes");

  // A parser keeps its buffers for the next document: one per thread.
  thread_local simdjson::dom::parser Parser;
  simdjson::dom::element Root;
  // simdjson reads up to SIMDJSON_PADDING bytes past the end; a caller's
  // string of that capacity is read in place, any other copied.
  simdjson::simdjson_result<simdjson::dom::element> Parsed =
      Json.size() + simdjson::SIMDJSON_PADDING <= PaddedCapacity
          ? Parser.parse(Json.data(), Json.size(), /*realloc_if_needed=*/false)
          : Parser.parse(Json.data(), Json.size());
  if (auto Err = Parsed.get(Root))
    Errors.fail("the header is not valid JSON: ", simdjson::error_message(Err));
  simdjson::dom::object Object;
  if (Root.get_object().get(Object) != simdjson::SUCCESS)
    Errors.fail("the header is not a JSON object");

  bool SawMetadata = false;
  for (simdjson::dom::key_value_pair Member : Object) {
    std::string_view Name = Member.key;
    if (Name == "__metadata__") {
      if (SawMetadata)
        Errors.fail("\"__metadata__\" appears twice");
      SawMetadata = true;
      simdjson::dom::object Meta;
      if (Member.value.get_object().get(Meta) != simdjson::SUCCESS)
        Errors.fail("\"__metadata__\" is not an object");
      for (simdjson::dom::key_value_pair Entry : Meta) {
        std::string_view Value;
        if (Entry.value.get_string().get(Value) != simdjson::SUCCESS)
          Errors.fail("\"__metadata__\" entry '", Entry.key,
                      "' is not a string");
        H.Metadata[std::string(Entry.key)] = std::string(Value);
      }
      continue;
    }
    simdjson::dom::object Fields;
    if (Member.value.get_object().get(Fields) != simdjson::SUCCESS)
      Errors.failTensor(Name, "is not an object");

    TensorInfo Info;
    Info.Name = std::string(Name);
    std::string_view DtypeName;
    if (requireMember(Errors, Name, Fields, "dtype")
            .get_string()
            .get(DtypeName) != simdjson::SUCCESS)
      Errors.failTensor(Name, "\"dtype\" is not a string");
    std::optional<ScalarType> Dtype = dtypeFromName(DtypeName);
    if (!Dtype) {
      for (const MissingDtype &M : kMissingDtypes)
        if (M.Name == DtypeName)
          Errors.failTensor(Name, "has dtype ", DtypeName, " (", M.What,
                            "), which skc's runtime does not have");
      Errors.failTensor(Name, "has dtype '", DtypeName,
                        "', which safetensors does not define");
    }
    Info.Dtype = *Dtype;
    Info.Shape = readCounts(
        Errors, Name, requireMember(Errors, Name, Fields, "shape"), "shape");
    std::vector<int64_t> Offsets = readCounts(
        Errors, Name, requireMember(Errors, Name, Fields, "data_offsets"),
        "data_offsets");
    if (Offsets.size() != 2)
      Errors.failTensor(Name, "\"data_offsets\" has ", Offsets.size(),
                        " entries, not 2");
    Info.Begin = static_cast<uint64_t>(Offsets[0]);
    Info.End = static_cast<uint64_t>(Offsets[1]);
    if (Info.End < Info.Begin)
      Errors.failTensor(Name, "ends at ", Info.End, " before it begins at ",
                        Info.Begin);

    uint64_t Numel = 1;
    for (int64_t Size : Info.Shape)
      if (__builtin_mul_overflow(Numel, static_cast<uint64_t>(Size), &Numel) ||
          Numel > static_cast<uint64_t>(INT64_MAX))
        Errors.failTensor(Name, "has too many elements for its shape");
    uint64_t Bytes;
    if (__builtin_mul_overflow(Numel, uint64_t(elementSize(Info.Dtype)),
                               &Bytes) ||
        Bytes > static_cast<uint64_t>(INT64_MAX))
      Errors.failTensor(Name, "has too many bytes for its shape");
    if (Info.End - Info.Begin != Bytes)
      Errors.failTensor(Name, "takes bytes [", Info.Begin, ", ", Info.End,
                        "), ", Info.End - Info.Begin, " of them, but ", Numel,
                        " elements of ", DtypeName, " are ", Bytes, " bytes");
    H.Tensors.push_back(std::move(Info));
  }

  // By offset, the tensors must tile the data region exactly.
  std::vector<const TensorInfo *> ByOffset;
  ByOffset.reserve(H.Tensors.size());
  for (const TensorInfo &T : H.Tensors)
    ByOffset.push_back(&T);
  std::sort(ByOffset.begin(), ByOffset.end(),
            [](const TensorInfo *A, const TensorInfo *B) {
              return std::tie(A->Begin, A->End) < std::tie(B->Begin, B->End);
            });
  uint64_t Next = 0;
  const TensorInfo *Previous = nullptr;
  for (const TensorInfo *T : ByOffset) {
    if (T->Begin < Next)
      Errors.failTensor(T->Name, "takes bytes [", T->Begin, ", ", T->End,
                        "), which overlap those of '", Previous->Name, "'");
    if (T->Begin > Next)
      Errors.failTensor(T->Name, "begins at ", T->Begin, ", leaving bytes [",
                        Next, ", ", T->Begin, ") of the data to no tensor");
    Next = T->End;
    Previous = T;
  }
  uint64_t DataBytes = FileBytes - H.DataStart;
  if (Next > DataBytes)
    Errors.failTensor(Previous->Name, "ends at byte ", Next,
                      " of the data, past its end at ", DataBytes);
  if (Next < DataBytes)
    Errors.fail("the tensors take ", Next, " bytes of data, but the file has ",
                DataBytes);

  std::sort(
      H.Tensors.begin(), H.Tensors.end(),
      [](const TensorInfo &A, const TensorInfo &B) { return A.Name < B.Name; });
  for (size_t I = 1; I < H.Tensors.size(); ++I)
    if (H.Tensors[I].Name == H.Tensors[I - 1].Name)
      Errors.failTensor(H.Tensors[I].Name, "appears twice");
  return H;
}

//===----------------------------------------------------------------------===//
// Files
//===----------------------------------------------------------------------===//

namespace {
/// An open file descriptor, closed on destruction.
class FileDescriptor {
public:
  explicit FileDescriptor(int Fd) : Fd(Fd) {}
  FileDescriptor(const FileDescriptor &) = delete;
  FileDescriptor &operator=(const FileDescriptor &) = delete;
  ~FileDescriptor() {
    if (Fd >= 0)
      ::close(Fd);
  }
  int get() const { return Fd; }
  int release() { return std::exchange(Fd, -1); }

private:
  int Fd;
};

/// What errno says, for an error message.
std::string systemError() { return std::strerror(errno); }
} // namespace

/// Reads exactly \p Size bytes at \p Offset of \p Fd.
static void readAt(const std::string &Path, int Fd, void *Out, size_t Size,
                   uint64_t Offset) {
  auto *P = static_cast<char *>(Out);
  while (Size) {
    ssize_t N = ::pread(Fd, P, Size, static_cast<off_t>(Offset));
    if (N < 0 && errno == EINTR)
      continue;
    SK_CHECK(N > 0, "safetensors file '", Path, "': cannot read ", Size,
             " bytes at ", Offset, ": ",
             N == 0 ? std::string("the file ended") : systemError());
    P += N;
    Size -= static_cast<size_t>(N);
    Offset += static_cast<uint64_t>(N);
  }
}

/// Writes all of \p Size bytes to \p Fd.
static void writeAll(const std::string &Path, int Fd, const void *Data,
                     size_t Size) {
  const auto *P = static_cast<const char *>(Data);
  while (Size) {
    ssize_t N = ::write(Fd, P, Size);
    if (N < 0 && errno == EINTR)
      continue;
    SK_CHECK(N > 0, "cannot write '", Path, "': ", systemError());
    P += N;
    Size -= static_cast<size_t>(N);
  }
}

/// A whole file mapped copy-on-write; tensors' storage points into it and
/// keeps it alive.
class MappedFile {
public:
  MappedFile(const std::string &Path, int Fd, size_t Size) : Size(Size) {
    void *P = ::mmap(nullptr, Size, PROT_READ | PROT_WRITE, MAP_PRIVATE, Fd, 0);
    SK_CHECK(P != MAP_FAILED, "safetensors file '", Path, "': cannot map ",
             Size, " bytes: ", systemError());
    Base = static_cast<char *>(P);
  }
  MappedFile(const MappedFile &) = delete;
  MappedFile &operator=(const MappedFile &) = delete;
  ~MappedFile() { ::munmap(Base, Size); }

  char *data() const { return Base; }

private:
  char *Base;
  size_t Size;
};

namespace {
/// Opens \p Path for reading, with its size.
std::pair<int, uint64_t> openForReading(const std::string &Path) {
  int Fd = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  SK_CHECK(Fd >= 0, "cannot open safetensors file '", Path,
           "': ", systemError());
  FileDescriptor Guard(Fd);
  struct stat St;
  SK_CHECK(::fstat(Fd, &St) == 0, "cannot stat safetensors file '", Path,
           "': ", systemError());
  SK_CHECK(S_ISREG(St.st_mode), "safetensors file '", Path,
           "' is not a regular file");
  return {Guard.release(), static_cast<uint64_t>(St.st_size)};
}

/// Reads and checks the header of the open file \p Fd of \p FileBytes.
Header readHeader(const std::string &Path, int Fd, uint64_t FileBytes) {
  SK_CHECK(FileBytes >= 8, "safetensors file '", Path, "' has ", FileBytes,
           " bytes, fewer than the 8 of a header's length");
  unsigned char LengthBytes[8];
  readAt(Path, Fd, LengthBytes, 8, 0);
  uint64_t Length = 0;
  for (int I = 7; I >= 0; --I)
    Length = (Length << 8) | LengthBytes[I];
  SK_CHECK(Length <= kMaxHeaderBytes, "safetensors file '", Path,
           "': its header length, ", Length, " bytes, is over the limit of ",
           kMaxHeaderBytes);
  SK_CHECK(Length <= FileBytes - 8, "safetensors file '", Path,
           "': its header length, ", Length,
           " bytes, runs past the end of the ", FileBytes, "-byte file");
  // Room for simdjson's padding, so that it parses the header in place.
  std::string Json(static_cast<size_t>(Length) + simdjson::SIMDJSON_PADDING,
                   '\0');
  readAt(Path, Fd, Json.data(), static_cast<size_t>(Length), 8);
  return parseHeader(Path, std::string_view(Json.data(), Length), FileBytes,
                     Json.size());
}
} // namespace

//===----------------------------------------------------------------------===//
// SafeOpen
//===----------------------------------------------------------------------===//

/// Frees the reference to a mapping that a tensor's storage holds.
static void releaseMapping(void *Ctx) {
  delete static_cast<std::shared_ptr<MappedFile> *>(Ctx);
}

SafeOpen::SafeOpen(std::string P) : Path(std::move(P)) {
  auto [Fd, FileBytes] = openForReading(Path);
  FileDescriptor Guard(Fd);
  Head = readHeader(Path, Fd, FileBytes);
}

SafeOpen::~SafeOpen() = default;
SafeOpen::SafeOpen(SafeOpen &&) noexcept = default;
SafeOpen &SafeOpen::operator=(SafeOpen &&) noexcept = default;

std::vector<std::string> SafeOpen::keys() const {
  std::vector<std::string> Keys;
  Keys.reserve(Head.Tensors.size());
  for (const TensorInfo &T : Head.Tensors)
    Keys.push_back(T.Name);
  return Keys;
}

Tensor SafeOpen::get_tensor(std::string_view Name, Device Dev, LoadMode Mode) {
  const TensorInfo *Info = Head.find(Name);
  SK_CHECK(Info, "safetensors file '", Path, "' has no tensor '", Name, "'");
  return load(*Info, Dev, Mode);
}

MappedFile &SafeOpen::mapping() {
  if (!Mapping) {
    auto [Fd, FileBytes] = openForReading(Path);
    FileDescriptor Guard(Fd);
    SK_CHECK(FileBytes == Head.FileBytes, "safetensors file '", Path,
             "' changed since it was opened: ", Head.FileBytes, " bytes then, ",
             FileBytes, " now");
    Mapping =
        std::make_shared<MappedFile>(Path, Fd, static_cast<size_t>(FileBytes));
  }
  return *Mapping;
}

Tensor SafeOpen::load(const TensorInfo &Info, Device Dev, LoadMode Mode) {
  if (Dev.is_meta())
    return detail::empty_meta(Info.Shape, Info.Dtype);
  if (!Dev.is_cpu())
    return load(Info, kCPU, LoadMode::Map).to(Dev, /*Copy=*/true);

  uint64_t Offset = Head.DataStart + Info.Begin;
  size_t Bytes = static_cast<size_t>(Info.End - Info.Begin);
  if (Bytes == 0)
    return detail::empty_cpu(Info.Shape, Info.Dtype);
  char *Data = mapping().data() + Offset;
  // The mapping starts at a page, so an element is aligned where its offset
  // in the file is; one that is not (a writer that did not pad its header)
  // is copied instead.
  if (Mode == LoadMode::Copy || Offset % elementSize(Info.Dtype) != 0) {
    Tensor T = detail::empty_cpu(Info.Shape, Info.Dtype);
    char *To = static_cast<char *>(T.data_ptr());
    // Bound by page faults, of the file's pages and the copy's: in
    // parallel, 1 MiB at a time.
    parallel_for(0, static_cast<int64_t>(Bytes), int64_t(1) << 20,
                 [&](int64_t Begin, int64_t End) {
                   copyBytes(To + Begin, Data + Begin,
                             static_cast<size_t>(End - Begin));
                 });
    return T;
  }
  auto *Ref = new std::shared_ptr<MappedFile>(Mapping);
  Storage S = Storage::make(DataPtr(Data, Ref, &releaseMapping, kCPU), Bytes);
  int64_t Numel = static_cast<int64_t>(Bytes / elementSize(Info.Dtype));
  return Tensor(IntrusivePtr<TensorImpl>::make(TensorImpl::ContiguousTag(),
                                               std::move(S), Info.Dtype, kCPU,
                                               Info.Shape, Numel));
}

std::map<std::string, Tensor> load_file(const std::string &Path, Device Dev,
                                        LoadMode Mode) {
  SafeOpen File(Path);
  std::map<std::string, Tensor> Out;
  for (const TensorInfo &T : File.header().Tensors)
    Out.emplace_hint(Out.end(), T.Name, File.get_tensor(T.Name, Dev, Mode));
  return Out;
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

/// Appends \p S to \p Out as a JSON string.
static void appendJsonString(std::string &Out, std::string_view S) {
  Out += '"';
  for (char C : S) {
    switch (C) {
    case '"':
      Out += "\\\"";
      break;
    case '\\':
      Out += "\\\\";
      break;
    case '\n':
      Out += "\\n";
      break;
    case '\r':
      Out += "\\r";
      break;
    case '\t':
      Out += "\\t";
      break;
    default:
      if (static_cast<unsigned char>(C) < 0x20) {
        char Buf[8];
        std::snprintf(Buf, sizeof Buf, "\\u%04x", C);
        Out += Buf;
      } else {
        Out += C;
      }
    }
  }
  Out += '"';
}

/// Whether \p S is valid UTF-8 (what a JSON reader requires).
static bool isValidUtf8(std::string_view S) {
  return simdjson::validate_utf8(S.data(), S.size());
}

namespace {
/// A file written beside its destination and renamed over it once whole,
/// or removed.
class AtomicFile {
public:
  explicit AtomicFile(std::string Path)
      : Path(std::move(Path)), Temp(this->Path + ".tmp.XXXXXX"),
        Fd(::mkstemp(Temp.data())) {
    SK_CHECK(Fd.get() >= 0, "cannot create a file beside '", this->Path,
             "': ", systemError());
  }
  AtomicFile(const AtomicFile &) = delete;
  AtomicFile &operator=(const AtomicFile &) = delete;
  ~AtomicFile() {
    if (!Committed)
      ::unlink(Temp.c_str());
  }
  int fd() const { return Fd.get(); }
  const std::string &path() const { return Path; }

  void commit() {
    // mkstemp makes the file 0600; give it what a new file gets.
    mode_t Mask = ::umask(0);
    ::umask(Mask);
    ::fchmod(Fd.get(), 0666 & ~Mask);
    SK_CHECK(::close(Fd.release()) == 0, "cannot write '", Path,
             "': ", systemError());
    SK_CHECK(::rename(Temp.c_str(), Path.c_str()) == 0, "cannot rename '", Temp,
             "' to '", Path, "': ", systemError());
    Committed = true;
  }

private:
  std::string Path, Temp;
  FileDescriptor Fd;
  bool Committed = false;
};

/// A tensor's place in a file being written.
struct Planned {
  const std::string *Name;
  const Tensor *T;
  uint64_t Begin, End;
};
} // namespace

/// The header for \p Tensors and where each one's bytes go: larger
/// elements first, then by name, as the reference writer lays them out, so
/// that every tensor starts at a multiple of its element size. The header
/// is padded with spaces to a multiple of 8 bytes.
static std::string planFile(const std::string &Path,
                            const std::map<std::string, Tensor> &Tensors,
                            const std::map<std::string, std::string> &Metadata,
                            std::vector<Planned> &Plan) {
  for (const auto &[Name, T] : Tensors) {
    SK_CHECK(T.defined(), "cannot write '", Path, "': tensor '", Name,
             "' is undefined");
    SK_CHECK(Name != "__metadata__", "cannot write '", Path,
             "': '__metadata__' is the format's own key, not a tensor name");
    SK_CHECK(isValidUtf8(Name), "cannot write '", Path,
             "': a tensor name is not valid UTF-8");
    (void)dtypeName(T.dtype());
    Plan.push_back({&Name, &T, 0, 0});
  }
  for (const auto &[Key, Value] : Metadata)
    SK_CHECK(isValidUtf8(Key) && isValidUtf8(Value), "cannot write '", Path,
             "': metadata entry '", Key, "' is not valid UTF-8");
  std::stable_sort(Plan.begin(), Plan.end(),
                   [](const Planned &A, const Planned &B) {
                     return A.T->itemsize() > B.T->itemsize();
                   });
  uint64_t Offset = 0;
  for (Planned &P : Plan) {
    P.Begin = Offset;
    Offset += P.T->nbytes();
    P.End = Offset;
  }

  std::string Json = "{";
  if (!Metadata.empty()) {
    Json += "\"__metadata__\":{";
    bool First = true;
    for (const auto &[Key, Value] : Metadata) {
      if (!First)
        Json += ',';
      First = false;
      appendJsonString(Json, Key);
      Json += ':';
      appendJsonString(Json, Value);
    }
    Json += '}';
  }
  for (const Planned &P : Plan) {
    if (Json.size() > 1)
      Json += ',';
    appendJsonString(Json, *P.Name);
    Json += ":{\"dtype\":\"";
    Json += dtypeName(P.T->dtype());
    Json += "\",\"shape\":[";
    for (int64_t D = 0; D < P.T->dim(); ++D) {
      if (D)
        Json += ',';
      Json += std::to_string(P.T->size(D));
    }
    Json += "],\"data_offsets\":[" + std::to_string(P.Begin) + ',' +
            std::to_string(P.End) + "]}";
  }
  Json += '}';
  Json.append((8 - Json.size() % 8) % 8, ' ');
  return Json;
}

/// The 8-byte little-endian length of \p Json, then \p Json.
static std::string headerBytes(const std::string &Json) {
  std::string Out(8, '\0');
  uint64_t Length = Json.size();
  for (int I = 0; I < 8; ++I)
    Out[I] = static_cast<char>((Length >> (8 * I)) & 0xff);
  return Out + Json;
}

void save_file(const std::map<std::string, Tensor> &Tensors,
               const std::string &Path,
               const std::map<std::string, std::string> &Metadata) {
  for (const auto &[Name, T] : Tensors)
    SK_CHECK(!T.defined() || !T.is_meta(), "cannot write '", Path,
             "': tensor '", Name,
             "' is a meta tensor, which has no data to write; "
             "save_skeleton_file writes a file of its header alone");
  std::vector<Planned> Plan;
  std::string Json = planFile(Path, Tensors, Metadata, Plan);
  AtomicFile File(Path);
  writeAll(Path, File.fd(), headerBytes(Json).data(), 8 + Json.size());
  for (const Planned &P : Plan) {
    if (!P.T->numel())
      continue;
    Tensor Host =
        P.T->is_cpu() ? P.T->contiguous() : P.T->to(kCPU).contiguous();
    writeAll(Path, File.fd(), Host.data_ptr(), Host.nbytes());
  }
  File.commit();
}

void save_skeleton_file(const std::map<std::string, Tensor> &Tensors,
                        const std::string &Path,
                        const std::map<std::string, std::string> &Metadata) {
  std::vector<Planned> Plan;
  std::string Json = planFile(Path, Tensors, Metadata, Plan);
  AtomicFile File(Path);
  writeAll(Path, File.fd(), headerBytes(Json).data(), 8 + Json.size());
  uint64_t DataBytes = Plan.empty() ? 0 : Plan.back().End;
  SK_CHECK(::ftruncate(File.fd(),
                       static_cast<off_t>(8 + Json.size() + DataBytes)) == 0,
           "cannot write '", Path, "': ", systemError());
  File.commit();
}

//===----------------------------------------------------------------------===//
// Sharded checkpoints
//===----------------------------------------------------------------------===//

/// The directory part of \p Path, with its slash; empty for a bare name.
static std::string directoryOf(const std::string &Path) {
  size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? std::string() : Path.substr(0, Slash + 1);
}

ShardedCheckpoint::ShardedCheckpoint(const std::string &Index)
    : IndexPath(Index) {
  simdjson::dom::parser Parser;
  simdjson::padded_string Json;
  if (auto Err = simdjson::padded_string::load(IndexPath).get(Json))
    SK_CHECK(false, "cannot read safetensors index '", IndexPath,
             "': ", simdjson::error_message(Err));
  simdjson::dom::object Root;
  if (auto Err = Parser.parse(Json).get_object().get(Root))
    SK_CHECK(false, "safetensors index '", IndexPath,
             "' is not a JSON object: ", simdjson::error_message(Err));

  simdjson::dom::object Meta;
  if (Root["metadata"].get_object().get(Meta) == simdjson::SUCCESS)
    for (simdjson::dom::key_value_pair Entry : Meta) {
      std::string_view S;
      Metadata[std::string(Entry.key)] =
          Entry.value.get_string().get(S) == simdjson::SUCCESS
              ? std::string(S)
              : simdjson::minify(Entry.value);
    }
  simdjson::dom::object Map;
  if (Root["weight_map"].get_object().get(Map) != simdjson::SUCCESS)
    SK_CHECK(false, "safetensors index '", IndexPath,
             "' has no \"weight_map\" object");
  for (simdjson::dom::key_value_pair Entry : Map) {
    std::string_view Shard;
    SK_CHECK(Entry.value.get_string().get(Shard) == simdjson::SUCCESS,
             "safetensors index '", IndexPath, "': the shard of '", Entry.key,
             "' is not a string");
    SK_CHECK(
        WeightMap.emplace(std::string(Entry.key), std::string(Shard)).second,
        "safetensors index '", IndexPath, "': '", Entry.key,
        "' appears twice in \"weight_map\"");
  }

  std::string Directory = directoryOf(IndexPath);
  for (const auto &[Name, Shard] : WeightMap) {
    auto It = Shards.find(Shard);
    if (It == Shards.end())
      It = Shards.emplace(Shard, SafeOpen(Directory + Shard)).first;
    SK_CHECK(It->second.header().find(Name), "safetensors index '", IndexPath,
             "' puts tensor '", Name, "' in '", Shard,
             "', which does not have it");
    ShardOf.emplace(Name, &It->second);
  }
}

std::vector<std::string> ShardedCheckpoint::keys() const {
  std::vector<std::string> Keys;
  Keys.reserve(WeightMap.size());
  for (const auto &Entry : WeightMap)
    Keys.push_back(Entry.first);
  return Keys;
}

Tensor ShardedCheckpoint::get_tensor(std::string_view Name, Device Dev,
                                     LoadMode Mode) {
  auto It = ShardOf.find(Name);
  SK_CHECK(It != ShardOf.end(), "safetensors index '", IndexPath,
           "' has no tensor '", Name, "'");
  return It->second->get_tensor(Name, Dev, Mode);
}

std::map<std::string, Tensor> ShardedCheckpoint::load(Device Dev,
                                                      LoadMode Mode) {
  std::map<std::string, Tensor> Out;
  for (const auto &[Name, Shard] : ShardOf)
    Out.emplace_hint(Out.end(), Name, Shard->get_tensor(Name, Dev, Mode));
  return Out;
}

void save_index_file(const std::map<std::string, std::string> &WeightMap,
                     const std::string &Path, uint64_t TotalSize) {
  std::string Json =
      "{\n  \"metadata\": {\n    \"total_size\": " + std::to_string(TotalSize) +
      "\n  },\n  \"weight_map\": {";
  bool First = true;
  for (const auto &[Name, Shard] : WeightMap) {
    SK_CHECK(isValidUtf8(Name) && isValidUtf8(Shard), "cannot write '", Path,
             "': the entry of a tensor is not valid UTF-8");
    Json += First ? "\n    " : ",\n    ";
    First = false;
    appendJsonString(Json, Name);
    Json += ": ";
    appendJsonString(Json, Shard);
  }
  Json += "\n  }\n}\n";
  AtomicFile File(Path);
  writeAll(Path, File.fd(), Json.data(), Json.size());
  File.commit();
}

} // namespace safetensors
} // namespace sk
