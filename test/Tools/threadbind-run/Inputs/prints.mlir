func.func @prints(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<?xf32>
  vector.print %v : f32
  return
}
