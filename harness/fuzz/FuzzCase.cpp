// The fuzz input's bytes (see FuzzCase.h): a compact JSON object, or for
// any other bytes a graph generated from them.
#include "harness/fuzz/FuzzCase.h"

#include "core/Json.h"
#include "generators/Topology.h"
#include "harness/fuzz/Mutations.h"

namespace cc::fuzz {

using nlohmann::json;

namespace {

uint64_t fnv1a(const uint8_t *data, size_t size) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < size; ++i)
    h = (h ^ data[i]) * 1099511628211ull;
  return h;
}

// A small graph that always exists: the last resort of decodeCase.
Graph fallbackGraph() {
  Graph g;
  g.name = "fuzz";
  TensorType t{DType::f32, {2, 3}};
  ValueId a = g.addInput("a", t), b = g.addInput("b", t);
  g.addOutput(*g.add(OpId::Add, {a, b}));
  return g;
}
} // namespace

// The generator's options and seed taken from the bytes: the first bytes
// choose the family, the op count and a dtype, the hash the seed.
Graph generatedFromBytes(const uint8_t *data, size_t size) {
  auto byte = [&](size_t i) { return i < size ? data[i] : uint8_t(0); };
  GenOptions o;
  std::vector<std::string> families = familyNames();
  o.family = Family(byte(0) % families.size());
  o.minOps = 3;
  o.maxOps = 3 + byte(1) % 10;
  static const DType kDTypes[] = {DType::f32, DType::f16, DType::bf16,
                                  DType::i32, DType::i8,  DType::i16};
  if (byte(2) % 4 == 0)
    o.dtypes = {kDTypes[byte(3) % std::size(kDTypes)]};
  uint64_t seed = fnv1a(data, size);
  for (int attempt = 0; attempt < 3; ++attempt) {
    auto g = generateGraph(o, seed + uint64_t(attempt));
    if (g && acceptableGraph(*g)) {
      g->name = "fuzz";
      return std::move(*g);
    }
    o = GenOptions{}; // plain options admit a graph
    o.maxOps = 8;
  }
  return fallbackGraph();
}

std::string encodeCase(const FuzzCase &c) {
  json j = {{"graph", graphToJson(c.graph)},
            {"input_seed", c.inputSeed},
            {"cut", c.cut}};
  return jsonText(j);
}

FuzzCase decodeCase(const uint8_t *data, size_t size) {
  FuzzCase c;
  json j = json::parse(data, data + size, nullptr, false);
  if (j.is_object() && j.contains("graph")) {
    auto g = graphFromJson(j["graph"]);
    if (g && acceptableGraph(*g)) {
      c.graph = std::move(*g);
      if (j.value("input_seed", json()).is_number_unsigned())
        c.inputSeed = j["input_seed"].get<uint64_t>();
      if (j.value("cut", json()).is_number_unsigned())
        c.cut = j["cut"].get<uint32_t>();
      return c;
    }
  }
  c.graph = generatedFromBytes(data, size);
  c.inputSeed = fnv1a(data, size) >> 1;
  c.cut = size ? data[size - 1] : 0;
  return c;
}

} // namespace cc::fuzz
