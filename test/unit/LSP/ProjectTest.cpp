//===--- ProjectTest.cpp - Tests of project files and their discovery -----===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "LSP/Project.h"
#include "LSP/Workspace.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace skc;

namespace {

/// A temporary directory, removed with everything in it.
class TempDir {
public:
  TempDir() {
    std::error_code EC = sys::fs::createUniqueDirectory("skc-lsp-test", Path);
    EXPECT_FALSE(EC) << EC.message();
  }
  ~TempDir() { sys::fs::remove_directories(Path); }
  std::string path(StringRef Relative = "") const {
    SmallString<256> P(Path);
    if (!Relative.empty())
      sys::path::append(P, Relative);
    return P.str().str();
  }
  void write(StringRef Relative, StringRef Text) const {
    std::string P = path(Relative);
    ASSERT_FALSE(sys::fs::create_directories(sys::path::parent_path(P)));
    std::error_code EC;
    raw_fd_ostream OS(P, EC);
    ASSERT_FALSE(EC) << EC.message();
    OS << Text;
  }

private:
  SmallString<256> Path;
};

/// A configured build directory: compile_commands.json and the project
/// file of a library whose schema is ops.yaml and source k.cpp.
void writeProject(const TempDir &Dir, StringRef Build = "build") {
  Dir.write((Build + "/compile_commands.json").str(), "[]\n");
  Dir.write((Build + "/skc-projects/lib.json").str(),
            (R"({"version": 1, "name": "lib", "schema": ")" +
             Dir.path("ops.yaml") + R"(", "sources": [")" + Dir.path("k.cpp") +
             R"("], "backends": ["CPU"], "buildDirectory": ")" +
             Dir.path(Build) +
             R"(", "skcOptions": ["--shards=2", "--", "-DLIB=1"]})"));
}

TEST(ProjectTest, ReadsWhatSkcAddKernelLibraryWrites) {
  TempDir Dir;
  writeProject(Dir);
  Expected<Project> P =
      readProjectFile(Dir.path("build/skc-projects/lib.json"));
  ASSERT_TRUE(bool(P)) << toString(P.takeError());
  EXPECT_EQ(P->Name, "lib");
  EXPECT_EQ(P->Inv.SchemaPath, Dir.path("ops.yaml"));
  EXPECT_TRUE(P->owns(Dir.path("ops.yaml")));
  EXPECT_TRUE(P->isSource(Dir.path("k.cpp")));
  EXPECT_FALSE(P->owns(Dir.path("other.cpp")));
  EXPECT_EQ(P->Inv.Backends, std::vector<DispatchKey>{DispatchKey::CPU});
  // The compile flags after `--`; skc's own options are the build's.
  EXPECT_EQ(P->Inv.ExtraFlags, std::vector<std::string>{"-DLIB=1"});
}

TEST(ProjectTest, RefusesWhatItCannotRead) {
  TempDir Dir;
  auto Error = [&](StringRef Text) {
    Dir.write("p.json", Text);
    Expected<Project> P = readProjectFile(Dir.path("p.json"));
    return P ? std::string("read") : toString(P.takeError());
  };
  EXPECT_NE(Error("{").find("p.json"), std::string::npos);
  EXPECT_NE(Error(R"({"version": 2, "name": "x", "schema": "/s.yaml"})")
                .find("a version this skc-lsp does not read"),
            std::string::npos);
  EXPECT_NE(
      Error(R"({"version": 1, "name": "x"})").find("no 'name' or no 'schema'"),
      std::string::npos);
  EXPECT_NE(Error(R"({"version": 1, "name": "x", "schema": "/s.yaml",
                      "backends": ["Vulkan"]})")
                .find("unknown backend 'Vulkan'"),
            std::string::npos);
}

TEST(ProjectTest, FindsBuildDirectoriesAsClangdDoes) {
  TempDir Dir;
  writeProject(Dir);
  Dir.write("sub/out/compile_commands.json", "[]\n");
  Dir.write("sub/compile_commands.json", "[]\n");
  // Nearest first: the file's own directory, then build/ of each above.
  std::vector<std::string> Found = findBuildDirs(Dir.path("sub/k.cpp"));
  ASSERT_GE(Found.size(), 2u);
  EXPECT_EQ(Found[0], Dir.path("sub"));
  EXPECT_EQ(Found[1], Dir.path("build"));
  EXPECT_EQ(listProjectFiles(Dir.path("build")),
            std::vector<std::string>{Dir.path("build/skc-projects/lib.json")});
}

TEST(WorkspaceTest, AFileGetsItsProjectOrTheSchemaAlone) {
  TempDir Dir;
  writeProject(Dir);
  ServerOptions Options;
  std::vector<std::string> Warnings;
  Workspace W(
      Options,
      ServerHooks{"", [&](const std::string &M) { Warnings.push_back(M); },
                  nullptr, [] { return vfs::createPhysicalFileSystem(); }});
  ProjectState *Source = W.getProjectFor(Dir.path("k.cpp"));
  ASSERT_TRUE(Source);
  EXPECT_EQ(Source->getProject().Name, "lib");
  EXPECT_EQ(W.getProjectFor(Dir.path("ops.yaml")), Source);
  // Outside every project: a schema is checked alone, a source not at all.
  ProjectState *Alone = W.getProjectFor(Dir.path("other.yaml"));
  ASSERT_TRUE(Alone);
  EXPECT_EQ(Alone->getProject().Inv.SchemaPath, Dir.path("other.yaml"));
  EXPECT_TRUE(Alone->getProject().Name.empty());
  EXPECT_FALSE(W.getProjectFor(Dir.path("other.cpp")));
  EXPECT_TRUE(Warnings.empty());

  // The build directory is deleted: the file keeps its project, and the
  // user is told, once.
  ASSERT_FALSE(sys::fs::remove_directories(Dir.path("build")));
  EXPECT_EQ(W.getProjectFor(Dir.path("k.cpp")), Source);
  EXPECT_EQ(W.getProjectFor(Dir.path("k.cpp")), Source);
  ASSERT_EQ(Warnings.size(), 1u);
  EXPECT_NE(Warnings[0].find("lib.json' is gone"), std::string::npos)
      << Warnings[0];
}

TEST(WorkspaceTest, SourcesOutsideEveryProjectUseTheServersSchema) {
  TempDir Dir;
  ServerOptions Options;
  Options.SchemaPath = Dir.path("s.yaml");
  ServerHooks Hooks;
  Hooks.MakeFileSystem = [] { return vfs::createPhysicalFileSystem(); };
  Workspace W(Options, Hooks);
  ProjectState *CPU = W.getProjectFor(Dir.path("a.cpp"));
  ASSERT_TRUE(CPU);
  EXPECT_EQ(CPU->getProject().Inv.SchemaPath, Dir.path("s.yaml"));
  // One state for the schema, its .cpp and its .cu sources.
  EXPECT_EQ(W.getProjectFor(Dir.path("b.cu")), CPU);
  EXPECT_EQ(W.getProjectFor(Dir.path("s.yaml")), CPU);
}

} // namespace
