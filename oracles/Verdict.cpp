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

// A crash by its signal and top frames: those of the compiler's own stack
// dump (in its stderr) and those crosscheck's worker recorded.
std::string crashDetail(const CompilerFault &f) {
  std::vector<std::string> all = dumpedFrames(f.diagnostic);
  all.insert(all.end(), f.frames.begin(), f.frames.end());
  std::string frames = topFrames(all);
  return "signal " + std::to_string(f.signal) + " (" + strsignal(f.signal) +
         ")" + (frames.empty() ? "" : " at " + frames);
}

// The finding's kind is the fault's: what the backend saw, never its words.
Kind kindOf(const CompilerFault &f) {
  switch (f.kind) {
  case CompilerFault::Kind::TimedOut:
    return Kind::Timeout;
  case CompilerFault::Kind::Crashed:
  case CompilerFault::Kind::OutOfMemory:
    return Kind::Crash;
  case CompilerFault::Kind::VerifierFailed:
    return Kind::Verifier;
  case CompilerFault::Kind::PassFailed:
  case CompilerFault::Kind::Failed:
    break;
  }
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
  // A failure that carries no fault says only whether it timed out.
  CompilerFault fault;
  if (const CompilerFault *carried = failure.detail<CompilerFault>())
    fault = *carried;
  else if (failure.code() == ErrorCode::Timeout)
    fault.kind = CompilerFault::Kind::TimedOut;
  const std::string &message = failure.message();
  Kind kind = kindOf(fault);
  // What makes two failures the same bug: a crash by its signal and top
  // frames, a hang by where it hung, a verifier or pass failure by the
  // template of the compiler's last diagnostic.
  std::string detail;
  if (fault.kind == CompilerFault::Kind::OutOfMemory)
    detail = "out of memory";
  else if (kind == Kind::Timeout)
    detail = "hang";
  else if (kind == Kind::Crash)
    detail = crashDetail(fault);
  else
    detail = messageTemplate(message);
  Signature sig{kind, backend, fault.stage, detail};
  return Finding{sig, std::string(kindName(kind)) + ": " + oneLine(message)};
}

} // namespace cc
