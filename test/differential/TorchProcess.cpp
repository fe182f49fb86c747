//===--- TorchProcess.cpp - PyTorch on a GPU, in a python3 beside us ------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "TorchProcess.h"

#include <simdjson.h>

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace skdiff {

std::string getTorchCUDAScript() {
  const char *Env = std::getenv("SKC_TORCH_CUDA_SCRIPT");
  return Env && *Env ? Env : SKC_TORCH_CUDA_SCRIPT;
}

namespace {

//===----------------------------------------------------------------------===//
// Case files (their format is in torch_cuda.py)
//===----------------------------------------------------------------------===//

std::string jsonString(const std::string &S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\') {
      Out += '\\';
      Out += C;
    } else if (static_cast<unsigned char>(C) < 0x20) {
      char Buf[8];
      std::snprintf(Buf, sizeof Buf, "\\u%04x", C);
      Out += Buf;
    } else {
      Out += C;
    }
  }
  return Out + "\"";
}

std::string jsonDouble(double D) {
  if (std::isnan(D))
    return "\"nan\"";
  if (std::isinf(D))
    return D > 0 ? "\"inf\"" : "\"-inf\"";
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.17g", D);
  return Buf;
}

template <typename T, typename Fn>
std::string jsonList(const std::vector<T> &V, Fn Format) {
  std::string Out = "[";
  for (size_t I = 0; I != V.size(); ++I)
    Out += (I ? "," : "") + Format(V[I]);
  return Out + "]";
}

/// The header entry of \p P, whose storage is appended to \p Data.
std::string jsonTensor(const PlainTensor &P, std::string &Data) {
  if (P.Dtype.empty())
    return "null";
  auto Int = [](int64_t I) { return std::to_string(I); };
  size_t Begin = Data.size();
  Data.append(reinterpret_cast<const char *>(P.Storage.data()),
              P.Storage.size());
  return "{\"dtype\":" + jsonString(P.Dtype) +
         ",\"sizes\":" + jsonList(P.Sizes, Int) +
         ",\"strides\":" + jsonList(P.Strides, Int) +
         ",\"offset\":" + Int(P.StorageOffset) + ",\"bytes\":[" +
         Int(int64_t(Begin)) + "," + Int(int64_t(Data.size())) + "]}";
}

std::string jsonArgument(const PlainValue &V, std::string &Data) {
  using Kind = PlainValue::Kind;
  auto Int = [](int64_t I) { return std::to_string(I); };
  auto Bool = [](bool B) { return std::string(B ? "true" : "false"); };
  switch (V.K) {
  case Kind::None:
    return "null";
  case Kind::Int:
    return "{\"int\":" + Int(V.Int) + "}";
  case Kind::Double:
    return "{\"float\":" + jsonDouble(V.Double) + "}";
  case Kind::Bool:
    return "{\"bool\":" + Bool(V.Bool) + "}";
  case Kind::String:
    return "{\"str\":" + jsonString(V.String) + "}";
  case Kind::IntList:
    return "{\"ints\":" + jsonList(V.Ints, Int) + "}";
  case Kind::DoubleList:
    return "{\"floats\":" + jsonList(V.Doubles, jsonDouble) + "}";
  case Kind::BoolList:
    return "{\"bools\":" + jsonList(V.Bools, Bool) + "}";
  case Kind::ScalarType:
    return "{\"dtype\":" + jsonString(V.String) + "}";
  case Kind::Tensor:
    return jsonTensor(V.Tensors[0], Data);
  case Kind::TensorList:
    return "{\"tensors\":" +
           jsonList(V.Tensors,
                    [&](const PlainTensor &P) { return jsonTensor(P, Data); }) +
           "}";
  }
  return "null";
}

/// A temporary file in $TMPDIR, removed with this.
class TemporaryFile {
public:
  TemporaryFile() {
    const char *Dir = std::getenv("TMPDIR");
    Path = std::string(Dir && *Dir ? Dir : "/tmp") + "/skc-torch-cuda.XXXXXX";
    int Fd = mkstemp(Path.data());
    if (Fd < 0)
      throw std::runtime_error("cannot create " + Path + ": " +
                               std::strerror(errno));
    close(Fd);
  }
  ~TemporaryFile() { std::remove(Path.c_str()); }
  TemporaryFile(const TemporaryFile &) = delete;
  TemporaryFile &operator=(const TemporaryFile &) = delete;

  const std::string &path() const { return Path; }

private:
  std::string Path;
};

/// Writes the case file of `Name.Overload` on \p Args to \p Path.
void writeCase(const std::string &Path, const std::string &Name,
               const std::string &Overload,
               const std::vector<PlainValue> &Args) {
  std::string Data, Header = "{\"op\":" + jsonString(Name) +
                             ",\"overload\":" + jsonString(Overload) +
                             ",\"args\":[";
  for (size_t I = 0; I != Args.size(); ++I)
    Header += (I ? "," : "") + jsonArgument(Args[I], Data);
  Header += "]}";
  unsigned char Length[8];
  for (int I = 0; I != 8; ++I)
    Length[I] = static_cast<unsigned char>(Header.size() >> (8 * I));
  std::ofstream F(Path, std::ios::binary | std::ios::trunc);
  F.write(reinterpret_cast<const char *>(Length), 8);
  F.write(Header.data(), static_cast<std::streamsize>(Header.size()));
  F.write(Data.data(), static_cast<std::streamsize>(Data.size()));
  F.close();
  if (!F)
    throw std::runtime_error("cannot write " + Path);
}

//===----------------------------------------------------------------------===//
// Result files: a case file's format, with {"results": [VALUE, ...]}
//===----------------------------------------------------------------------===//

std::vector<int64_t> readInts(simdjson::dom::element E) {
  std::vector<int64_t> Out;
  for (simdjson::dom::element I : E.get_array())
    Out.push_back(I.get_int64());
  return Out;
}

PlainTensor readTensor(simdjson::dom::element E, const std::string &Data) {
  PlainTensor P;
  if (E.is_null())
    return P;
  P.Dtype = std::string(std::string_view(E["dtype"]));
  P.Sizes = readInts(E["sizes"]);
  P.Strides = readInts(E["strides"]);
  P.StorageOffset = E["offset"].get_int64();
  std::vector<int64_t> Bytes = readInts(E["bytes"]);
  if (Bytes.size() != 2 || Bytes[0] < 0 || Bytes[0] > Bytes[1] ||
      static_cast<size_t>(Bytes[1]) > Data.size())
    throw std::runtime_error("a result's bytes lie outside the file");
  P.Storage.assign(Data.begin() + Bytes[0], Data.begin() + Bytes[1]);
  return P;
}

PlainValue readValue(simdjson::dom::element E, const std::string &Data) {
  using Kind = PlainValue::Kind;
  PlainValue V;
  if (E.is_null())
    return V;
  simdjson::dom::object O = E.get_object();
  if (O["sizes"].error() == simdjson::SUCCESS) {
    V.K = Kind::Tensor;
    V.Tensors.push_back(readTensor(E, Data));
  } else if (simdjson::dom::element L;
             O["tensors"].get(L) == simdjson::SUCCESS) {
    V.K = Kind::TensorList;
    for (simdjson::dom::element T : L.get_array())
      V.Tensors.push_back(readTensor(T, Data));
  } else if (O["int"].get(V.Int) == simdjson::SUCCESS) {
    V.K = Kind::Int;
  } else if (O["bool"].get(V.Bool) == simdjson::SUCCESS) {
    V.K = Kind::Bool;
  } else if (simdjson::dom::element F; O["float"].get(F) == simdjson::SUCCESS) {
    V.K = Kind::Double;
    if (F.is_string())
      V.Double = std::strtod(std::string(std::string_view(F)).c_str(), nullptr);
    else
      V.Double = F.get_double();
  } else {
    throw std::runtime_error("a result of a kind this test lacks: " +
                             simdjson::minify(E));
  }
  return V;
}

std::vector<PlainValue> readResults(const std::string &Path) {
  std::ifstream F(Path, std::ios::binary);
  std::string File((std::istreambuf_iterator<char>(F)),
                   std::istreambuf_iterator<char>());
  if (File.size() < 8)
    throw std::runtime_error("no results in " + Path);
  uint64_t Length = 0;
  for (int I = 0; I != 8; ++I)
    Length |= uint64_t(static_cast<unsigned char>(File[I])) << (8 * I);
  if (Length > File.size() - 8)
    throw std::runtime_error("a truncated result file, " + Path);
  std::string Data = File.substr(8 + Length);
  simdjson::dom::parser Parser;
  simdjson::dom::element Header =
      Parser.parse(File.data() + 8, static_cast<size_t>(Length));
  std::vector<PlainValue> Results;
  for (simdjson::dom::element E : Header["results"].get_array())
    Results.push_back(readValue(E, Data));
  return Results;
}

} // namespace

//===----------------------------------------------------------------------===//
// The process
//===----------------------------------------------------------------------===//

TorchProcess::TorchProcess(pid_t Pid, FILE *In, FILE *Out)
    : Pid(Pid), In(In), Out(Out) {}

std::unique_ptr<TorchProcess> TorchProcess::start(const std::string &Python,
                                                  const std::string &Script,
                                                  std::string &Why) {
  // A process that dies must not take this one with it.
  std::signal(SIGPIPE, SIG_IGN);
  int ToChild[2], FromChild[2];
  if (pipe(ToChild) != 0 || pipe(FromChild) != 0) {
    Why = std::string("pipe: ") + std::strerror(errno);
    return nullptr;
  }
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_adddup2(&Actions, ToChild[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&Actions, FromChild[1], STDOUT_FILENO);
  for (int Fd : {ToChild[0], ToChild[1], FromChild[0], FromChild[1]})
    posix_spawn_file_actions_addclose(&Actions, Fd);
  std::vector<char *> Argv = {const_cast<char *>(Python.c_str()),
                              const_cast<char *>(Script.c_str()), nullptr};
  pid_t Pid = 0;
  int Err = posix_spawnp(&Pid, Python.c_str(), &Actions, nullptr, Argv.data(),
                         environ);
  posix_spawn_file_actions_destroy(&Actions);
  close(ToChild[0]);
  close(FromChild[1]);
  if (Err != 0) {
    close(ToChild[1]);
    close(FromChild[0]);
    Why = Python + ": " + std::strerror(Err);
    return nullptr;
  }
  std::unique_ptr<TorchProcess> P(new TorchProcess(Pid, fdopen(ToChild[1], "w"),
                                                   fdopen(FromChild[0], "r")));
  std::string Hello = P->ask("");
  simdjson::dom::parser Parser;
  simdjson::dom::element Reply;
  if (Parser.parse(Hello).get(Reply) != simdjson::SUCCESS) {
    Why = "no answer from " + Script;
    return nullptr;
  }
  std::string_view Text;
  if (Reply["unavailable"].get(Text) == simdjson::SUCCESS) {
    Why = std::string(Text);
    return nullptr;
  }
  std::string_view Version, Device;
  if (Reply["torch"].get(Version) != simdjson::SUCCESS ||
      Reply["device"].get(Device) != simdjson::SUCCESS) {
    Why = "unexpected answer from " + Script + ": " + Hello;
    return nullptr;
  }
  P->Description =
      "PyTorch " + std::string(Version) + " on " + std::string(Device);
  return P;
}

TorchProcess::~TorchProcess() {
  std::fclose(In);
  std::fclose(Out);
  int Status = 0;
  waitpid(Pid, &Status, 0);
}

std::string TorchProcess::ask(const std::string &Request) {
  if (!Request.empty()) {
    std::fputs(Request.c_str(), In);
    std::fputc('\n', In);
    std::fflush(In);
  }
  // Every answer is a JSON object on one line; anything else on the pipe
  // (a library printing to stdout) is skipped.
  for (;;) {
    std::string Line;
    int C;
    while ((C = std::fgetc(Out)) != EOF && C != '\n')
      Line.push_back(static_cast<char>(C));
    if (C == EOF) {
      Alive = false;
      return Line;
    }
    if (!Line.empty() && Line.front() == '{')
      return Line;
  }
}

std::vector<double> TorchProcess::time(const std::string &Name,
                                       const std::string &Overload,
                                       const std::vector<PlainValue> &Args,
                                       int N, std::string &Error) {
  TemporaryFile Case;
  writeCase(Case.path(), Name, Overload, Args);
  std::string Line = ask("time " + Case.path() + " " + std::to_string(N));
  simdjson::dom::parser Parser;
  simdjson::dom::element Reply;
  if (Parser.parse(Line).get(Reply) != simdjson::SUCCESS) {
    Error = "the PyTorch process stopped answering";
    return {};
  }
  std::string_view Message;
  if (Reply["error"].get(Message) == simdjson::SUCCESS) {
    Error = std::string(Message);
    return {};
  }
  std::vector<double> Ms;
  simdjson::dom::array Times;
  if (Reply["ms"].get(Times) == simdjson::SUCCESS)
    for (simdjson::dom::element E : Times) {
      double V = 0;
      if (E.get(V) == simdjson::SUCCESS)
        Ms.push_back(V);
    }
  if (Ms.empty())
    Error = "no times in the answer: " + Line;
  return Ms;
}

TorchOutcome TorchProcess::call(const std::string &Name,
                                const std::string &Overload,
                                const std::vector<PlainValue> &Args) {
  TemporaryFile Case, Results;
  writeCase(Case.path(), Name, Overload, Args);
  std::string Line = ask("call " + Case.path() + " " + Results.path());
  TorchOutcome O;
  simdjson::dom::parser Parser;
  simdjson::dom::element Reply;
  if (Parser.parse(Line).get(Reply) != simdjson::SUCCESS)
    throw std::runtime_error("the PyTorch process stopped answering");
  std::string_view Message;
  if (Reply["error"].get(Message) == simdjson::SUCCESS) {
    O.Error = std::string(Message);
    return O;
  }
  O.Results = readResults(Results.path());
  return O;
}

} // namespace skdiff
