#include "core/DType.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace cc {

std::string_view dtypeName(DType t) {
  switch (t) {
  case DType::i1:
    return "i1";
  case DType::i8:
    return "i8";
  case DType::i16:
    return "i16";
  case DType::i32:
    return "i32";
  case DType::i64:
    return "i64";
  case DType::f16:
    return "f16";
  case DType::bf16:
    return "bf16";
  case DType::f32:
    return "f32";
  case DType::f64:
    return "f64";
  }
  return "?";
}

std::optional<DType> parseDType(std::string_view name) {
  for (DType t : kAllDTypes)
    if (dtypeName(t) == name)
      return t;
  return std::nullopt;
}

int64_t intMin(DType t) {
  if (t == DType::i1)
    return 0;
  if (t == DType::i64)
    return std::numeric_limits<int64_t>::min();
  return -(int64_t(1) << (bitWidth(t) - 1));
}

int64_t intMax(DType t) {
  if (t == DType::i1)
    return 1;
  if (t == DType::i64)
    return std::numeric_limits<int64_t>::max();
  return (int64_t(1) << (bitWidth(t) - 1)) - 1;
}

int64_t wrapInt(DType t, int64_t v) {
  switch (t) {
  case DType::i1:
    return v & 1;
  case DType::i8:
    return int8_t(uint8_t(v));
  case DType::i16:
    return int16_t(uint16_t(v));
  case DType::i32:
    return int32_t(uint32_t(v));
  default:
    return v;
  }
}

namespace {
struct FloatFormat {
  int mantBits; // explicit fraction bits
  int expBits;
};
FloatFormat formatOf(DType t) {
  switch (t) {
  case DType::f16:
    return {10, 5};
  case DType::bf16:
    return {7, 8};
  case DType::f32:
    return {23, 8};
  default:
    return {52, 11};
  }
}
} // namespace

double epsilon(DType t) { return std::ldexp(1.0, -formatOf(t).mantBits); }

double minNormal(DType t) {
  FloatFormat f = formatOf(t);
  int bias = (1 << (f.expBits - 1)) - 1;
  return std::ldexp(1.0, 1 - bias);
}

double maxFinite(DType t) {
  FloatFormat f = formatOf(t);
  int bias = (1 << (f.expBits - 1)) - 1;
  return std::ldexp(2.0 - std::ldexp(1.0, -f.mantBits), bias);
}

// Generic round-to-nearest-even of a double into a narrower binary format.
// Works on the value, not the bits, so it is shared by f16, bf16 and f32.
bool sameValue(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) ||
         (a == b && std::signbit(a) == std::signbit(b));
}

double roundToFloat(DType t, double v) {
  if (t == DType::f64 || std::isnan(v) || std::isinf(v) || v == 0)
    return v;
  if (t == DType::f32)
    return double(f64ToF32(v));
  FloatFormat f = formatOf(t);
  int bias = (1 << (f.expBits - 1)) - 1;
  int minExp = 1 - bias; // exponent of the smallest normal
  double a = std::fabs(v);
  int e;
  std::frexp(a, &e); // a = m * 2^e, m in [0.5, 1)
  int exp = e - 1;   // a = 1.x * 2^exp
  if (exp < minExp)
    exp = minExp; // denormal range: fixed quantum
  double quantum = std::ldexp(1.0, exp - f.mantBits);
  double q = a / quantum;       // exact: power-of-two scaling
  double r = std::nearbyint(q); // default rounding mode is ties-to-even
  double out = r * quantum;
  if (out > maxFinite(t)) {
    // Above max + half an ulp rounds to infinity (IEEE overflow rule).
    double ulpAtMax = std::ldexp(1.0, bias - f.mantBits);
    out = (a >= maxFinite(t) + ulpAtMax / 2) ? INFINITY : maxFinite(t);
  }
  return std::copysign(out, v);
}

float f64ToF32(double v) { return static_cast<float>(v); }

uint16_t f64ToF16Bits(double v) {
  double r = roundToFloat(DType::f16, v);
  uint16_t sign = std::signbit(r) ? 0x8000 : 0;
  if (std::isnan(r))
    return 0x7e00 | sign;
  double a = std::fabs(r);
  if (std::isinf(a))
    return sign | 0x7c00;
  if (a == 0)
    return sign;
  int e;
  double m = std::frexp(a, &e); // a = m * 2^e
  int exp = e - 1 + 15;
  if (exp <= 0) // denormal: value = frac * 2^-24
    return sign | uint16_t(std::ldexp(a, 24));
  uint16_t frac = uint16_t(std::ldexp(m * 2 - 1, 10));
  return sign | uint16_t(exp << 10) | frac;
}

double f16BitsToF64(uint16_t bits) {
  int sign = bits >> 15;
  int exp = (bits >> 10) & 0x1f;
  int frac = bits & 0x3ff;
  double out;
  if (exp == 0)
    out = std::ldexp(double(frac), -24);
  else if (exp == 31)
    out = frac ? NAN : INFINITY;
  else
    out = std::ldexp(1.0 + frac / 1024.0, exp - 15);
  return sign ? -out : out;
}

uint16_t f64ToBF16Bits(double v) {
  // bf16 is the top half of an f32; round the f64 straight to bf16 (one
  // rounding, no double rounding through f32) and then take the bits.
  double r = roundToFloat(DType::bf16, v);
  float f = float(r); // exact: r is representable in bf16 hence in f32
  uint32_t u = std::bit_cast<uint32_t>(f);
  if (std::isnan(r))
    return uint16_t(0x7fc0 | ((u >> 16) & 0x8000));
  return uint16_t(u >> 16);
}

double bf16BitsToF64(uint16_t bits) {
  uint32_t u = uint32_t(bits) << 16;
  return double(std::bit_cast<float>(u));
}

} // namespace cc
