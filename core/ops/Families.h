// Internal: each core/ops/*.cpp file appends the entries of one op family.
#pragma once

#include "core/OpTable.h"

namespace cc {
// add sub mul intdiv maximum minimum pow abs negate exp log tanh sigmoid erf
// rsqrt reciprocal floor ceil clamp select
void addElementwiseOps(std::vector<OpDef> &ops);
// equal greater greater_equal logical_and logical_or logical_not bitwise_and
// bitwise_or bitwise_xor arithmetic_right_shift logical_left_shift
void addLogicalOps(std::vector<OpDef> &ops);
// const cast rescale
void addConversionOps(std::vector<OpDef> &ops);
// reduce_sum reduce_max reduce_min reduce_product argmax
void addReductionOps(std::vector<OpDef> &ops);
// matmul (Matmul.cpp)
void addMatmulOps(std::vector<OpDef> &ops);
// conv2d depthwise_conv2d transpose_conv2d (Conv.cpp)
void addConvOps(std::vector<OpDef> &ops);
// avg_pool2d max_pool2d (Pool.cpp)
void addPoolOps(std::vector<OpDef> &ops);
// reshape transpose slice concat pad tile reverse gather
void addDataMovementOps(std::vector<OpDef> &ops);
} // namespace cc
