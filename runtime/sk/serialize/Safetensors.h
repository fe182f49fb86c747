//===--- Safetensors.h - Reading and writing safetensors files --*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Checkpoints in Hugging Face's safetensors format, as its Python package
/// (`safetensors.torch`) reads and writes them:
///
///   8 bytes     N, the header's length, little-endian
///   N bytes     a JSON object: {"name": {"dtype": "F32", "shape": [2, 3],
///               "data_offsets": [begin, end]}, ...} and an optional
///               "__metadata__" object of strings
///   the rest    the tensors' bytes, row-major, at the offsets given,
///               relative to the end of the header
///
/// Opening a file reads its header alone and checks all of it (Note
/// [What a safetensors header must hold] in Safetensors.cpp): tensors go
/// onto meta without reading a byte of data; onto the CPU, they share one
/// read-only mapping of the file, copy-on-write, or are copied out of it.
/// Every error is an sk::Error naming the file and, where there is one,
/// the tensor.
///
//===----------------------------------------------------------------------===//

#ifndef SK_SERIALIZE_SAFETENSORS_H
#define SK_SERIALIZE_SAFETENSORS_H

#include "sk/core/Device.h"
#include "sk/core/ScalarType.h"
#include "sk/core/Tensor.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sk {
namespace safetensors {

/// The header's longest length; the reference implementation's limit.
constexpr uint64_t kMaxHeaderBytes = 100'000'000;

/// The format's dtype string for \p T ("F32" for float32).
std::string_view dtypeName(ScalarType T);
/// The runtime's type for the format's dtype string \p Name; nullopt for
/// the format's dtypes the runtime lacks and for unknown strings.
std::optional<ScalarType> dtypeFromName(std::string_view Name);

/// One tensor of a header.
struct TensorInfo {
  std::string Name;
  ScalarType Dtype;
  std::vector<int64_t> Shape;
  /// Its bytes, relative to the start of the data.
  uint64_t Begin = 0, End = 0;
};

/// A parsed, checked header.
struct Header {
  /// Sorted by name.
  std::vector<TensorInfo> Tensors;
  std::map<std::string, std::string> Metadata;
  /// Where the data starts in the file: 8 + the header's length.
  uint64_t DataStart = 0;
  /// The file's length, which the tensors' bytes end at.
  uint64_t FileBytes = 0;

  /// The tensor called \p Name, or null.
  const TensorInfo *find(std::string_view Name) const;
};

/// Parses and checks the header \p Json of a file of \p FileBytes bytes
/// whose header is \p Json.size() bytes long; \p FileName names it in
/// errors. When \p PaddedCapacity bytes from Json.data() are readable,
/// simdjson's SIMDJSON_PADDING (64) more than the header's, it is parsed
/// in place.
Header parseHeader(std::string_view FileName, std::string_view Json,
                   uint64_t FileBytes, size_t PaddedCapacity = 0);

/// How tensors come onto the CPU.
enum class LoadMode {
  /// Storage inside the file's mapping (zero copy). Writes go to private
  /// copies of the pages they touch, never to the file.
  Map,
  /// Storage of its own, copied from the file.
  Copy,
};

class MappedFile;

/// An open safetensors file (safetensors.safe_open): its header, and its
/// data mapped on first use. One SafeOpen is for one thread at a time; the
/// tensors it gives are independent of it and of each other.
class SafeOpen {
public:
  /// Reads and checks \p Path's header.
  explicit SafeOpen(std::string Path);
  ~SafeOpen();
  SafeOpen(SafeOpen &&) noexcept;
  SafeOpen &operator=(SafeOpen &&) noexcept;

  const std::string &path() const { return Path; }
  const Header &header() const { return Head; }
  /// The tensors' names, sorted.
  std::vector<std::string> keys() const;
  const std::map<std::string, std::string> &metadata() const {
    return Head.Metadata;
  }

  /// The tensor called \p Name on \p Dev: meta (no data read), or CPU
  /// (\p Mode). Other devices get the CPU tensor copied to them.
  Tensor get_tensor(std::string_view Name, Device Dev = kCPU,
                    LoadMode Mode = LoadMode::Map);

private:
  Tensor load(const TensorInfo &Info, Device Dev, LoadMode Mode);
  /// The whole file, mapped on first use.
  MappedFile &mapping();

  std::string Path;
  Header Head;
  std::shared_ptr<MappedFile> Mapping;
};

/// Every tensor of \p Path, by name (safetensors.torch.load_file).
std::map<std::string, Tensor> load_file(const std::string &Path,
                                        Device Dev = kCPU,
                                        LoadMode Mode = LoadMode::Map);

/// Writes \p Tensors to \p Path with \p Metadata (safetensors.torch.
/// save_file). A non-contiguous tensor is written as its contiguous copy;
/// a meta tensor has no data to write, and is an error (see
/// save_skeleton_file). The file appears whole or not at all: it is
/// written beside \p Path and renamed.
void save_file(const std::map<std::string, Tensor> &Tensors,
               const std::string &Path,
               const std::map<std::string, std::string> &Metadata = {});

/// Writes the header of \p Tensors, which may be meta tensors, and a data
/// region of the right size that is a hole (ftruncate): a file for tests
/// and demos of models too large to hold, whose data reads as zeros and
/// takes no disk space where the file system supports holes.
void save_skeleton_file(
    const std::map<std::string, Tensor> &Tensors, const std::string &Path,
    const std::map<std::string, std::string> &Metadata = {});

/// A checkpoint sharded over several files by a Hugging Face index
/// (`model.safetensors.index.json`: {"metadata": {...}, "weight_map":
/// {"name": "model-00001-of-00002.safetensors", ...}}).
class ShardedCheckpoint {
public:
  /// Reads \p IndexPath and the header of every shard it names (each
  /// once); checks that every tensor is in the shard the index gives.
  explicit ShardedCheckpoint(const std::string &IndexPath);

  /// The tensors' names, sorted.
  std::vector<std::string> keys() const;
  const std::map<std::string, std::string> &metadata() const {
    return Metadata;
  }
  /// The shard the index puts each tensor in, as written there.
  const std::map<std::string, std::string> &weight_map() const {
    return WeightMap;
  }

  Tensor get_tensor(std::string_view Name, Device Dev = kCPU,
                    LoadMode Mode = LoadMode::Map);
  /// Every tensor, by name.
  std::map<std::string, Tensor> load(Device Dev = kCPU,
                                     LoadMode Mode = LoadMode::Map);

private:
  std::string IndexPath;
  std::map<std::string, std::string> Metadata;
  std::map<std::string, std::string> WeightMap;
  /// Shards by file name, and each tensor's shard.
  std::map<std::string, SafeOpen> Shards;
  std::map<std::string, SafeOpen *, std::less<>> ShardOf;
};

/// Writes a Hugging Face index for \p WeightMap (tensor name to shard file
/// name, relative to the index's directory), whose metadata is the data's
/// \p TotalSize in bytes, whole or not at all, as save_file does.
void save_index_file(const std::map<std::string, std::string> &WeightMap,
                     const std::string &Path, uint64_t TotalSize);

} // namespace safetensors
} // namespace sk

#endif // SK_SERIALIZE_SAFETENSORS_H
