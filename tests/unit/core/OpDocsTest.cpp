// docs/OPS.md's op reference is the op table's own (crosscheck ops
// --markdown): an op whose entry changed without its documentation fails.
#include "core/File.h"
#include "core/OpTable.h"

#include <gtest/gtest.h>

using namespace cc;

namespace {

TEST(OpDocs, OpsMdHoldsTheGeneratedReference) {
  auto text = readFile(std::string(CC_SOURCE_DIR) + "/docs/OPS.md");
  ASSERT_TRUE(bool(text)) << text.error().message();
  const std::string begin = "edit the op table, not this -->\n";
  const std::string end = "<!-- end of the generated part -->";
  size_t b = text->find(begin), e = text->find(end);
  ASSERT_NE(b, std::string::npos);
  ASSERT_NE(e, std::string::npos);
  b += begin.size();
  EXPECT_EQ(text->substr(b, e - b), "\n" + opReferenceMarkdown() + "\n")
      << "docs/OPS.md is out of date: run `crosscheck ops --update "
         "docs/OPS.md`";
}

TEST(OpDocs, EveryOpIsListedWithItsDTypes) {
  std::string md = opReferenceMarkdown();
  for (const OpDef &op : allOps()) {
    EXPECT_NE(md.find("| " + op.name + " | " + op.summary), std::string::npos)
        << op.name;
    EXPECT_NE(md.find("| " + op.name + " |"), std::string::npos) << op.name;
  }
}

} // namespace
