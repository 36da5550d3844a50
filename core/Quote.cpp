#include "core/Quote.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace cc {

namespace {

constexpr const char *kReplacement = "\xEF\xBF\xBD"; // U+FFFD

// The length of the valid UTF-8 sequence at s[i] and its code point; 0
// when the bytes there are not one (overlong forms and surrogates
// included).
size_t utf8At(std::string_view s, size_t i, uint32_t &cp) {
  auto byte = [&](size_t k) { return uint8_t(s[k]); };
  uint8_t b = byte(i);
  size_t n = b < 0x80         ? 1
             : (b >> 5) == 6  ? 2
             : (b >> 4) == 14 ? 3
             : (b >> 3) == 30 ? 4
                              : 0;
  if (n == 0 || i + n > s.size())
    return 0;
  cp = n == 1 ? b : b & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80)
      return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  static const uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  bool bad = cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF);
  return bad ? 0 : n;
}

// Calls emit(code point, its bytes) for each valid sequence and
// emit(-1, one byte) for each byte that is not part of one.
template <typename F> void eachChar(std::string_view s, F emit) {
  for (size_t i = 0; i < s.size();) {
    uint32_t cp = 0;
    size_t n = utf8At(s, i, cp);
    if (n == 0) {
      emit(int64_t(-1), s.substr(i, 1));
      ++i;
    } else {
      emit(int64_t(cp), s.substr(i, n));
      i += n;
    }
  }
}

bool isControl(int64_t cp) { return cp < 0x20 || cp == 0x7F; }

size_t longestBacktickRun(std::string_view s) {
  size_t longest = 0, run = 0;
  for (char c : s) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

std::string oneLine(std::string_view s) {
  std::string out;
  eachChar(s, [&](int64_t cp, std::string_view bytes) {
    out += cp < 0 ? kReplacement : isControl(cp) ? " " : std::string(bytes);
  });
  return out;
}

} // namespace

std::string shellWord(std::string_view s) {
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string shellComment(std::string_view s) {
  std::string out(s);
  for (char &c : out)
    if (uint8_t(c) < 0x20 || c == 0x7F)
      c = ' ';
  return out;
}

std::string markdownText(std::string_view s) {
  std::string out;
  for (char c : oneLine(s)) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else if (std::string_view("\\`*_[]|~").find(c) != std::string_view::npos ||
             // A heading or a list item, were the text to start a line.
             (out.empty() && (c == '#' || c == '-' || c == '+')))
      out += std::string("\\") + c;
    else
      out += c;
  }
  return out;
}

std::string markdownCode(std::string_view s) {
  std::string text = oneLine(s);
  std::string ticks(longestBacktickRun(text) + 1, '`');
  // A space on each side (which Markdown strips) keeps a backtick at
  // either end off the delimiters.
  bool pad = !text.empty() && (text.front() == '`' || text.back() == '`');
  std::string space = pad ? " " : "";
  return ticks + space + text + space + ticks;
}

std::string markdownBlock(std::string_view s, std::string_view language) {
  std::string fence(std::max<size_t>(3, longestBacktickRun(s) + 1), '`');
  std::string body = validUtf8(s);
  if (!body.empty() && body.back() != '\n')
    body += '\n';
  return fence + std::string(language) + "\n" + body + fence + "\n";
}

std::string xmlText(std::string_view s) {
  std::string out;
  eachChar(s, [&](int64_t cp, std::string_view bytes) {
    if (cp < 0 || cp == 0xFFFE || cp == 0xFFFF)
      out += kReplacement;
    else if (cp == '&')
      out += "&amp;";
    else if (cp == '<')
      out += "&lt;";
    else if (cp == '>')
      out += "&gt;";
    else if (cp == '"')
      out += "&quot;";
    else if (cp == '\'')
      out += "&#39;";
    else if (isControl(cp) && cp != '\n' && cp != '\t')
      out += ' ';
    else
      out += bytes;
  });
  return out;
}

std::string terminalText(std::string_view s) {
  std::string out;
  eachChar(s, [&](int64_t cp, std::string_view bytes) {
    if (cp >= 0 && (!isControl(cp) || cp == '\n' || cp == '\t') &&
        !(cp >= 0x80 && cp < 0xA0)) {
      out += bytes;
      return;
    }
    for (char b : bytes) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X", unsigned(uint8_t(b)));
      out += hex;
    }
  });
  return out;
}

std::string validUtf8(std::string_view s) {
  std::string out;
  eachChar(s, [&](int64_t cp, std::string_view bytes) {
    out += cp < 0 ? std::string(kReplacement) : std::string(bytes);
  });
  return out;
}

} // namespace cc
