#include "oracles/Verdict.h"

#include "backends/Backend.h"

#include <algorithm>
#include <cctype>
#include <cstring>
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
  auto it = std::search(
      haystack.begin(), haystack.end(), needle.begin(), needle.end(),
      [](char a, char b) { return std::tolower(uint8_t(a)) == b; });
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

// The symbol of one frame, "symbol(args) (file)" or "0xADDR symbol ...",
// without its argument list; empty when the frame cannot name the bug.
std::string frameSymbol(std::string frame) {
  if (frame.starts_with("0x"))
    frame = frame.substr(std::min(frame.find(' '), frame.size()));
  frame = frame.substr(std::min(frame.find_first_not_of(' '), frame.size()));
  std::string symbol = frame.substr(0, frame.find(" ("));
  symbol = symbol.substr(0, symbol.find('('));
  // A frame without a symbol ("libMLIR.so.22.1+0x2909") changes with
  // every build of the library: it cannot name the bug.
  if (symbol.empty() || isNoiseFrame(frame) ||
      symbol.find("+0x") != std::string::npos)
    return "";
  return symbol;
}

// The frames of the stack dumps in a compiler's words, innermost first:
// the lines "#N FRAME" of LLVM's "#N 0xADDR symbol ..." dump.
std::vector<std::string> dumpedFrames(const std::string &text) {
  std::vector<std::string> frames;
  size_t pos = 0;
  while ((pos = text.find('#', pos)) != std::string::npos) {
    size_t end = text.find('\n', pos);
    std::string line = text.substr(pos, end - pos);
    pos = end == std::string::npos ? text.size() : end;
    size_t sp = line.find(' ');
    if (sp != std::string::npos && sp >= 2 && std::isdigit(uint8_t(line[1])))
      frames.push_back(line.substr(sp + 1));
  }
  return frames;
}

// Up to three meaningful frames, innermost first: "a < b < c".
std::string topFrames(const std::vector<std::string> &frames) {
  std::string out;
  int n = 0;
  for (const std::string &frame : frames) {
    std::string symbol = frameSymbol(frame);
    if (symbol.empty())
      continue;
    out += (out.empty() ? "" : " < ") + symbol;
    if (++n == 3)
      break;
  }
  return out;
}

// The signal a failure's words name ("... signal 11 (...)"), or "signal".
std::string signalWords(const std::string &line) {
  size_t at = line.find("signal ");
  if (at == std::string::npos)
    return "signal";
  size_t end = line.find(')', at);
  return line.substr(at, end == std::string::npos ? 9 : end + 1 - at);
}

// A crash by its signal and top frames: those the backend recorded, else
// what the failure's words say.
std::string crashDetail(const CompilerFault &f, const std::string &message) {
  std::string signal, frames;
  if (f.kind == CompilerFault::Kind::Crashed) {
    std::vector<std::string> all = dumpedFrames(f.diagnostic);
    all.insert(all.end(), f.frames.begin(), f.frames.end());
    signal =
        "signal " + std::to_string(f.signal) + " (" + strsignal(f.signal) + ")";
    frames = topFrames(all);
  } else {
    signal = signalWords(oneLine(message));
    frames = topFrames(dumpedFrames(message));
  }
  return signal + (frames.empty() ? "" : " at " + frames);
}

// A crash, a hang or running out of memory is what the backend saw; a
// failure (a pass, the verifier, an exit status) is read from its words.
Kind kindOf(const CompilerFault &f, const std::string &message) {
  if (f.kind == CompilerFault::Kind::TimedOut)
    return Kind::Timeout;
  // A crash's stack may name the verifier: the crash comes first.
  if (f.kind == CompilerFault::Kind::Crashed || f.outOfMemory ||
      contains(message, "crashed with signal"))
    return Kind::Crash;
  if (contains(message, "verif"))
    return Kind::Verifier;
  if (contains(message, "crash") || contains(message, "signal") ||
      contains(message, "core dumped"))
    return Kind::Crash;
  return Kind::PassFailure;
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
                               const Error &failure) {
  // A failure that carries no facts says only whether it timed out.
  CompilerFault fault;
  if (const CompilerFault *carried = failure.detail<CompilerFault>())
    fault = *carried;
  else if (failure.code() == ErrorCode::Timeout)
    fault.kind = CompilerFault::Kind::TimedOut;
  const std::string &message = failure.message();
  Kind kind = kindOf(fault, message);
  // What makes two failures the same bug (DESIGN.md): a crash by its
  // signal and top frames, a hang by where it hung, a verifier or pass
  // failure by the message's template.
  std::string detail;
  if (fault.outOfMemory)
    detail = "out of memory";
  else if (kind == Kind::Timeout)
    detail = "hang";
  else if (kind == Kind::Crash)
    detail = crashDetail(fault, message);
  else
    detail = messageTemplate(message);
  Signature sig{kind, backend, fault.stage, detail};
  return Finding{sig, std::string(kindName(kind)) + ": " + oneLine(message)};
}

} // namespace cc
