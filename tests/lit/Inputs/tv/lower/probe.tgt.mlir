func.func @f(%x: f32) -> f32 {
  %s = math.sin %x : f32
  %r = math.sin %s : f32
  return %r : f32
}
