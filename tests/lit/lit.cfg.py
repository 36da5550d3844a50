# lit configuration of crosscheck's tool tests.
#   %crosscheck      the crosscheck binary
#   %corpus          the seed corpus (corpus/seeds)
#   %inputs          tests/lit/Inputs (bad graphs and other fixtures)
#   %regressions     corpus/regressions (upstream bugs, with reproducers)
#   %expect-exit N   runs the rest of the line and succeeds only if it exits
#                    with status N (lit's `not` accepts any non-zero status)
import os
import shutil
import sys

import lit.formats

config.name = "crosscheck"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = config.cc_lit_obj_root

# FileCheck and not from the same LLVM as the MLIR we link.
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])

here = config.test_source_root
config.substitutions.append(("%crosscheck-opt", config.crosscheck_opt))
config.substitutions.append(("%detect-bench", config.detect_bench))
config.substitutions.append(("%crosscheck", config.crosscheck))
config.substitutions.append(("%corpus", config.corpus_dir))
config.substitutions.append(("%inputs", os.path.join(here, "Inputs")))
config.substitutions.append(
    ("%regressions", os.path.join(here, "..", "..", "corpus", "regressions")))
# The test-only mutant passes (CC_INCLUDE_MUTANTS).
if config.mutants:
    config.available_features.add("mutants")
# MLIR 19's mlir-opt, an external compiler for the MLIR 19 regressions.
if shutil.which("mlir-opt-19"):
    config.available_features.add("mlir-opt-19")
config.substitutions.append(
    ("%expect-exit", '"%s" "%s"' % (sys.executable,
                                    os.path.join(here, "expect_exit.py"))))
