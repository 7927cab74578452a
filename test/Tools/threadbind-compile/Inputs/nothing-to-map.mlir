func.func @square(%x: f32) -> f32 {
  %y = arith.mulf %x, %x : f32
  return %y : f32
}
