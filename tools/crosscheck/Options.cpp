#include "tools/crosscheck/Options.h"

#include <cctype>
#include <charconv>
#include <cstdint>
#include <cmath>

namespace cc::cli {

namespace {
const Flag kHelp{"--help", "-h", "", "show this help and exit"};

const Flag *findFlag(const Command &cmd, const std::string &name) {
  if (name == kHelp.name || name == kHelp.shortName)
    return &kHelp;
  for (const Flag &f : cmd.flags)
    if (f.name == name || (!f.shortName.empty() && f.shortName == name))
      return &f;
  return nullptr;
}
} // namespace

std::string Args::get(const std::string &flag, const std::string &fallback) const {
  auto it = values.find(flag);
  return it == values.end() || it->second.empty() ? fallback : it->second.back();
}

const std::vector<std::string> &Args::all(const std::string &flag) const {
  static const std::vector<std::string> none;
  auto it = values.find(flag);
  return it == values.end() ? none : it->second;
}

Expected<Args> parseArgs(const Command &cmd, const std::vector<std::string> &argv) {
  Args args;
  bool flagsDone = false;
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string &a = argv[i];
    if (flagsDone || a.size() < 2 || a[0] != '-') {
      args.positional.push_back(a);
      continue;
    }
    if (a == "--") {
      flagsDone = true;
      continue;
    }
    size_t eq = a.find('=');
    std::string name = a.substr(0, eq);
    const Flag *f = findFlag(cmd, name);
    if (!f)
      return makeError("unknown flag '" + name + "' (see --help)");
    std::string value;
    if (f->metavar.empty()) {
      if (eq != std::string::npos)
        return makeError("flag '" + f->name + "' takes no value");
    } else if (eq != std::string::npos) {
      value = a.substr(eq + 1);
    } else if (i + 1 < argv.size()) {
      value = argv[++i];
    } else {
      return makeError("flag '" + f->name + "' needs a value (" + f->metavar + ")");
    }
    if (args.values.count(f->name) && !f->repeatable)
      return makeError("flag '" + f->name + "' given more than once");
    args.values[f->name].push_back(value);
  }
  return args;
}

std::string helpText(const Command &cmd) {
  std::string s = "USAGE: " + cmd.usage + "\n\n" + cmd.description + "\n\nOPTIONS:\n";
  std::vector<Flag> flags = cmd.flags;
  flags.push_back(kHelp);
  for (const Flag &f : flags) {
    std::string head = "  " + f.name + (f.metavar.empty() ? "" : "=" + f.metavar);
    if (!f.shortName.empty())
      head += ", " + f.shortName + (f.metavar.empty() ? "" : " " + f.metavar);
    if (head.size() < 30)
      head.resize(30, ' ');
    else
      head += "\n" + std::string(30, ' ');
    s += head + f.help + (f.repeatable ? " (repeatable)" : "") + "\n";
  }
  if (!cmd.epilog.empty())
    s += "\n" + cmd.epilog + "\n";
  return s;
}

Expected<double> parseNumber(const std::string &flag, const std::string &text) {
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
    return makeError("flag '" + flag + "': '" + text + "' is not a number");
  return v;
}

Expected<uint64_t> parseUnsigned(const std::string &flag, const std::string &text) {
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size())
    return makeError("flag '" + flag + "': '" + text +
                     "' is not a non-negative integer");
  return v;
}

Expected<uint64_t> parseSize(const std::string &flag, const std::string &text) {
  int shift = 0;
  std::string number = text;
  if (!text.empty() && std::string("KkMmGg").find(text.back()) != std::string::npos) {
    char u = char(std::toupper(uint8_t(text.back())));
    shift = u == 'K' ? 10 : u == 'M' ? 20 : 30;
    number.pop_back();
  }
  CC_ASSIGN(v, parseUnsigned(flag, number));
  if (v > (UINT64_MAX >> shift))
    return makeError("flag '" + flag + "': '" + text + "' is too large");
  return v << shift;
}

Expected<uint64_t> parseMemoryLimit(const std::string &text) {
  CC_ASSIGN(bytes, parseSize("--memory-limit", text));
  if (bytes < (uint64_t(64) << 20))
    return makeError("flag '--memory-limit': at least 64M");
  return bytes;
}

} // namespace cc::cli
