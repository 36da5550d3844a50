// Precision variants of a float graph: the same computation in f16, bf16, a
// mix of both with f32, or quantized to int8 / int16.
//
// Every variant is rebuilt node by node through Graph::add, so it is valid by
// construction (the op table's type rules decide where casts go).
//
// F16, BF16  every float value in that dtype; an op whose TOSA form gives
//            another dtype (bf16 matmul -> f32) is followed by a cast back.
// Mixed      f16 or bf16 regions with f32 islands: accumulating ops
//            (OpDef::accumulates: matmul, convolutions, reduce_sum/product,
//            avg_pool2d) run in f32, the others follow their producer or
//            switch at a random boundary; casts are inserted where regions
//            meet.
// Int8/Int16 post-training quantization calibrated on the reference: every
//            float value v gets a scale s and zero point z (int8:
//            asymmetric; int16: z = 0, as TOSA requires) with v ~ s*(q - z).
//
// How the quantized variants express each op:
//
// clang-format off
// | op                                         | int8                     | int16           |
// |--------------------------------------------|--------------------------|-----------------|
// | const (float)                              | quantized constant       | same            |
// | matmul                                     | i8 x i8 -> i32 with a_zp/b_zp, rescale to i8 | dequantize |
// | conv2d, depthwise_conv2d                   | i8, i32 bias, input_zp, per-channel weights and per-channel rescale (conv2d) | dequantize |
// | add, sub                                   | rescale both to i32 at a common scale, add/sub in i32, rescale back | same |
// | concat                                     | second operands rescaled to the first's scale, op on integers | same |
// | clamp                                      | bounds quantized         | same            |
// | reshape, transpose, slice, reverse, tile, max_pool2d, gather (values): OpDef::keepsQuantScale | on integers, scale kept | same |
// | every other float op (exp, tanh, log, mul, maximum, minimum, reductions, pow, casts, pad, avg_pool2d, transpose_conv2d, compares, ...) | dequantize -> f32 op -> quantize | same |
// clang-format on
//
// Dequantize is rescale(i8/i16 -> i32, input_zp) -> cast f32 -> mul by s;
// quantize is mul by 1/s -> clamp -> cast i32 -> rescale(-> i8/i16,
// output_zp). An operand with a Positive domain that goes through the float
// path is clamped to its calibrated positive range first. Layer rescales use
// scale32 or 16-bit multipliers and SINGLE_ROUND or DOUBLE_ROUND at random;
// INEXACT_ROUND is not generated (it is undefined at ties).
#pragma once

#include "core/Graph.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace cc {

enum class PrecisionKind { F16, BF16, Mixed, Int8, Int16 };

// "f16", "bf16", "mixed", "int8", "int16".
std::string_view precisionKindName(PrecisionKind k);
// Parses a name as precisionKindName writes it; the error lists the names.
Expected<PrecisionKind> parsePrecisionKind(std::string_view name);
const std::vector<PrecisionKind> &allPrecisionKinds();

// Whether a graph has float values to rewrite (inputs, constants or results).
bool hasFloatValues(const Graph &g);

// The variant of `floatGraph` in precision `kind`; deterministic in `seed`
// (boundaries of Mixed, zero points, rescale modes, calibration inputs).
// An error when the graph has no float value, or when an op cannot be
// rebuilt in the requested precision.
Expected<Graph> makePrecisionVariant(const Graph &floatGraph,
                                     PrecisionKind kind, uint64_t seed);

} // namespace cc
