// RUN: threadbind-opt %s -threadbind-lower-asserts | FileCheck %s
// What it makes runs as upstream's lowering does (here beside it): the
// message on stdout, then abort.
// RUN: threadbind-opt %s -threadbind-lower-asserts -convert-to-llvm -reconcile-unrealized-casts | not --crash stdbuf -o0 mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils 2>%t.err | FileCheck %s --check-prefix=EXEC
// RUN: threadbind-opt %s -convert-to-llvm -reconcile-unrealized-casts | not --crash stdbuf -o0 mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils 2>%t.err | FileCheck %s --check-prefix=EXEC
// REQUIRES: mlir-runner

// Each message gets a global of its own, named through the symbol table
// (the name taken by @assert_msg is skipped); a failed assert prints it
// with puts and aborts.
// CHECK-DAG: llvm.func @puts(!llvm.ptr) -> i32
// CHECK-DAG: llvm.func @abort()
// CHECK-DAG: llvm.mlir.global internal constant @[[FIRST:assert_msg_[0-9]+]]("first fails\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[SECOND:assert_msg_[0-9]+]]("second holds\00")
// CHECK-LABEL: func.func @check(%{{.*}}: i1, %{{.*}}: i1)
// CHECK: cf.cond_br %{{.*}}, ^[[OK:bb[0-9]+]], ^[[FAIL:bb[0-9]+]]
// CHECK: ^[[FAIL]]:
// CHECK-NEXT: llvm.mlir.addressof @[[FIRST]]
// CHECK-NEXT: llvm.getelementptr
// CHECK-NEXT: llvm.call @puts
// CHECK-NEXT: llvm.call @abort()
// CHECK-NEXT: llvm.unreachable
// CHECK: ^[[OK]]:
// CHECK-NEXT: cf.cond_br
// CHECK-NOT: cf.assert

// EXEC: before
// EXEC: first fails
// EXEC-NOT: after
func.func @assert_msg() {
  return
}

func.func @check(%a: i1, %b: i1) {
  cf.assert %a, "first fails"
  cf.assert %b, "second holds"
  return
}


func.func @main() {
  %true = arith.constant true
  %false = arith.constant false
  call @say_before() : () -> ()
  call @check(%false, %true) : (i1, i1) -> ()
  call @say_after() : () -> ()
  return
}

func.func @say_before() {
  %t = arith.constant true
  cf.assert %t, "never"
  vector.print str "before\n"
  return
}

func.func @say_after() {
  vector.print str "after\n"
  return
}
