// A program as a user writes it to try on the CPU: a kernel, a helper that
// prints, a public report built on the helper, and a main.
func.func @scale(%a: memref<?xf32>, %b: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %n = memref.dim %a, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %a[%i] : memref<?xf32>
    %w = arith.mulf %v, %two : f32
    memref.store %w, %b[%i] : memref<?xf32>
  }
  return
}
func.func private @show(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<?xf32>
  vector.print %v : f32
  return
}
func.func @report(%a: memref<?xf32>) {
  call @show(%a) : (memref<?xf32>) -> ()
  return
}
func.func @main() {
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloc(%c4) : memref<?xf32>
  %b = memref.alloc(%c4) : memref<?xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<?xf32>)
  call @scale(%a, %b) : (memref<?xf32>, memref<?xf32>) -> ()
  call @report(%b) : (memref<?xf32>) -> ()
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  return
}
func.func @handle() -> ((memref<?xf32>) -> ()) {
  %f = func.constant @show : (memref<?xf32>) -> ()
  return %f : (memref<?xf32>) -> ()
}
