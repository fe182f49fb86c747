//===--- SafetensorsTest.cpp - safetensors files --------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/serialize/Safetensors.h"

#include "sk/core/EmptyTensor.h"
#include "sk/ops/Factories.h"
#include "sk/util/Exception.h"

#include "TestUtils.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace sk;
namespace st = sk::safetensors;

namespace {

const ScalarType AllDtypes[] = {kBool, kByte, kChar,     kShort, kInt,
                                kLong, kHalf, kBFloat16, kFloat, kDouble};

/// A directory of its own under the test's temporary directory, removed
/// with what is in it.
class TempDir {
public:
  TempDir() {
    std::string Pattern = ::testing::TempDir() + "skc-safetensors-XXXXXX";
    Path = ::mkdtemp(Pattern.data()) ? Pattern : "";
    EXPECT_FALSE(Path.empty()) << std::strerror(errno);
  }
  ~TempDir() {
    for (const std::string &F : files())
      ::unlink((Path + "/" + F).c_str());
    ::rmdir(Path.c_str());
  }
  std::string file(const std::string &Name) const { return Path + "/" + Name; }
  std::vector<std::string> files() const {
    std::vector<std::string> Out;
    if (DIR *D = ::opendir(Path.c_str())) {
      while (dirent *E = ::readdir(D))
        if (std::strcmp(E->d_name, ".") && std::strcmp(E->d_name, ".."))
          Out.push_back(E->d_name);
      ::closedir(D);
    }
    return Out;
  }

private:
  std::string Path;
};

/// A tensor of \p Sizes whose bytes follow a pattern that differs between
/// elements (valid values of every dtype: bools are 0 or 1).
Tensor patterned(std::vector<int64_t> Sizes, ScalarType Dtype, int Seed = 0) {
  Tensor T = detail::empty_cpu(Sizes, Dtype);
  auto *Bytes = static_cast<uint8_t *>(T.data_ptr());
  for (size_t I = 0; I < T.nbytes(); ++I)
    Bytes[I] = Dtype == kBool ? uint8_t((I + Seed) % 3 == 0)
                              : uint8_t(I * 37 + Seed * 11 + 5);
  // float16/bfloat16/float/double: keep the high byte away from NaN.
  if (isFloatingType(Dtype))
    for (size_t I = T.itemsize() - 1; I < T.nbytes(); I += T.itemsize())
      Bytes[I] &= 0x3f;
  return T;
}

/// Whether \p A and \p B have equal sizes, dtypes and bytes (row-major).
::testing::AssertionResult sameBytes(const Tensor &A, const Tensor &B) {
  if (A.sizes() != B.sizes() || A.dtype() != B.dtype())
    return ::testing::AssertionFailure() << "sizes or dtypes differ";
  Tensor CA = A.contiguous(), CB = B.contiguous();
  if (CA.nbytes() && std::memcmp(CA.data_ptr(), CB.data_ptr(), CA.nbytes()))
    return ::testing::AssertionFailure() << "bytes differ";
  return ::testing::AssertionSuccess();
}

std::string readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

/// Writes a file of an 8-byte length \p Length (the JSON's own by default),
/// the header \p Json and \p DataBytes zero bytes.
void writeRaw(const std::string &Path, const std::string &Json,
              size_t DataBytes, std::optional<uint64_t> Length = {}) {
  std::ofstream Out(Path, std::ios::binary);
  uint64_t L = Length.value_or(Json.size());
  for (int I = 0; I < 8; ++I)
    Out.put(static_cast<char>((L >> (8 * I)) & 0xff));
  Out << Json << std::string(DataBytes, '\0');
}

/// The message of the sk::Error that opening \p Path throws.
std::string openError(const std::string &Path) {
  try {
    st::SafeOpen F(Path);
  } catch (const Error &E) {
    return E.what();
  }
  return "(no error)";
}

TEST(SafetensorsTest, EveryDtype_RoundTripsThroughMapCopyAndMeta) {
  TempDir Dir;
  std::map<std::string, Tensor> Saved;
  for (ScalarType D : AllDtypes) {
    std::string Name(st::dtypeName(D));
    Saved[Name + ".matrix"] = patterned({3, 5}, D);
    Saved[Name + ".scalar"] = patterned({}, D, 1);
    Saved[Name + ".empty"] = detail::empty_cpu({0, 4}, D);
    // Written as its contiguous copy.
    Saved[Name + ".transposed"] = patterned({4, 3}, D, 2).t();
  }
  std::string Path = Dir.file("all.safetensors");
  st::save_file(Saved, Path, {{"format", "pt"}, {"note", "\"quoted\"\n"}});

  for (st::LoadMode Mode : {st::LoadMode::Map, st::LoadMode::Copy}) {
    std::map<std::string, Tensor> Loaded = st::load_file(Path, kCPU, Mode);
    ASSERT_EQ(Loaded.size(), Saved.size());
    for (const auto &[Name, T] : Saved) {
      SCOPED_TRACE(Name);
      ASSERT_TRUE(Loaded.count(Name));
      EXPECT_TRUE(Loaded[Name].is_contiguous());
      EXPECT_TRUE(sameBytes(Loaded[Name], T));
    }
  }
  std::map<std::string, Tensor> Meta = st::load_file(Path, kMeta);
  for (const auto &[Name, T] : Saved) {
    EXPECT_TRUE(Meta[Name].is_meta()) << Name;
    EXPECT_EQ(Meta[Name].sizes(), T.sizes()) << Name;
    EXPECT_EQ(Meta[Name].dtype(), T.dtype()) << Name;
  }
  st::SafeOpen File(Path);
  EXPECT_EQ(File.metadata().at("note"), "\"quoted\"\n");
  std::vector<std::string> Keys = File.keys();
  EXPECT_EQ(Keys.size(), Saved.size());
  EXPECT_TRUE(std::is_sorted(Keys.begin(), Keys.end()));
  // Larger elements first, so every tensor starts at a multiple of its
  // element size, and the header keeps the data 8-byte aligned.
  EXPECT_EQ(File.header().DataStart % 8, 0u);
  for (const st::TensorInfo &Info : File.header().Tensors)
    EXPECT_EQ(Info.Begin % elementSize(Info.Dtype), 0u) << Info.Name;
  // Nothing is left beside the file.
  EXPECT_EQ(Dir.files(), std::vector<std::string>{"all.safetensors"});
}

TEST(SafetensorsTest, MappedTensors_ShareTheFileAndNeverWriteIt) {
  TempDir Dir;
  std::string Path = Dir.file("m.safetensors");
  st::save_file({{"a", patterned({64}, kFloat)}, {"b", patterned({8}, kLong)}},
                Path);
  std::string Before = readFile(Path);
  Tensor A, B;
  {
    st::SafeOpen File(Path);
    A = File.get_tensor("a");
    B = File.get_tensor("b");
  }
  // The tensors keep the mapping after the SafeOpen is gone.
  const char *PA = static_cast<const char *>(A.data_ptr());
  const char *PB = static_cast<const char *>(B.data_ptr());
  EXPECT_EQ(std::abs(PA - PB), 64);
  EXPECT_TRUE(sameBytes(A, patterned({64}, kFloat)));
  // Copy-on-write: the tensor changes, the file does not.
  A.fill_(1.5);
  EXPECT_EQ(A.data_ptr<float>()[63], 1.5f);
  EXPECT_EQ(readFile(Path), Before);
  EXPECT_TRUE(
      sameBytes(st::SafeOpen(Path).get_tensor("a"), patterned({64}, kFloat)));
}

TEST(SafetensorsTest, MetaTensors_AreWrittenAsSkeletonsOnly) {
  TempDir Dir;
  std::string Path = Dir.file("meta.safetensors");
  std::map<std::string, Tensor> Big = {
      {"w", detail::empty_meta({1 << 14, 1 << 12}, kBFloat16)},
      {"b", detail::empty_meta({1 << 12}, kFloat)}};
  SK_EXPECT_ERROR(st::save_file(Big, Path), "tensor 'b' is a meta tensor");
  EXPECT_TRUE(Dir.files().empty());

  st::save_skeleton_file(Big, Path, {{"format", "pt"}});
  struct stat S;
  ASSERT_EQ(::stat(Path.c_str(), &S), 0);
  uint64_t Data = (uint64_t(1) << 26) * 2 + (1 << 12) * 4;
  st::SafeOpen File(Path);
  EXPECT_EQ(uint64_t(S.st_size), File.header().DataStart + Data);
  // A hole: far fewer blocks than bytes.
  EXPECT_LT(uint64_t(S.st_blocks) * 512, Data / 16);
  Tensor W = File.get_tensor("w", kMeta);
  EXPECT_TRUE(W.is_meta());
  EXPECT_EQ(W.size(0), 1 << 14);
  EXPECT_EQ(W.size(1), 1 << 12);
  Tensor B = File.get_tensor("b");
  EXPECT_EQ(B.data_ptr<float>()[0], 0.0f);
  EXPECT_EQ(B.data_ptr<float>()[4095], 0.0f);
}

TEST(SafetensorsTest, UnwritableFiles_LeaveNothingBehind) {
  TempDir Dir;
  EXPECT_THROW(st::save_file({{"a", patterned({2}, kFloat)}},
                             Dir.file("no/such/dir.safetensors")),
               Error);
  EXPECT_THROW(st::save_file({{"__metadata__", patterned({2}, kFloat)}},
                             Dir.file("x.safetensors")),
               Error);
  EXPECT_THROW(st::save_file({{"a", Tensor()}}, Dir.file("x.safetensors")),
               Error);
  EXPECT_THROW(st::save_file({{"\xff\xfe", patterned({2}, kFloat)}},
                             Dir.file("x.safetensors")),
               Error);
  EXPECT_TRUE(Dir.files().empty());
}

struct BadHeader {
  const char *What;
  std::string Json;
  size_t DataBytes;
  std::string Expected;
};

TEST(SafetensorsTest, BadHeaders_NameTheFileAndTheTensor) {
  const std::string F32 = R"("dtype":"F32","shape":[2])";
  const BadHeader Cases[] = {
      {"invalid JSON", R"({"a":{)", 0, "the header is not valid JSON"},
      {"not an object", "[1, 2]", 0, "the header is not a JSON object"},
      {"a tensor that is not an object", R"({"a":3})", 0,
       "tensor 'a': is not an object"},
      {"an unknown dtype",
       R"({"a":{"dtype":"F7","shape":[],"data_offsets":[0,0]}})", 0,
       "tensor 'a': has dtype 'F7', which safetensors does not define"},
      {"a dtype the runtime lacks",
       R"({"a":{"dtype":"F8_E4M3","shape":[1],"data_offsets":[0,1]}})", 1,
       "tensor 'a': has dtype F8_E4M3 (8-bit floats), which skc's runtime "
       "does not have"},
      {"no shape", R"({"a":{"dtype":"F32","data_offsets":[0,8]}})", 8,
       "tensor 'a': has no \"shape\""},
      {"a negative size",
       R"({"a":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}})", 8,
       "tensor 'a': \"shape\" holds -2, not a non-negative integer"},
      {"three offsets", R"({"a":{)" + F32 + R"(,"data_offsets":[0,4,8]}})", 8,
       "tensor 'a': \"data_offsets\" has 3 entries, not 2"},
      {"an end before the begin",
       R"({"a":{)" + F32 + R"(,"data_offsets":[8,0]}})", 8,
       "tensor 'a': ends at 0 before it begins at 8"},
      {"a byte count that is not the shape's",
       R"({"a":{)" + F32 + R"(,"data_offsets":[0,12]}})", 12,
       "tensor 'a': takes bytes [0, 12), 12 of them, but 2 elements of F32 "
       "are 8 bytes"},
      {"an overflowing shape",
       R"({"a":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,0]}})",
       0, "tensor 'a': has too many elements for its shape"},
      {"overlapping tensors",
       R"({"a":{)" + F32 + R"(,"data_offsets":[0,8]},"b":{)" + F32 +
           R"(,"data_offsets":[4,12]}})",
       12, "tensor 'b': takes bytes [4, 12), which overlap those of 'a'"},
      {"a hole", R"({"a":{)" + F32 + R"(,"data_offsets":[4,12]}})", 12,
       "tensor 'a': begins at 4, leaving bytes [0, 4) of the data to no "
       "tensor"},
      {"a tensor past the end",
       R"({"a":{)" + F32 + R"(,"data_offsets":[0,8]}})", 4,
       "tensor 'a': ends at byte 8 of the data, past its end at 4"},
      {"bytes after the last tensor",
       R"({"a":{)" + F32 + R"(,"data_offsets":[0,8]}})", 16,
       "the tensors take 8 bytes of data, but the file has 16"},
      {"a name twice",
       R"({"a":{)" + F32 + R"(,"data_offsets":[0,8]},"a":{)" + F32 +
           R"(,"data_offsets":[8,16]}})",
       16, "tensor 'a': appears twice"},
      {"a name that is not UTF-8",
       "{\"\xc3\x28\":{" + F32 + R"(,"data_offsets":[0,8]}})", 8,
       "the header is not valid JSON"},
      {"metadata that is not a string",
       R"({"__metadata__":{"n":1},"a":{)" + F32 + R"(,"data_offsets":[0,8]}})",
       8, "\"__metadata__\" entry 'n' is not a string"},
  };
  TempDir Dir;
  for (const BadHeader &Case : Cases) {
    SCOPED_TRACE(Case.What);
    std::string Path = Dir.file("bad.safetensors");
    writeRaw(Path, Case.Json, Case.DataBytes);
    std::string Message = openError(Path);
    EXPECT_NE(Message.find("safetensors file '" + Path + "'"),
              std::string::npos)
        << Message;
    EXPECT_NE(Message.find(Case.Expected), std::string::npos) << Message;
  }
}

TEST(SafetensorsTest, BadLengths_AreCheckedBeforeReading) {
  TempDir Dir;
  std::string Path = Dir.file("short.safetensors");
  {
    std::ofstream Out(Path, std::ios::binary);
    Out << "abc";
  }
  EXPECT_NE(openError(Path).find("has 3 bytes, fewer than the 8"),
            std::string::npos);
  writeRaw(Path, "{}", 0, uint64_t(200'000'000));
  EXPECT_NE(openError(Path).find("is over the limit of 100000000"),
            std::string::npos)
      << openError(Path);
  writeRaw(Path, "{}", 0, uint64_t(1000));
  EXPECT_NE(openError(Path).find("runs past the end of the 10-byte file"),
            std::string::npos)
      << openError(Path);
  EXPECT_NE(openError(Dir.file("missing")).find("cannot open"),
            std::string::npos);
  // An empty header is a file of no tensors.
  writeRaw(Path, "{}      ", 0);
  EXPECT_TRUE(st::load_file(Path).empty());
}

TEST(SafetensorsTest, ShardedCheckpoints_OpenEachShardOnce) {
  TempDir Dir;
  st::save_file({{"layer.0.w", patterned({4, 4}, kFloat)},
                 {"layer.0.b", patterned({4}, kFloat)}},
                Dir.file("model-00001-of-00002.safetensors"));
  st::save_file({{"layer.1.w", patterned({4, 4}, kBFloat16, 3)}},
                Dir.file("model-00002-of-00002.safetensors"));
  std::map<std::string, std::string> Map = {
      {"layer.0.w", "model-00001-of-00002.safetensors"},
      {"layer.0.b", "model-00001-of-00002.safetensors"},
      {"layer.1.w", "model-00002-of-00002.safetensors"}};
  st::save_index_file(Map, Dir.file("model.safetensors.index.json"), 112);

  st::ShardedCheckpoint Ckpt(Dir.file("model.safetensors.index.json"));
  EXPECT_EQ(Ckpt.metadata().at("total_size"), "112");
  EXPECT_EQ(Ckpt.keys(),
            (std::vector<std::string>{"layer.0.b", "layer.0.w", "layer.1.w"}));
  std::map<std::string, Tensor> All = Ckpt.load();
  EXPECT_TRUE(sameBytes(All.at("layer.1.w"), patterned({4, 4}, kBFloat16, 3)));
  EXPECT_TRUE(Ckpt.load(kMeta).at("layer.0.w").is_meta());

  // An index that puts a tensor in the wrong shard.
  Map["layer.1.w"] = "model-00001-of-00002.safetensors";
  st::save_index_file(Map, Dir.file("wrong.index.json"), 112);
  SK_EXPECT_ERROR(st::ShardedCheckpoint(Dir.file("wrong.index.json")),
                  "puts tensor 'layer.1.w' in "
                  "'model-00001-of-00002.safetensors', which does not have it");
}

/// Runs the Python side of the compatibility test with \p Args; its exit
/// status, and what it printed in \p Output.
int runCompatScript(const std::string &Args, std::string &Output) {
  std::string Command = std::string("'") + SKC_PYTHON + "' '" +
                        SKC_SAFETENSORS_COMPAT_SCRIPT + "' " + Args + " 2>&1";
  FILE *Pipe = ::popen(Command.c_str(), "r");
  if (!Pipe)
    return -1;
  char Buf[512];
  while (size_t N = std::fread(Buf, 1, sizeof Buf, Pipe))
    Output.append(Buf, N);
  int Status = ::pclose(Pipe);
  return WIFEXITED(Status) ? WEXITSTATUS(Status) : -1;
}

// Files in both directions with the reference implementation, Python's
// safetensors package (utils/setup.sh installs it with numpy into
// SKC_PYTHON_TOOLS_DIR).
TEST(SafetensorsPythonTest, FilesRoundTripWithPythonsSafetensors) {
  std::string Output;
  if (runCompatScript("probe", Output) != 0)
    GTEST_SKIP() << "Python's safetensors and numpy are not importable by "
                 << SKC_PYTHON << " (utils/setup.sh installs them): " << Output;
  TempDir Dir;
  std::string FromPython = Dir.file("python.safetensors");
  ASSERT_EQ(runCompatScript("write '" + FromPython + "'", Output), 0) << Output;

  st::SafeOpen File(FromPython);
  EXPECT_EQ(File.metadata().at("written_by"), "safetensors");
  std::map<std::string, Tensor> Tensors = st::load_file(FromPython);
  ASSERT_EQ(Tensors.size(), 11u);
  EXPECT_EQ(Tensors["f32"].dtype(), kFloat);
  EXPECT_EQ(Tensors["f32"].data_ptr<float>()[11], 5.5f);
  EXPECT_EQ(Tensors["i64"].data_ptr<int64_t>()[4], (int64_t(1) << 40) + 4);
  EXPECT_EQ(Tensors["bool"].dtype(), kBool);
  EXPECT_EQ(Tensors["i32"].size(2), 4);
  EXPECT_EQ(Tensors["scalar"].dim(), 0);
  EXPECT_EQ(Tensors["empty"].numel(), 0);
  EXPECT_EQ(static_cast<float>(Tensors["f16"].data_ptr<Half>()[5]), 1.25f);

  // skc writes them back, with a transposed tensor and a bfloat16 one,
  // and Python reads what skc wrote.
  Tensors["f32_t"] = Tensors["f32"].t();
  Tensor BF16 = detail::empty_cpu({4}, kBFloat16);
  const float Values[] = {1.0f, -2.0f, 0.5f, 3.0f};
  for (int I = 0; I < 4; ++I)
    BF16.data_ptr<BFloat16>()[I] = BFloat16(Values[I]);
  Tensors["bf16"] = BF16;
  std::string FromSkc = Dir.file("skc.safetensors");
  st::save_file(Tensors, FromSkc, File.metadata());
  Output.clear();
  EXPECT_EQ(runCompatScript("check '" + FromSkc + "'", Output), 0) << Output;
  EXPECT_NE(Output.find("ok: 12 tensors and bf16"), std::string::npos)
      << Output;
}

} // namespace
