#include "oracles/Verdict.h"

#include "backends/Backend.h"

#include <algorithm>
#include <cctype>

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
  for (const char *stage : {"execute", "jit", "parse"})
    if (line.find(std::string(" in ") + stage + " ") != std::string::npos)
      return stage;
  return "";
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
  // A crash's stack may name the verifier: the crash comes first.
  if (errorCode == ErrorCode::Timeout)
    kind = Kind::Timeout;
  else if (contains(message, "crashed with signal"))
    kind = Kind::Crash;
  else if (contains(message, "verif"))
    kind = Kind::Verifier;
  else if (contains(message, "crash") || contains(message, "signal") ||
           contains(message, "core dumped"))
    kind = Kind::Crash;
  std::string line = oneLine(message);
  Signature sig{kind, backend, stageOf(line), stableDetail(line)};
  return Finding{sig, std::string(kindName(kind)) + ": " + line};
}

} // namespace cc
