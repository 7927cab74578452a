// RUN: threadbind-opt %s -threadbind-serialize-kernels=binary-name=kernels -split-input-file -verify-diagnostics

module attributes {gpu.container_module} {
  // expected-error @below {{'gpu.module' op has no target: it needs one #nvvm.target to be compiled to PTX}}
  gpu.module @kernels {
    llvm.func @k() attributes {nvvm.kernel} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @a [#nvvm.target<chip = "sm_80">] {
  }
  // expected-error @below {{'gpu.module' op has target #nvvm.target<chip = "sm_90"> where 'a' has #nvvm.target<chip = "sm_80">: modules compiled into one binary must agree}}
  gpu.module @b [#nvvm.target<chip = "sm_90">] {
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @below {{'gpu.module' op has targets [#nvvm.target<chip = "sm_80">, #nvvm.target<chip = "sm_90">]: it needs exactly one #nvvm.target to be compiled to PTX}}
  gpu.module @a [#nvvm.target<chip = "sm_80">, #nvvm.target<chip = "sm_90">] {
  }
}

// -----

// Two modules define one external kernel: no renaming can join them.
module attributes {gpu.container_module} {
  gpu.module @a [#nvvm.target<chip = "sm_80">] {
    llvm.func @k() attributes {nvvm.kernel} {
      llvm.return
    }
  }
  // expected-error @below {{'k' is defined both here and in gpu.module 'a': the modules cannot be compiled into one PTX}}
  gpu.module @b [#nvvm.target<chip = "sm_80">] {
    llvm.func @k() attributes {nvvm.kernel} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @below {{'func.func' op is named 'kernels', the name chosen for the kernels' gpu.binary}}
  func.func @kernels() {
    return
  }
  gpu.module @a [#nvvm.target<chip = "sm_80">] {
  }
}
