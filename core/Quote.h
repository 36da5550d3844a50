// Text from data (a finding, a store, a model, a compiler's output) made
// safe for the formats crosscheck writes. Each helper is total: any bytes
// in, text that the format reads back as exactly one word, one line or one
// span out (docs/SECURITY.md).
#pragma once

#include <string>
#include <string_view>

namespace cc {

// One word for /bin/sh: 'text', with each ' written as '\''.
std::string shellWord(std::string_view s);
// Text for one `# ...` comment line of a script: control characters
// (newlines included) become spaces.
std::string shellComment(std::string_view s);

// Plain Markdown text inside a line (a table cell, after a label): the
// characters that Markdown or HTML would read as markup there are escaped
// with a backslash or as entities, control characters become spaces.
std::string markdownText(std::string_view s);
// An inline code span that holds s: delimited by more backticks than any
// run in s, on one line.
std::string markdownCode(std::string_view s);
// A fenced code block that holds s (its last line ended): the fence is
// longer than any run of backticks in s.
std::string markdownBlock(std::string_view s, std::string_view language = "");

// Text for XML or HTML content and attributes: &, <, >, " and ' as
// entities; bytes that are not UTF-8, control characters and code points
// XML forbids (U+FFFE, U+FFFF) as U+FFFD or a space.
std::string xmlText(std::string_view s);

// Text for a terminal: valid UTF-8 with no control characters; each other
// byte is shown as \xNN, so an escape sequence is printed, not obeyed.
// Newlines and tabs stay.
std::string terminalText(std::string_view s);

// s with every byte that is not part of valid UTF-8 replaced by U+FFFD:
// what JSON may carry.
std::string validUtf8(std::string_view s);

} // namespace cc
