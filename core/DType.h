// Element types and exact conversions between them.
//
// f16 and bf16 values are stored as their 16-bit patterns; every conversion
// from a wider float rounds to nearest, ties to even, as TOSA and IEEE 754
// require. f64 is used only internally (the reference interpreter computes in
// it); it never appears in an emitted graph.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cc {

enum class DType : uint8_t { i1, i8, i16, i32, i64, f16, bf16, f32, f64 };

inline constexpr DType kAllDTypes[] = {DType::i1,   DType::i8,  DType::i16,
                                       DType::i32,  DType::i64, DType::f16,
                                       DType::bf16, DType::f32, DType::f64};

constexpr bool isFloat(DType t) {
  return t == DType::f16 || t == DType::bf16 || t == DType::f32 ||
         t == DType::f64;
}
constexpr bool isInt(DType t) { return !isFloat(t); }
constexpr bool isBool(DType t) { return t == DType::i1; }

// Bits of the value; i1 counts 1 bit but is stored in one byte.
constexpr int bitWidth(DType t) {
  switch (t) {
  case DType::i1:
    return 1;
  case DType::i8:
    return 8;
  case DType::i16:
  case DType::f16:
  case DType::bf16:
    return 16;
  case DType::i32:
  case DType::f32:
    return 32;
  case DType::i64:
  case DType::f64:
    return 64;
  }
  return 0;
}
constexpr int byteSize(DType t) { return t == DType::i1 ? 1 : bitWidth(t) / 8; }

// Name as used in JSON and in MLIR types ("f32", "bf16", "i8", ...).
std::string_view dtypeName(DType t);
std::optional<DType> parseDType(std::string_view name);

// Smallest and largest value of a signed integer type (i1: 0 and 1).
int64_t intMin(DType t);
int64_t intMax(DType t);
// Wraps v to the width of t (two's complement; i1 keeps the low bit).
int64_t wrapInt(DType t, int64_t v);

// Machine epsilon (distance from 1 to the next value) of a float type.
double epsilon(DType t);
// Smallest positive normal value of a float type.
double minNormal(DType t);
// Largest finite value of a float type.
double maxFinite(DType t);

// Rounds a double to the nearest value of float type t, ties to even,
// including overflow to infinity and gradual underflow to denormals.
double roundToFloat(DType t, double v);

// The same value as computed: NaNs alike, zeros by their sign.
bool sameValue(double a, double b);

uint16_t f64ToF16Bits(double v);
double f16BitsToF64(uint16_t bits);
uint16_t f64ToBF16Bits(double v);
double bf16BitsToF64(uint16_t bits);
// Exact f64 -> f32 rounding (ties to even), as a hardware cast does.
float f64ToF32(double v);

} // namespace cc
