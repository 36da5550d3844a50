// Program findings (generated mid-level MLIR): the MLIR reducer over the
// program's text, every candidate judged by the case oracle.
#include "reducers/Internal.h"

#include "generators/Program.h"

#include <regex>

namespace cc::reduce {

namespace {
// The types of the program's function as its declaring line shows them,
// whatever the SSA names and the printer's parentheses: a candidate must
// keep them, or the case's inputs would no longer fit.
std::string signatureOf(const std::string &module, const std::string &name) {
  size_t at = module.find("func.func @" + name + "(");
  if (at == std::string::npos)
    return "";
  std::string line = module.substr(at, module.find('\n', at) - at);
  static const std::regex argName(R"(%[^:\s]+:)"), space(R"(\s+)");
  line = std::regex_replace(line, argName, "");
  line = std::regex_replace(line, space, "");
  if (line.ends_with("{"))
    line.pop_back();
  size_t arrow = line.find("->");
  if (arrow != std::string::npos && line[arrow + 2] == '(' &&
      line.back() == ')')
    line = line.substr(0, arrow + 2) +
           line.substr(arrow + 3, line.size() - arrow - 4);
  return line;
}
} // namespace

Error reduceProgram(CaseOracle &oracle, BestSoFar &best, ReduceStats &stats,
                    const ReduceOptions &options) {
  TestCase c = best.current();
  const std::string header = signatureOf(c.program->mlir, c.program->name);
  auto stillFails = [&](const std::string &text) {
    if (oracle.spent() || signatureOf(text, c.program->name) != header)
      return false;
    TestCase t = c;
    t.program->mlir = text;
    return oracle.same(t);
  };
  // The oracle forks per candidate itself; the MLIR reducer's threads
  // would share it.
  ReduceOptions one = options;
  one.jobs = 1;
  one.outDir.clear();
  auto r = reduceMlir(c.program->mlir, stillFails, one);
  if (!r) // the budget ran out before the first candidate: keep the case
    return Error::success();
  // Ops as the generator counts them: no constants, tensor.empty or
  // terminators.
  stats.opsBefore = int(programOps(c.program->mlir).size());
  stats.opsAfter = int(programOps(r->module).size());
  c.program->mlir = r->module;
  return best.update(c);
}

} // namespace cc::reduce
