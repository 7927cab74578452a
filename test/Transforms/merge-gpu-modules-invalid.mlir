// RUN: threadbind-opt %s -threadbind-merge-gpu-modules -split-input-file -verify-diagnostics

module attributes {gpu.container_module} {
  gpu.module @a [#nvvm.target<chip = "sm_90">] {
  }
  // expected-error @below {{'gpu.module' op has targets [#nvvm.target<chip = "sm_80">] where 'a' has [#nvvm.target<chip = "sm_90">]: modules for different targets cannot be merged}}
  gpu.module @b [#nvvm.target<chip = "sm_80">] {
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @below {{'func.func' op is named 'threadbind_kernels', the name chosen for the merged gpu.module}}
  func.func private @threadbind_kernels()
  gpu.module @a {
  }
}
