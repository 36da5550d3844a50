// The finding file: a finding (oracles/TestCase.h) as crosscheck stores it,
// self-contained JSON that reproduces the failure without the campaign that
// found it. The campaign's store, the reducer and the bug reports all read
// this one form.
//
//   {"format": "crosscheck-finding", "version": 1,
//    "signature": {"kind": "miscompile", "backend": "mlir:tosa-O3",
//                  "stage": "", "detail": "add:f32:mismatch"},
//    "message": "...",
//    "case": {"cut": "mlir:tosa-O3", "timeout": 30, "memory": 4294967296,
//             "seed": 7, "index": 12,
//             "graph": {...graph JSON...}, "inputs": [{...tensor...}, ...]},
//    (or "program": {"name": "main", "mlir": "...", "args": ["tensor<..>"],
//                    "results": [...]} instead of "graph")
//    "log": "...", "evidence": {...},
//    "reduction": {"ops_before": 9, "ops_after": 2, "oracle_calls": 41,
//                  "budget_exhausted": false, "quick": false,
//                  "bisected": true, "culprit": "canonicalize"}}
//    ("reduction" only in a reduced case)
#pragma once

#include "oracles/TestCase.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace cc {

inline constexpr int kFindingFormatVersion = 1;

nlohmann::json signatureToJson(const Signature &s);
Expected<Signature> signatureFromJson(const nlohmann::json &j);

nlohmann::json testCaseToJson(const TestCase &c);
Expected<TestCase> testCaseFromJson(const nlohmann::json &j);

// Outputs as a JSON array of tensors (a finding's evidence).
nlohmann::json outputsToJson(const Outputs &outs);

nlohmann::json findingToJson(const FindingRecord &f);
Expected<FindingRecord> findingFromJson(const nlohmann::json &j);

// Reads a finding file; a path to a directory reads DIR/finding.json.
Expected<FindingRecord> loadFinding(const std::string &path);
Error saveFinding(const std::string &path, const FindingRecord &f);

} // namespace cc
