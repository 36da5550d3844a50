// The process layer: children under deadlines and limits, what they send
// back, the stage cell, the framed codec and the worker pool.
#include "process/Process.h"
#include "process/Pool.h"
#include "process/StageCell.h"
#include "process/Wire.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace cc;
using namespace cc::process;

namespace {

ChildOptions unbounded() {
  ChildOptions o;
  o.limits = RunLimits::timeOnly(1e9);
  return o;
}

TEST(Process, AChildAnswersThroughItsPipeAndItsExitStatus) {
  auto r = runChild(
      [](int fd) {
        writeAll(fd, "hello");
        return 3;
      },
      unbounded());
  ASSERT_TRUE(bool(r)) << r.error().message();
  EXPECT_EQ(r->out, "hello");
  EXPECT_EQ(r->exitCode, 3);
  EXPECT_EQ(r->signal, 0);
  EXPECT_FALSE(r->succeeded());
  EXPECT_EQ(r->how(), "exited with status 3");
}

TEST(Process, ACrashIsItsSignalAndAHangIsKilledAtTheDeadline) {
  auto crash = runChild(
      [](int) {
        raise(SIGSEGV);
        return 0;
      },
      unbounded());
  ASSERT_TRUE(bool(crash));
  EXPECT_EQ(crash->signal, SIGSEGV);
  EXPECT_EQ(crash->status(), 128 + SIGSEGV);
  ChildOptions o;
  o.limits = RunLimits::timeOnly(0.2);
  auto hang = runShell("sleep 100000", o);
  ASSERT_TRUE(bool(hang));
  EXPECT_TRUE(hang->timedOut);
  EXPECT_EQ(hang->signal, 0) << "our own kill is not the child's crash";
}

TEST(Process, StdinIsFedAndStdoutIsBounded) {
  std::string text(200000, 'x');
  ChildOptions o = unbounded();
  o.stdinText = text;
  auto echoed = runShell("cat", o);
  ASSERT_TRUE(bool(echoed));
  EXPECT_EQ(echoed->out, text);
  o.stdinText.clear();
  o.maxOutputBytes = 1000;
  auto flood = runShell("yes", o);
  ASSERT_TRUE(bool(flood));
  EXPECT_TRUE(flood->outputOverflow);
  EXPECT_FALSE(flood->timedOut);
}

TEST(Process, StderrIsCapturedAndArgumentsNeedNoQuoting) {
  auto r = runProgram({"/bin/sh", "-c", "printf '%s' \"$0\" >&2", "a 'b' $c"},
                      unbounded());
  ASSERT_TRUE(bool(r));
  EXPECT_EQ(r->err, "a 'b' $c");
  auto missing = runProgram({"no-such-program-of-crosscheck"}, unbounded());
  ASSERT_TRUE(bool(missing));
  EXPECT_EQ(missing->exitCode, 127);
}

TEST(Process, OutputToAFileAndTheEnvironment) {
  std::string path = std::filesystem::temp_directory_path() /
                     ("cc-process-" + std::to_string(getpid()) + ".log");
  ChildOptions o = unbounded();
  o.outputPath = path;
  o.env = {{"CC_PROCESS_TEST", "value"}};
  ASSERT_TRUE(bool(runShell("echo $CC_PROCESS_TEST; echo err >&2", o)));
  o.appendOutput = true;
  ASSERT_TRUE(bool(runShell("echo again", o)));
  std::ifstream in(path);
  std::string all((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(all, "value\nerr\nagain\n");
  std::filesystem::remove(path);
}

TEST(Process, AnOutputFileIsNotWrittenThroughASymlink) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() /
                 ("cc-process-link-" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::create_symlink(dir / "target", dir / "out.log");
  ChildOptions o = unbounded();
  o.outputPath = (dir / "out.log").string();
  EXPECT_FALSE(bool(runShell("echo x", o)));
  EXPECT_FALSE(fs::exists(dir / "target"));
  fs::remove_all(dir);
}

TEST(Process, AnAllocationPastTheMemoryLimitIsOutOfMemory) {
  ChildOptions o;
  o.limits = {1e9, uint64_t(256) << 20};
  StageCell cell;
  o.cell = &cell;
  auto r = runChild(
      [&](int) {
        noteOutOfMemoryIn(cell);
        try {
          std::string big(size_t(1) << 30, 'x');
          return int(big.size() & 1);
        } catch (const std::bad_alloc &) {
          std::abort(); // dies of it, as a compiler does
        }
      },
      o);
  ASSERT_TRUE(bool(r));
  EXPECT_TRUE(cell.outOfMemory());
  EXPECT_TRUE(r->outOfMemory);
  EXPECT_EQ(memoryNote(*r, o.limits.memoryBytes),
            " (ran out of memory: limit 256 MiB)");
}

TEST(Process, ChildrenRunAtOnceEachWithItsOwnResult) {
  std::vector<ChildMain> mains;
  for (int i = 0; i < 4; ++i)
    mains.push_back([i](int fd) {
      writeAll(fd, std::to_string(i));
      return i;
    });
  auto results = runChildren(mains, unbounded());
  ASSERT_EQ(results.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(bool(results[size_t(i)]));
    EXPECT_EQ(results[size_t(i)]->out, std::to_string(i));
    EXPECT_EQ(results[size_t(i)]->exitCode, i);
  }
}

TEST(Process, TheStageCellTellsWhereAChildDied) {
  StageCell cell;
  ASSERT_TRUE(cell.ok());
  auto r = runChild(
      [&](int) {
        cell.setStage("pass canonicalize");
        raise(SIGABRT);
        return 0;
      },
      unbounded());
  ASSERT_TRUE(bool(r));
  EXPECT_EQ(r->signal, SIGABRT);
  EXPECT_EQ(cell.stage(), "pass canonicalize");
  EXPECT_FALSE(cell.outOfMemory());
}

TEST(Process, ABackgroundChildCanBeWatchedAndKilled) {
  auto child = Background::start([] {
    pause();
    return 0;
  });
  ASSERT_TRUE(bool(child));
  EXPECT_TRUE(child->running());
  child->kill(SIGKILL);
  EXPECT_EQ(child->wait(), 128 + SIGKILL);
  auto quick = Background::start([] { return 5; });
  ASSERT_TRUE(bool(quick));
  EXPECT_EQ(quick->wait(), 5);
}

TEST(Wire, ValuesRoundTripAndATruncatedMessageIsNotRead) {
  WireWriter w;
  w.u64(7).i64(-3).f64(2.5).str("two words");
  std::string bytes = w.bytes();
  WireReader r(bytes);
  EXPECT_EQ(r.u64(), 7u);
  EXPECT_EQ(r.i64(), -3);
  EXPECT_EQ(r.f64(), 2.5);
  EXPECT_EQ(r.str(), "two words");
  EXPECT_TRUE(r.done());
  WireReader cut(std::string_view(bytes).substr(0, bytes.size() - 1));
  cut.u64(), cut.i64(), cut.f64(), cut.str();
  EXPECT_FALSE(cut.ok());
  // A length longer than what is left is refused, not allocated.
  WireWriter huge;
  huge.u64(uint64_t(1) << 62);
  WireReader bad(huge.bytes());
  EXPECT_EQ(bad.str(), "");
  EXPECT_FALSE(bad.ok());
}

TEST(Wire, FramesOfAStreamAndOneCutShort) {
  std::string stream = frame("a") + frame("") + frame("ccc");
  EXPECT_EQ(frames(stream), (std::vector<std::string>{"a", "", "ccc"}));
  stream.pop_back();
  EXPECT_EQ(frames(stream), (std::vector<std::string>{"a", ""}));
  std::string buffer = frame("xy").substr(0, 9);
  EXPECT_FALSE(takeFrame(buffer));
  buffer += "y";
  EXPECT_EQ(takeFrame(buffer), "xy");
  EXPECT_TRUE(buffer.empty());
}

TEST(WorkerPool, WorkersAnswerAndADeadOneIsReportedAndReplaced) {
  WorkerPool pool(2, [](const std::string &request) {
    if (request == "die")
      raise(SIGKILL);
    return "re:" + request;
  });
  ASSERT_FALSE(pool.start());
  pool.submit(0, "a", 1e9);
  pool.submit(1, "die", 1e9);
  std::vector<WorkerPool::Event> seen;
  while (seen.size() < 2) {
    auto events = pool.wait(1);
    ASSERT_TRUE(bool(events)) << events.error().message();
    seen.insert(seen.end(), events->begin(), events->end());
  }
  for (const WorkerPool::Event &e : seen) {
    if (e.worker == 0) {
      EXPECT_EQ(e.kind, WorkerPool::Event::Reply);
      EXPECT_EQ(e.reply, "re:a");
    } else {
      EXPECT_EQ(e.kind, WorkerPool::Event::Died);
      EXPECT_EQ(e.signal, SIGKILL);
      EXPECT_EQ(e.how(), "worker killed by signal 9 (Killed)");
    }
  }
  // The replacement serves the next request.
  pool.submit(1, "b", 1e9);
  std::vector<WorkerPool::Event> next;
  while (next.empty()) {
    auto events = pool.wait(1);
    ASSERT_TRUE(bool(events));
    next = *events;
  }
  EXPECT_EQ(next[0].reply, "re:b");
}

} // namespace
