; copysign(1.0, widen(bf16 loaded from memory)) with the bf16 value -1.5:
; expected -1. The widening is the bit trick of arith-expand{include-bf16}.
declare float @llvm.copysign.f32(float, float)
declare i32 @printf(ptr, ...)
@fmt = private constant [4 x i8] c"%g\0A\00"
@in = global i16 u0xBFC0        ; bf16 -1.5

define float @f(ptr %p) noinline {
  %v = load bfloat, ptr %p, align 2
  %x = bitcast bfloat %v to i16
  %e = zext i16 %x to i32
  %s = shl i32 %e, 16
  %b = bitcast i32 %s to float
  %c = call float @llvm.copysign.f32(float 1.0, float %b)
  ret float %c
}

define i32 @main() {
  %r = call float @f(ptr @in)
  %d = fpext float %r to double
  call i32 (ptr, ...) @printf(ptr @fmt, double %d)
  ret i32 0
}
