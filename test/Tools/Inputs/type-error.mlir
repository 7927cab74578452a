func.func @broken(%a: memref<4xf32>) {
  %x = arith.addf %a, %a : f32
  return
}
