#include "tools/crosscheck/Options.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <utility>

namespace cc::cli {

namespace {
const Flag kHelp{"--help", "-h", "", "show this help and exit"};

const Flag *findFlag(const std::vector<Flag> &flags, const std::string &name) {
  if (name == kHelp.name || name == kHelp.shortName)
    return &kHelp;
  for (const Flag &f : flags)
    if (f.name == name || (!f.shortName.empty() && f.shortName == name))
      return &f;
  return nullptr;
}
} // namespace

const std::vector<std::string> &Args::all(const std::string &flag) const {
  static const std::vector<std::string> none;
  auto it = values.find(flag);
  return it == values.end() ? none : it->second;
}

Expected<Args> parseArgs(const std::vector<Flag> &flags,
                         const std::vector<std::string> &argv) {
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
    const Flag *f = findFlag(flags, name);
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
      return makeError("flag '" + f->name + "' needs a value (" + f->metavar +
                       ")");
    }
    if (args.values.count(f->name) && !f->repeatable)
      return makeError("flag '" + f->name + "' given more than once");
    args.values[f->name].push_back(value);
  }
  return args;
}

std::string helpText(const std::string &usage, const std::string &description,
                     const std::vector<Flag> &flags,
                     const std::string &epilog) {
  std::string s = "USAGE: " + usage + "\n\n" + description + "\n\nOPTIONS:\n";
  std::vector<Flag> all = flags;
  all.push_back(kHelp);
  for (const Flag &f : all) {
    std::string head =
        "  " + f.name + (f.metavar.empty() ? "" : "=" + f.metavar);
    if (!f.shortName.empty())
      head += ", " + f.shortName + (f.metavar.empty() ? "" : " " + f.metavar);
    if (head.size() < 30)
      head.resize(30, ' ');
    else
      head += "\n" + std::string(30, ' ');
    s += head + f.help + (f.repeatable ? " (repeatable)" : "") + "\n";
  }
  if (!epilog.empty())
    s += "\n" + epilog + "\n";
  return s;
}

Expected<std::string> parseText(const std::string &, const std::string &text) {
  return text;
}

Expected<double> parseNumber(const std::string &flag, const std::string &text) {
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() ||
      !std::isfinite(v))
    return makeError("flag '" + flag + "': '" + text + "' is not a number");
  return v;
}

Expected<uint64_t> parseUnsigned(const std::string &flag,
                                 const std::string &text) {
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
  if (!text.empty() &&
      std::string("KkMmGg").find(text.back()) != std::string::npos) {
    char u = char(std::toupper(uint8_t(text.back())));
    shift = u == 'K' ? 10 : u == 'M' ? 20 : 30;
    number.pop_back();
  }
  CC_ASSIGN(v, parseUnsigned(flag, number));
  if (v > (UINT64_MAX >> shift))
    return makeError("flag '" + flag + "': '" + text + "' is too large");
  return v << shift;
}

Expected<uint64_t> parseCount(const std::string &flag, const std::string &text,
                              uint64_t min, uint64_t max) {
  CC_ASSIGN(v, parseUnsigned(flag, text));
  if (v >= min && v <= max)
    return v;
  std::string problem =
      max == UINT64_MAX ? "must be positive"
      : min == 0
          ? std::to_string(v) + " exceeds the limit of " + std::to_string(max)
          : "must be between " + std::to_string(min) + " and " +
                std::to_string(max);
  return makeError("flag '" + flag + "': " + problem);
}

Expected<double> parsePositive(const std::string &flag,
                               const std::string &text) {
  CC_ASSIGN(v, parseNumber(flag, text));
  if (v <= 0)
    return makeError("flag '" + flag + "': must be positive");
  return v;
}

Expected<double> parseShare(const std::string &flag, const std::string &text) {
  CC_ASSIGN(v, parseNumber(flag, text));
  if (v < 0 || v > 1)
    return makeError("flag '" + flag + "': must be between 0 and 1");
  return v;
}

Expected<double> parseDuration(const std::string &flag,
                               const std::string &text) {
  if (text.empty())
    return makeError("flag '" + flag + "': empty duration");
  double unit = 1;
  std::string number = text;
  switch (text.back()) {
  case 's':
    unit = 1;
    number.pop_back();
    break;
  case 'm':
    unit = 60;
    number.pop_back();
    break;
  case 'h':
    unit = 3600;
    number.pop_back();
    break;
  default:
    break;
  }
  CC_ASSIGN(v, parseNumber(flag, number));
  if (v <= 0)
    return makeError("flag '" + flag + "': must be positive, got '" + text +
                     "'");
  return v * unit;
}

Expected<uint64_t> parseMemoryLimit(const std::string &flag,
                                    const std::string &text) {
  CC_ASSIGN(bytes, parseSize(flag, text));
  if (bytes < (uint64_t(64) << 20))
    return makeError("flag '" + flag + "': at least 64M");
  return bytes;
}

Expected<std::string> parseChoice(const std::string &flag,
                                  const std::string &text,
                                  const std::vector<std::string> &choices) {
  std::string expected;
  for (size_t i = 0; i < choices.size(); ++i) {
    if (text == choices[i])
      return text;
    expected += (i == 0                    ? ""
                 : i + 1 == choices.size() ? " or "
                                           : ", ") +
                choices[i];
  }
  return makeError("flag '" + flag + "': expected " + expected + ", got '" +
                   text + "'");
}

std::vector<std::string> splitList(const std::string &text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string item = text.substr(start, comma - start);
    if (!item.empty())
      out.push_back(item);
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  return out;
}

std::string showNumber(double v) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, end);
}

// In the largest unit that gives a whole number of 2 or more: 20s, 60s, 10m.
std::string showDuration(double seconds) {
  for (auto [unit, suffix] : {std::pair{3600.0, "h"}, std::pair{60.0, "m"}})
    if (seconds >= 2 * unit && std::fmod(seconds, unit) == 0)
      return showNumber(seconds / unit) + suffix;
  return showNumber(seconds) + "s";
}

std::string showSize(uint64_t bytes) {
  for (auto [shift, suffix] :
       {std::pair{30, "G"}, std::pair{20, "M"}, std::pair{10, "K"}})
    if (bytes != 0 && bytes % (uint64_t(1) << shift) == 0)
      return std::to_string(bytes >> shift) + suffix;
  return std::to_string(bytes);
}

} // namespace cc::cli
