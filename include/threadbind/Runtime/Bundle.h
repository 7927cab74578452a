/*===- Bundle.h - What a ThreadBind host bundle exports ------------*- C -*-===*\
|*                                                                            *|
|* Part of the ThreadBind project.                                            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * `threadbind-compile --emit bundle` makes a shared library that exports,
 * for every function F of the input:
 *   - threadbind_gpu_F(void **args): F bound to the GPU, its kernels
 *     embedded; memref arguments must point to device memory;
 *   - threadbind_ref_F(void **args): F as written, compiled for the CPU,
 *     every memref access checked against its bounds; memref arguments
 *     point to host memory (absent where F's GPU code cannot run on the
 *     CPU);
 * and threadbind_bundle_entries(), the table below describing them. In
 * both calls args[i] points to argument i: for a memref, to its descriptor
 * (ThreadBindMemRef with `rank` sizes and strides, all in elements; row-major
 * with offset 0 unless the argument is `strided`); for a scalar, to its
 * value. Nothing else is exported.
 */

#ifndef THREADBIND_RUNTIME_BUNDLE_H
#define THREADBIND_RUNTIME_BUNDLE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum ThreadBindElementType {
  THREADBIND_F16 = 0,
  THREADBIND_BF16 = 1,
  THREADBIND_F32 = 2,
  THREADBIND_F64 = 3,
  THREADBIND_I8 = 4,
  THREADBIND_I16 = 5,
  THREADBIND_I32 = 6,
  THREADBIND_I64 = 7,
  THREADBIND_INDEX = 8, /* 64-bit */
  THREADBIND_I1 = 9     /* one byte, 0 or 1 */
};

/* The MLIR spelling of an element type ("f32", "index", ...), or a null
 * pointer for a code that is none of the above. */
static inline const char *threadbind_element_type_name(int32_t type) {
  static const char *const names[] = {"f16", "bf16", "f32", "f64",   "i8",
                                      "i16", "i32",  "i64", "index", "i1"};
  return type >= 0 && type <= THREADBIND_I1 ? names[type] : 0;
}

/* Which way a memref argument's data moves, from the function's loads and
 * stores: what bandwidth figures count. */
enum ThreadBindAccess {
  THREADBIND_READ = 1,
  THREADBIND_WRITE = 2,
  THREADBIND_READ_WRITE = 3
};

typedef struct ThreadBindArgument {
  int32_t isMemRef;
  int32_t elementType; /* ThreadBindElementType */
  int32_t rank;        /* memrefs */
  int32_t access;      /* memrefs: ThreadBindAccess */
  /* memrefs: `rank` static sizes, -1 where dynamic */
  const int64_t *shape;
  /* 1-D memrefs: the allocation must reach the size rounded up to a
   * multiple of this (threadbind.padded_to); 0 when it need not. The
   * padding is written by the kernels but never holds a result. */
  int64_t paddedTo;
  /* memrefs: 0 for the identity layout (the descriptor's strides must be
   * row-major and its offset 0); 1 for a strided layout, whose strides and
   * offset, in elements, the caller gives in the descriptor. */
  int32_t strided;
  /* strided memrefs: the `rank` strides the type fixes, THREADBIND_DYNAMIC
   * where the caller chooses; null otherwise */
  const int64_t *strides;
  /* strided memrefs: the offset the type fixes, or THREADBIND_DYNAMIC */
  int64_t offset;
} ThreadBindArgument;

/* A stride or offset a strided memref type leaves to the caller. */
#define THREADBIND_DYNAMIC INT64_MIN

/* A quantity known before a call. */
enum ThreadBindTermKind {
  THREADBIND_TERM_CONSTANT = 0, /* `value` */
  THREADBIND_TERM_DIM = 1,      /* size `dim` of memref argument `arg` */
  THREADBIND_TERM_SCALAR = 2    /* integer scalar argument `arg` */
};

typedef struct ThreadBindTerm {
  int32_t kind; /* ThreadBindTermKind */
  int32_t arg;
  int32_t dim;
  int64_t value;
} ThreadBindTerm;

/* Holds when `upper` > `lower`: a loop from `lower` to `upper` runs. */
typedef struct ThreadBindGuard {
  ThreadBindTerm lower;
  ThreadBindTerm upper;
} ThreadBindGuard;

/* What the sizes of a call's arguments must satisfy for the function to
 * stay inside its memrefs, read off its loops: size `dim` of memref
 * argument `arg` is at least `bound` + `offset` whenever every guard
 * holds. A call that breaks one would read or write out of bounds. */
typedef struct ThreadBindRequirement {
  int32_t arg;
  int32_t dim;
  ThreadBindTerm bound;
  int64_t offset;
  int32_t numGuards;
  const ThreadBindGuard *guards;
  const char *where; /* the access, for messages */
} ThreadBindRequirement;

typedef struct ThreadBindEntry {
  const char *name;
  void (*gpu)(void **args);
  void (*reference)(void **args); /* null without a CPU reference */
  int32_t numArguments;
  const ThreadBindArgument *arguments;
  int32_t numRequirements;
  const ThreadBindRequirement *requirements;
} ThreadBindEntry;

/* The descriptor of a ranked memref: sizes then strides follow `offset`. */
typedef struct ThreadBindMemRef {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizesAndStrides[];
} ThreadBindMemRef;

/* Returns the entries and their count. */
const ThreadBindEntry *threadbind_bundle_entries(int32_t *count);

#ifdef __cplusplus
}
#endif

#endif /* THREADBIND_RUNTIME_BUNDLE_H */
