// The sandbox of code under test, and shell words made from hostile text:
// each check runs the real thing (a child in the sandbox, /bin/sh) in a
// scratch directory and looks at what it left there.
#include "process/Sandbox.h"
#include "core/Quote.h"
#include "process/Process.h"
#include "process/Wire.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <sys/socket.h>
#include <unistd.h>

using namespace cc;
using namespace cc::process;
namespace fs = std::filesystem;

namespace {

// A fresh scratch directory per test.
fs::path scratch(const std::string &name) {
  fs::path d = fs::temp_directory_path() /
               ("cc-sandbox-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

ChildOptions options() {
  ChildOptions o;
  o.limits = RunLimits::timeOnly(60);
  return o;
}

// Runs `body` in a sandboxed child; what it wrote to its pipe comes back.
ProcessResult inSandbox(const std::function<void(int)> &body) {
  auto r = runChild(
      [&](int fd) {
        if (enterSandbox())
          return 99;
        body(fd);
        return 0;
      },
      options());
  EXPECT_TRUE(bool(r)) << r.error().message();
  return r ? *r : ProcessResult{};
}

TEST(Sandbox, AProgramCallingSystemIsStoppedNotRun) {
  fs::path dir = scratch("system");
  std::string marker = (dir / "ran").string();
  ProcessResult r = inSandbox([&](int fd) {
    writeAll(fd, "before;");
    int status = std::system(("touch " + marker).c_str());
    writeAll(fd, "after " + std::to_string(status));
  });
  EXPECT_TRUE(stoppedBySandbox(r)) << r.how();
  EXPECT_EQ(r.out, "before;"); // nothing after the call ran
  EXPECT_FALSE(fs::exists(marker));
  EXPECT_NE(sandboxNote(r).find("stopped by the sandbox"), std::string::npos);
}

TEST(Sandbox, WritingAFileOrOpeningASocketIsStopped) {
  fs::path dir = scratch("write");
  std::string file = (dir / "written").string();
  ProcessResult w = inSandbox([&](int) {
    int fd = ::open(file.c_str(), O_WRONLY | O_CREAT, 0644);
    (void)fd;
  });
  EXPECT_TRUE(stoppedBySandbox(w)) << w.how();
  EXPECT_FALSE(fs::exists(file));
  ProcessResult s =
      inSandbox([](int) { (void)::socket(AF_INET, SOCK_STREAM, 0); });
  EXPECT_TRUE(stoppedBySandbox(s)) << s.how();
}

// What code under test needs still works: memory, reading a file, and its
// answer on the pipe.
TEST(Sandbox, ComputingReadingAndAnsweringStillWork) {
  ProcessResult r = inSandbox([](int fd) {
    std::vector<double> big(1 << 20, 1.5);
    int in = ::open("/proc/self/status", O_RDONLY);
    bool read = in >= 0 && ::close(in) == 0;
    writeAll(fd, std::to_string(big[12345] * 2) + (read ? " read" : ""));
  });
  EXPECT_TRUE(r.succeeded()) << r.how();
  EXPECT_EQ(r.out, "3.000000 read");
  EXPECT_FALSE(stoppedBySandbox(r));
}

// Hostile words: quotes, command substitution, newlines, globs, control
// bytes. Each must come back from the shell as exactly itself, and none may
// run anything.
const std::vector<std::string> kHostile = {"it's",
                                           "$(touch pwned)",
                                           "`touch pwned`",
                                           "a\nb; touch pwned",
                                           "\\",
                                           "\"",
                                           "",
                                           "--help",
                                           "*",
                                           "'; touch pwned; '",
                                           "\x01\xff\xfe",
                                           "${HOME}",
                                           std::string(5000, '\'')};

TEST(ShellWord, EveryHostileWordComesBackAsItself) {
  fs::path dir = scratch("words");
  for (const std::string &s : kHostile) {
    ChildOptions o = options();
    auto r = runProgram(
        {"/bin/sh", "-c",
         "cd " + shellWord(dir.string()) + " && printf %s " + shellWord(s)},
        o);
    ASSERT_TRUE(bool(r)) << r.error().message();
    EXPECT_EQ(r->out, s);
  }
  EXPECT_FALSE(fs::exists(dir / "pwned"));
}

TEST(ShellComment, ACommentNeverBecomesALine) {
  fs::path dir = scratch("comments");
  for (const std::string &s : kHostile) {
    ChildOptions o = options();
    auto r = runProgram({"/bin/sh", "-c",
                         "cd " + shellWord(dir.string()) + "\n# " +
                             shellComment(s) + "\nprintf ok"},
                        o);
    ASSERT_TRUE(bool(r)) << r.error().message();
    EXPECT_EQ(r->out, "ok");
  }
  EXPECT_FALSE(fs::exists(dir / "pwned"));
}

} // namespace
