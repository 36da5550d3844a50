#include "oracles/Verdict.h"

#include "backends/Backend.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace cc {

namespace {
constexpr std::pair<Kind, std::string_view> kKindNames[] = {
    {Kind::Crash, "crash"},
    {Kind::Timeout, "timeout"},
    {Kind::Verifier, "verifier"},
    {Kind::PassFailure, "pass-failure"},
    {Kind::Miscompile, "miscompile"},
    {Kind::TvIncorrect, "tv-incorrect"},
    {Kind::RefDisagreement, "reference-disagreement"},
};

bool contains(const std::string &haystack, std::string_view needle) {
  auto it = std::search(haystack.begin(), haystack.end(), needle.begin(),
                        needle.end(), [](char a, char b) {
                          return std::tolower(uint8_t(a)) == b;
                        });
  return it != haystack.end();
}

// Findings are reported on one line: compiler diagnostics and stderr tails
// are folded into it.
std::string oneLine(const std::string &message) {
  std::string out;
  for (char c : message) {
    bool space = std::isspace(uint8_t(c));
    if (space && (out.empty() || out.back() == ' '))
      continue;
    out += space ? ' ' : c;
  }
  while (!out.empty() && out.back() == ' ')
    out.pop_back();
  return out;
}

// A message without numbers (addresses, line numbers, sizes), so that the
// same failure on different graphs gets the same signature.
std::string stableDetail(const std::string &message) {
  std::string out;
  for (size_t i = 0; i < message.size() && out.size() < 160; ++i) {
    if (!std::isdigit(uint8_t(message[i]))) {
      out += message[i];
      continue;
    }
    bool hex = message.compare(i, 2, "0x") == 0;
    i += hex ? 2 : 0;
    while (i + 1 < message.size() &&
           (hex ? std::isxdigit(uint8_t(message[i + 1]))
                : std::isdigit(uint8_t(message[i + 1]))))
      ++i;
    out += '#';
  }
  return out;
}
// The stage the MLIR backend names: "pass NAME failed", "... in pass NAME",
// "... in execute" (JIT-compiled code), "in jit" (LLVM); empty if none.
std::string stageOf(const std::string &line) {
  auto wordAfter = [&](const std::string &prefix) -> std::string {
    size_t at = line.find(prefix);
    if (at == std::string::npos)
      return "";
    size_t begin = at + prefix.size();
    return line.substr(begin, line.find(' ', begin) - begin);
  };
  if (line.starts_with("pass "))
    return wordAfter("pass ");
  if (std::string pass = wordAfter(" in pass "); !pass.empty())
    return pass;
  for (const char *stage : {"execute", "jit", "parse", "teardown"})
    if (line.find(std::string(" in ") + stage + " ") != std::string::npos)
      return stage;
  return "";
}

// The last compiler diagnostic ("error: MSG") as a template: numbers and
// SSA names blanked, so that one bug on different graphs reads the same.
// The last one: a pass may emit errors it recovers from ("NYI: ...") before
// the one that fails it, and an external tool's stderr is kept by its tail.
std::string messageTemplate(const std::string &message) {
  size_t at = message.rfind("error: ");
  std::string text = at == std::string::npos ? message : message.substr(at + 7);
  text = text.substr(0, std::min(text.find('\n'), text.find(" note:")));
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    out += text[i];
    if (text[i] == '%')
      while (i + 1 < text.size() &&
             (std::isalnum(uint8_t(text[i + 1])) || text[i + 1] == '_'))
        ++i;
  }
  return stableDetail(out.substr(0, 120));
}

// Frames that say nothing about where the compiler broke: the C library's
// abort path, signal handlers and LLVM's own crash reporting.
bool isNoiseFrame(const std::string &frame) {
  for (const char *noise :
       {"raise", "abort", "gsignal", "__GI_", "__restore_rt", "libc.so",
        "PrintStackTrace", "SignalHandler", "RunSignalHandlers",
        "__assert_fail", "_start", "__libc_start", "onCrash", "(no file"})
    if (frame.find(noise) != std::string::npos)
      return true;
  return false;
}

// Up to three meaningful frames of the stack in a crash message, innermost
// first: our isolated worker's "#N symbol (file)" lines, or LLVM's
// "#N 0xADDR symbol ..." stack dump from an external tool.
std::string topFrames(const std::string &message) {
  std::vector<std::string> frames;
  size_t pos = 0;
  while (frames.size() < 3 && (pos = message.find('#', pos)) != std::string::npos) {
    size_t end = message.find('\n', pos);
    std::string line = message.substr(pos, end - pos);
    pos = end == std::string::npos ? message.size() : end;
    size_t sp = line.find(' ');
    if (sp == std::string::npos || sp < 2 || !std::isdigit(uint8_t(line[1])))
      continue;
    std::string frame = line.substr(sp + 1);
    if (frame.starts_with("0x"))
      frame = frame.substr(std::min(frame.find(' '), frame.size()));
    frame = frame.substr(frame.find_first_not_of(' ') == std::string::npos
                             ? frame.size()
                             : frame.find_first_not_of(' '));
    // "symbol (file)": the symbol without its argument list.
    std::string symbol = frame.substr(0, frame.find(" ("));
    symbol = symbol.substr(0, symbol.find('('));
    // A frame without a symbol ("libMLIR.so.22.1+0x2909") changes with
    // every build of the library: it cannot name the bug.
    if (symbol.empty() || isNoiseFrame(frame) ||
        symbol.find("+0x") != std::string::npos)
      continue;
    frames.push_back(symbol);
  }
  std::string out;
  for (const std::string &f : frames)
    out += (out.empty() ? "" : " < ") + f;
  return out;
}

// The signal a crash message names: "crashed with signal 11 (...)".
std::string signalOf(const std::string &message) {
  size_t at = message.find("signal ");
  if (at == std::string::npos)
    return "signal";
  size_t end = message.find(')', at);
  return message.substr(at, end == std::string::npos ? 9 : end + 1 - at);
}
} // namespace

std::string_view kindName(Kind k) {
  for (const auto &[kind, name] : kKindNames)
    if (kind == k)
      return name;
  return "?";
}

std::optional<Kind> parseKind(std::string_view name) {
  for (const auto &[kind, n] : kKindNames)
    if (n == name)
      return kind;
  return std::nullopt;
}

std::string Signature::str() const {
  return std::string(kindName(kind)) + "|" + backend + "|" + stage + "|" +
         detail;
}

Finding compilerFailureFinding(const std::string &backend,
                               const std::string &errorCode,
                               const std::string &message) {
  Kind kind = Kind::PassFailure;
  bool outOfMemory = contains(message, kOutOfMemory);
  // A crash's stack may name the verifier: the crash comes first.
  if (errorCode == ErrorCode::Timeout)
    kind = Kind::Timeout;
  else if (outOfMemory || contains(message, "crashed with signal"))
    kind = Kind::Crash;
  else if (contains(message, "verif"))
    kind = Kind::Verifier;
  else if (contains(message, "crash") || contains(message, "signal") ||
           contains(message, "core dumped"))
    kind = Kind::Crash;
  std::string line = oneLine(message);
  // What makes two failures the same bug (DESIGN.md): a crash by its
  // signal and top frames, a hang by where it hung, a verifier or pass
  // failure by the message's template.
  std::string detail;
  if (outOfMemory)
    detail = "out of memory";
  else if (kind == Kind::Timeout)
    detail = "hang";
  else if (kind == Kind::Crash) {
    std::string frames = topFrames(message);
    detail = signalOf(line) + (frames.empty() ? "" : " at " + frames);
  } else
    detail = messageTemplate(message);
  Signature sig{kind, backend, stageOf(line), detail};
  return Finding{sig, std::string(kindName(kind)) + ": " + line};
}

} // namespace cc
