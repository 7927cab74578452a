// Tensors become identity-layout memrefs and entry results out-parameters
// marked with the result they hold; a destination written in place is not
// returned twice; a scalar result goes through a 0-d memref; buffers of
// temporaries are freed; a call to an entry whose result only the callee
// can size is inlined.
// RUN: threadbind-opt %s -split-input-file -threadbind-bufferize-entries | FileCheck %s

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// The result's buffer, sized from the arguments, becomes the argument.
// CHECK-LABEL: func.func @add(
// CHECK-SAME:    %[[A:.*]]: memref<?x?xf32>, %[[B:.*]]: memref<?x?xf32>,
// CHECK-SAME:    %[[OUT:.*]]: memref<?x?xf32> {threadbind.result = 0 : i64})
// CHECK-NOT:     memref.alloc
// CHECK:         linalg.generic {{.*}} ins(%[[A]], %[[B]] : {{.*}}) outs(%[[OUT]] : memref<?x?xf32>)
// CHECK-NOT:     memref.copy
// CHECK:         return
// CHECK-NEXT:  }
func.func @add(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %a, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2, #id2],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>)
      outs(%e : tensor<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// Destination-passing style: the result is the argument written in place,
// so it is dropped, not passed out again; the row maxima, a temporary, get
// a buffer freed at the end.
// CHECK-LABEL: func.func @dps(
// CHECK-SAME:    %[[IN:.*]]: memref<8x16xf32>, %[[DST:.*]]: memref<8x16xf32>) {
// CHECK:         %[[TMP:.*]] = memref.alloc() {{.*}} : memref<8xf32>
// CHECK:         linalg.generic {{.*}} outs(%[[TMP]] : memref<8xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[IN]], %[[TMP]] : {{.*}}) outs(%[[DST]] : memref<8x16xf32>)
// CHECK:         memref.dealloc %[[TMP]]
// CHECK-NEXT:    return
func.func @dps(%in: tensor<8x16xf32>, %dst: tensor<8x16xf32>)
    -> tensor<8x16xf32> {
  %lowest = arith.constant -3.0e+38 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%lowest : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %max = linalg.generic {indexing_maps = [#id2, #row],
                         iterator_types = ["parallel", "reduction"]}
      ins(%in : tensor<8x16xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %o : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id2, #row, #id2],
                       iterator_types = ["parallel", "parallel"]}
      ins(%in, %max : tensor<8x16xf32>, tensor<8xf32>)
      outs(%dst : tensor<8x16xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %s = arith.subf %x, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

// A scalar result is stored to a 0-d out-parameter; a caller loads it back.
// CHECK-LABEL: func.func @first(
// CHECK-SAME:    %[[A:.*]]: memref<4xi64>, %[[OUT:.*]]: memref<i64> {threadbind.result = 0 : i64})
// CHECK:         %[[V:.*]] = memref.load %[[A]]
// CHECK:         memref.store %[[V]], %[[OUT]][]
// CHECK-NEXT:    return
func.func @first(%a: memref<4xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<4xi64>
  return %v : i64
}

// CHECK-LABEL: func.func @main(
// CHECK:         %[[BUF:.*]] = memref.alloc() : memref<i64>
// CHECK:         call @first(%{{.*}}, %[[BUF]])
// CHECK:         %[[R:.*]] = memref.load %[[BUF]][]
// CHECK:         memref.dealloc %[[BUF]]
// CHECK:         return %[[R]]
func.func @main(%a: memref<4xi64>) -> i64 {
  %r = call @first(%a) : (memref<4xi64>) -> i64
  return %r : i64
}

// -----

// Host arithmetic that touches no memory keeps its result: there is nothing
// for the device to do.
// CHECK-LABEL: func.func @square(%{{.*}}: f32) -> f32
func.func @square(%x: f32) -> f32 {
  %y = arith.mulf %x, %x : f32
  return %y : f32
}

// -----

// A dynamically shaped result: the caller cannot allocate it, so the call
// is inlined; the entry itself still takes its result as an argument.
// CHECK-LABEL: func.func @copy(
// CHECK-SAME:    %{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf32> {threadbind.result = 0 : i64})
// CHECK-LABEL: func.func @main(
// CHECK-NOT:     call @copy
// CHECK:         %[[ALLOC:.*]] = memref.alloc(
// CHECK:         linalg.generic {{.*}} outs(%[[ALLOC]] : memref<?xf32>)
// CHECK:         call @sink(%[[ALLOC]])
// CHECK:         memref.dealloc %[[ALLOC]]
func.func @copy(%a: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
                                        affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%a : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func private @sink(memref<?xf32>)
func.func @main(%m: memref<?xf32>) {
  %t = bufferization.to_tensor %m restrict : memref<?xf32> to tensor<?xf32>
  %r = call @copy(%t) : (tensor<?xf32>) -> tensor<?xf32>
  %b = bufferization.to_buffer %r : tensor<?xf32> to memref<?xf32>
  call @sink(%b) : (memref<?xf32>) -> ()
  return
}

// -----

// A module without tensors or results is left as it was: no deallocation
// is added to a program's own buffers.
// CHECK-LABEL: func.func @untouched(
// CHECK:         memref.alloc
// CHECK-NOT:     memref.dealloc
func.func @untouched(%n: index) {
  %a = memref.alloc(%n) : memref<?xf32>
  return
}

// -----

// A result inserted into a slice of an argument is computed in place; the
// copy of the slice onto itself that bufferization leaves is dropped (as
// host code it would touch device memory).
// CHECK-LABEL: func.func @insert_in_place(
// CHECK-SAME:    %[[A:.*]]: memref<?x?xf32>, %[[B:.*]]: memref<?x?xf32>) {
// CHECK:         %[[DST:.*]] = memref.subview %[[B]][1, 1]
// CHECK:         linalg.generic {{.*}} outs(%[[DST]] :
// CHECK-NOT:     memref.copy
// CHECK:         return
#id2i = affine_map<(i, j) -> (i, j)>
func.func @insert_in_place(%A: tensor<?x?xf32>, %B: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = tensor.dim %A, %c0 : tensor<?x?xf32>
  %ni = arith.subi %n, %c2 : index
  %e = tensor.empty(%ni, %ni) : tensor<?x?xf32>
  %a = tensor.extract_slice %A[1, 1] [%ni, %ni] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [#id2i, #id2i], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = arith.addf %v, %v : f32
    linalg.yield %t : f32
  } -> tensor<?x?xf32>
  %B1 = tensor.insert_slice %r into %B[1, 1] [%ni, %ni] [1, 1] : tensor<?x?xf32> into tensor<?x?xf32>
  return %B1 : tensor<?x?xf32>
}
