// Text from data in Markdown, XML and on a terminal: markup, escapes and
// bytes that are not UTF-8 come out as text.
#include "core/Quote.h"
#include "core/Json.h"

#include <gtest/gtest.h>

namespace cc {
namespace {

TEST(Quote, MarkdownTextCannotMakeMarkup) {
  std::string md = markdownText("# x\n| fake | row |\n![img](http://e/x.png) "
                                "<script>*b*</script>`c`");
  EXPECT_EQ(md.find('\n'), std::string::npos) << md;
  EXPECT_EQ(md.find("<script>"), std::string::npos) << md;
  EXPECT_EQ(md.find("!["), std::string::npos) << md;
  for (size_t i = 0; i < md.size(); ++i) {
    if (md[i] == '|' || md[i] == '`' || md[i] == '*') {
      EXPECT_EQ(md[i - 1], '\\') << md << " at " << i;
    }
  }
}

TEST(Quote, MarkdownCodeHoldsAnyRunOfBackticks) {
  EXPECT_EQ(markdownCode("canonicalize"), "`canonicalize`");
  EXPECT_EQ(markdownCode("a``b"), "```a``b```");
  EXPECT_EQ(markdownCode("`x"), "`` `x ``");
  std::string block = markdownBlock("```\n# not a heading\n```", "sh");
  EXPECT_EQ(block.substr(0, 6), "````sh");
  EXPECT_EQ(block.substr(block.size() - 5), "````\n");
}

TEST(Quote, XmlTextIsWellFormedWhateverTheBytes) {
  EXPECT_EQ(xmlText("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;");
  // U+FFFF, a lone 0xFF byte and a control character.
  EXPECT_EQ(xmlText("\xEF\xBF\xBF|\xFF|\x01"), "\xEF\xBF\xBD|\xEF\xBF\xBD| ");
  EXPECT_EQ(xmlText("caf\xC3\xA9"), "caf\xC3\xA9"); // valid UTF-8 stays
}

TEST(Quote, TerminalTextShowsEscapesInsteadOfObeyingThem) {
  EXPECT_EQ(terminalText("graph \x1b[2J\x1b]0;pwned\x07 ok\n"),
            "graph \\x1B[2J\\x1B]0;pwned\\x07 ok\n");
  EXPECT_EQ(terminalText("\xC2\x9B"
                         "31m"),
            "\\xC2\\x9B31m"); // C1 CSI
  EXPECT_EQ(terminalText("\xFF"), "\\xFF");
  EXPECT_EQ(terminalText("\xCE\xBB x"), "\xCE\xBB x");
}

TEST(Quote, JsonTextCarriesBytesThatAreNotUtf8) {
  nlohmann::json j = {{"message", std::string("\xFF\xFE garbage")}};
  EXPECT_EQ(jsonText(j), "{\"message\":\"\xEF\xBF\xBD\xEF\xBF\xBD garbage\"}");
  EXPECT_EQ(validUtf8("\xE2\x82"), "\xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST(Quote, DeepJsonIsRefusedBeforeItIsParsed) {
  std::string deep(200000, '[');
  auto j = parseJson(deep + std::string(200000, ']'));
  ASSERT_FALSE(bool(j));
  EXPECT_NE(j.error().message().find("nested deeper than"), std::string::npos);
  // Brackets inside strings do not count.
  EXPECT_TRUE(bool(parseJson("{\"s\": \"" + deep + "\"}")));
}

TEST(Quote, AFieldOfTheWrongTypeIsAnErrorNamingIt) {
  nlohmann::json j =
      nlohmann::json::parse(R"({"message": 5, "timeout": "thirty", "n": 3})");
  auto m = jsonField<std::string>(j, "message", "");
  ASSERT_FALSE(bool(m));
  EXPECT_EQ(m.error().message(),
            "field 'message' must be a string, not number");
  auto t = jsonField(j, "timeout", 30.0);
  ASSERT_FALSE(bool(t));
  EXPECT_NE(t.error().message().find("'timeout'"), std::string::npos);
  EXPECT_EQ(*jsonField(j, "n", uint64_t(0)), 3u);
  EXPECT_EQ(*jsonField<std::string>(j, "absent", "x"), "x");
}

} // namespace
} // namespace cc
