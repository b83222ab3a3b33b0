/*===- gemm-c/Runtime.h - Launch gemm-mlir kernel families --------*- C -*-===*\
|*                                                                            *|
|* The embedding ABI of gemm-mlir's runtime (libGemmRuntime.so): load the     *|
|* artifact folder that `gemm-opt --gemm-to-ptx=output-dir=DIR` (or          *|
|* --gemm-to-cubin) wrote, pick the member of a kernel family for the sizes   *|
|* of the operands, and launch it on device pointers on a caller-given CUDA   *|
|* stream: operand packing, split-K workspace and reduction included, as the  *|
|* host code gemm-opt emits would. Plain C, no CUDA header needed: the CUDA   *|
|* driver (libcuda.so.1) is loaded at the first device operation.             *|
|*                                                                            *|
|* Errors: every function that can fail returns a GemmRtStatus; the message   *|
|* of the last failure on the calling thread is gemmRtGetLastError(). Nothing *|
|* aborts. docs/runtime.md describes the lifetime, context and stream rules.  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef GEMM_C_RUNTIME_H
#define GEMM_C_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define GEMM_RT_EXPORT __declspec(dllexport)
#else
#define GEMM_RT_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/// The version of this ABI, bumped on any incompatible change of a type or
/// function below. gemmRtGetAbiVersion() returns the library's.
#define GEMM_RT_ABI_VERSION 1

/// CUDA's stream type (cuda.h: `typedef struct CUstream_st *CUstream`), so
/// that a CUstream converts without a cast and this header needs no cuda.h.
/// NULL is the legacy default stream.
struct CUstream_st;
typedef struct CUstream_st *GemmRtStream;

//===----------------------------------------------------------------------===//
// Status, errors, element types
//===----------------------------------------------------------------------===//

typedef enum GemmRtStatus {
  GEMM_RT_SUCCESS = 0,
  /// An argument of the call is wrong: a null handle or pointer, an operand
  /// whose kind, element type, rank or sizes do not fit the function.
  GEMM_RT_ERROR_INVALID_ARGUMENT = 1,
  /// The artifact folder cannot be used: manifest.json unreadable,
  /// malformed or not of the expected schema, a binary it names missing.
  GEMM_RT_ERROR_INVALID_MANIFEST = 2,
  /// No function of that name in the module.
  GEMM_RT_ERROR_NOT_FOUND = 3,
  /// The CUDA driver cannot be used: libcuda.so.1 absent, an entry point
  /// missing, no device, or the kernels are for another chip.
  GEMM_RT_ERROR_NO_DEVICE = 4,
  /// A CUDA driver call failed (the message names it and its CUresult).
  GEMM_RT_ERROR_DRIVER = 5,
  /// A launch on a module loaded with GEMM_RT_LOAD_PARSE_ONLY.
  GEMM_RT_ERROR_NOT_LOADED = 6,
} GemmRtStatus;

/// The message of the last call on this thread that failed ("" if none); a
/// successful call leaves it unchanged. Valid until the next failing call
/// on this thread.
GEMM_RT_EXPORT const char *gemmRtGetLastError(void);

/// "success", "invalid argument", ... ; "unknown status" for other values.
GEMM_RT_EXPORT const char *gemmRtStatusGetName(GemmRtStatus status);

GEMM_RT_EXPORT int32_t gemmRtGetAbiVersion(void);

/// Element types of memrefs and scalars, as the manifest spells them
/// (MLIR's names: "f16", "bf16", "f8E4M3FN", "index", ...).
typedef enum GemmRtDType {
  GEMM_RT_DTYPE_INVALID = 0,
  GEMM_RT_DTYPE_F16 = 1,
  GEMM_RT_DTYPE_BF16 = 2,
  GEMM_RT_DTYPE_F32 = 3,
  GEMM_RT_DTYPE_F64 = 4,
  GEMM_RT_DTYPE_I8 = 5,
  GEMM_RT_DTYPE_I16 = 6,
  GEMM_RT_DTYPE_I32 = 7,
  GEMM_RT_DTYPE_I64 = 8,
  /// MLIR's index type: 64 bits in the kernels' calling convention.
  GEMM_RT_DTYPE_INDEX = 9,
  GEMM_RT_DTYPE_F8E4M3FN = 10,
  GEMM_RT_DTYPE_F8E5M2 = 11,
  GEMM_RT_DTYPE_F8E4M3FNUZ = 12,
  GEMM_RT_DTYPE_F8E5M2FNUZ = 13,
} GemmRtDType;

/// The manifest spelling of `dtype`, NULL for an invalid one.
GEMM_RT_EXPORT const char *gemmRtDTypeGetName(GemmRtDType dtype);
/// The dtype the manifest spelling `name` names, GEMM_RT_DTYPE_INVALID if
/// none.
GEMM_RT_EXPORT GemmRtDType gemmRtDTypeFromName(const char *name);
/// Bytes per element (0 for an invalid dtype).
GEMM_RT_EXPORT size_t gemmRtDTypeGetSize(GemmRtDType dtype);

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

/// A loaded artifact folder: its manifest, and in device mode its binaries
/// loaded into one CUDA context. Owns its functions.
typedef struct GemmRtModuleImpl *GemmRtModule;
/// A kernel family: the manifest entries of one ("function", "gemm") pair,
/// in manifest (rule) order. Owned by its module.
typedef const struct GemmRtFunctionImpl *GemmRtFunction;

/// gemmRtModuleLoad flags.
enum {
  /// Read and validate manifest.json (and that its binaries exist) without
  /// touching the CUDA driver: describe and choose work, launch does not.
  GEMM_RT_LOAD_PARSE_ONLY = 1u << 0,
};

/// Loads the artifact folder `directory` (manifest.json and the binaries it
/// names; a .cubin next to a .ptx of the same stem is preferred, PTX is
/// compiled by the driver's JIT otherwise). Device mode loads into the
/// CUDA context current on the calling thread, or, when none is, retains
/// device 0's primary context (the one the CUDA runtime, PyTorch and CuPy
/// use) and makes it current. On failure *module is NULL.
GEMM_RT_EXPORT GemmRtStatus gemmRtModuleLoad(const char *directory,
                                             uint32_t flags,
                                             GemmRtModule *module);

/// Unloads the binaries, frees the workspace pool and releases a retained
/// primary context. No launch on the module may be in flight (synchronize
/// its streams first). NULL is ignored.
GEMM_RT_EXPORT void gemmRtModuleDestroy(GemmRtModule module);

/// 1 if loaded onto a device, 0 if parse-only (or NULL).
GEMM_RT_EXPORT int32_t gemmRtModuleIsOnDevice(GemmRtModule module);

/// Returns the memory that the module's workspace pool keeps for reuse to
/// the device (workspaces of launches still in flight stay allocated).
GEMM_RT_EXPORT GemmRtStatus gemmRtModuleTrimWorkspaces(GemmRtModule module);

GEMM_RT_EXPORT size_t gemmRtModuleGetNumFunctions(GemmRtModule module);
/// The name of function `index` (manifest order of first appearance), NULL
/// if out of range. A function is named after its "function" when that
/// holds one gemm.matmul, `<function>#<gemm>` otherwise.
GEMM_RT_EXPORT const char *gemmRtModuleGetFunctionName(GemmRtModule module,
                                                       size_t index);
/// Looks up a function by name (`<function>#<gemm>` always works).
GEMM_RT_EXPORT GemmRtStatus gemmRtModuleGetFunction(GemmRtModule module,
                                                    const char *name,
                                                    GemmRtFunction *function);

//===----------------------------------------------------------------------===//
// Functions: description and choice
//===----------------------------------------------------------------------===//

GEMM_RT_EXPORT const char *gemmRtFunctionGetName(GemmRtFunction function);
/// "nn", "nt", "tn" or "tt" (docs/dialect.md: letter 1 = A, letter 2 = B).
GEMM_RT_EXPORT const char *gemmRtFunctionGetLayout(GemmRtFunction function);
/// The chip the kernels were built for ("sm_90a", "gfx942", ...).
GEMM_RT_EXPORT const char *gemmRtFunctionGetChip(GemmRtFunction function);
/// The members in rule order.
GEMM_RT_EXPORT size_t gemmRtFunctionGetNumKernels(GemmRtFunction function);
GEMM_RT_EXPORT const char *gemmRtFunctionGetKernelName(GemmRtFunction function,
                                                       size_t index);

typedef enum GemmRtParamKind {
  GEMM_RT_PARAM_MEMREF = 0,
  GEMM_RT_PARAM_SCALAR = 1,
} GemmRtParamKind;

/// One parameter of a function (A, B, C, then the epilogue's extras; the
/// split-K workspace, which the runtime provides, is not one).
/// (Enumerations travel as int32_t in structs: their size is fixed there and
/// any value a caller stores is well-defined.)
typedef struct GemmRtParamInfo {
  const char *name;
  int32_t kind;        // a GemmRtParamKind
  int32_t elementType; // a GemmRtDType
  /// 0 for a scalar.
  int32_t rank;
  /// `rank` sizes, -1 where dynamic. Owned by the module.
  const int64_t *shape;
} GemmRtParamInfo;

/// The operands a launch takes, in order.
GEMM_RT_EXPORT size_t gemmRtFunctionGetNumParams(GemmRtFunction function);
GEMM_RT_EXPORT GemmRtStatus gemmRtFunctionGetParam(GemmRtFunction function,
                                                   size_t index,
                                                   GemmRtParamInfo *info);

/// The member that runs for sizes M x N x K (batch `batch`, 1 without a
/// batch dimension) and its K slices (1 unless split-K): the first member
/// whose "when" bounds hold, the last if none does (docs/dispatch.md,
/// python/gemm_mlir/dispatch.py). CPU only; works on parse-only modules.
typedef struct GemmRtChoice {
  const char *kernel;
  size_t kernelIndex;
  int64_t slices;
} GemmRtChoice;

/// gemmRtFunctionChooseFor's `aligned`: A (B) allows 16-byte copies (a
/// 16-byte aligned first element, an inner stride of 1 and outer strides
/// of whole 16 bytes), as a launch finds it from the operands.
enum {
  GEMM_RT_ALIGNED_A = 1 << 0,
  GEMM_RT_ALIGNED_B = 1 << 1,
};

/// The choice for operands whose alignment `aligned` describes (an OR of
/// GEMM_RT_ALIGNED_*; other bits are an invalid argument): members may run
/// only for operands that allow or rule out 16-byte copies ("a_aligned" /
/// "b_aligned" in their "when").
GEMM_RT_EXPORT GemmRtStatus gemmRtFunctionChooseFor(GemmRtFunction function,
                                                    int64_t m, int64_t n,
                                                    int64_t k, int64_t batch,
                                                    unsigned aligned,
                                                    GemmRtChoice *choice);

/// gemmRtFunctionChooseFor with both operands aligned.
GEMM_RT_EXPORT GemmRtStatus gemmRtFunctionChoose(GemmRtFunction function,
                                                 int64_t m, int64_t n,
                                                 int64_t k, int64_t batch,
                                                 GemmRtChoice *choice);

//===----------------------------------------------------------------------===//
// Arguments and launches
//===----------------------------------------------------------------------===//

#define GEMM_RT_MAX_RANK 4

/// A strided view of device memory: `data` is the address of element
/// (0, ..., 0) (MLIR's aligned pointer plus offset); sizes and strides are
/// in elements, outermost first. The kernels take identity-layout memrefs:
/// the last stride must be 1 (where the last size exceeds 1), and C's
/// elements must be distinct (docs/runtime.md, "Arguments").
typedef struct GemmRtMemRef {
  void *data;
  int64_t rank;
  int64_t sizes[GEMM_RT_MAX_RANK];
  int64_t strides[GEMM_RT_MAX_RANK];
} GemmRtMemRef;

/// A scalar, in the member of its dtype (f16 and bf16 as their bits).
typedef union GemmRtScalar {
  double f64;
  float f32;
  int64_t i64; // i64 and index
  int32_t i32;
  int16_t i16;
  int8_t i8;
  uint16_t bits16; // f16, bf16
} GemmRtScalar;

/// One operand of a launch. `dtype` must equal the parameter's element
/// type (memref) or type (scalar): the runtime converts nothing.
typedef struct GemmRtArg {
  int32_t kind;        // a GemmRtParamKind
  int32_t dtype;       // a GemmRtDType
  GemmRtMemRef memref; // kind == GEMM_RT_PARAM_MEMREF
  GemmRtScalar scalar; // kind == GEMM_RT_PARAM_SCALAR
} GemmRtArg;

/// gemmRtFunctionPlan / gemmRtFunctionLaunch flags.
enum {
  /// Skip run-time ("unaligned") packing: the kernel reads A and B through
  /// its element-copy path. Packing the manifest marks "always" still runs,
  /// transposing copies among it (the kernel reads their layout only).
  GEMM_RT_LAUNCH_NO_PACK = 1u << 0,
};

/// What a launch does for its operands.
typedef struct GemmRtPlan {
  const char *kernel;
  size_t kernelIndex;
  int64_t m, n, k, batch;
  /// K slices (1 unless the member is split-K).
  int64_t slices;
  /// Whether A / B are copied into aligned, zero-padded workspaces first.
  int32_t packA, packB;
  /// Device memory the launch allocates (stream-ordered) and frees: pack
  /// workspaces plus the split-K workspace, with alignment padding.
  uint64_t workspaceBytes;
  /// Kernel launches: packs, the GEMM, the split-K reduction (0 when C is
  /// empty: nothing to compute).
  int32_t launches;
} GemmRtPlan;

/// Validates `args` against the function's parameters, infers M, N, K and
/// the batch from A, B, C and the layout, and fills `plan` with what a
/// launch would do. CPU only; works on parse-only modules.
GEMM_RT_EXPORT GemmRtStatus gemmRtFunctionPlan(GemmRtFunction function,
                                               const GemmRtArg *args,
                                               size_t numArgs, uint32_t flags,
                                               GemmRtPlan *plan);

/// Plans as gemmRtFunctionPlan and enqueues the launches on `stream`: the
/// pack kernels (when the plan packs), the GEMM kernel, and for a split-K
/// member the reduction, with the workspaces allocated and freed
/// stream-ordered on `stream`. Asynchronous: returns once enqueued. The
/// module's CUDA context must be current, or none (it is made current).
/// `plan` may be NULL; otherwise it receives what ran.
GEMM_RT_EXPORT GemmRtStatus gemmRtFunctionLaunch(
    GemmRtFunction function, const GemmRtArg *args, size_t numArgs,
    GemmRtStream stream, uint32_t flags, GemmRtPlan *plan);

/// Argument constructors.
static inline GemmRtArg gemmRtArgMemRef(GemmRtDType dtype, void *data,
                                        int64_t rank, const int64_t *sizes,
                                        const int64_t *strides) {
  GemmRtArg arg;
  int64_t i;
  arg.kind = GEMM_RT_PARAM_MEMREF;
  arg.dtype = dtype;
  arg.memref.data = data;
  arg.memref.rank = rank;
  for (i = 0; i < GEMM_RT_MAX_RANK; ++i) {
    arg.memref.sizes[i] = i < rank ? sizes[i] : 0;
    arg.memref.strides[i] = i < rank ? strides[i] : 0;
  }
  arg.scalar.i64 = 0;
  return arg;
}

static inline GemmRtArg gemmRtArgScalar(GemmRtDType dtype, GemmRtScalar value) {
  GemmRtArg arg;
  int64_t i;
  arg.kind = GEMM_RT_PARAM_SCALAR;
  arg.dtype = dtype;
  arg.memref.data = 0;
  arg.memref.rank = 0;
  for (i = 0; i < GEMM_RT_MAX_RANK; ++i)
    arg.memref.sizes[i] = arg.memref.strides[i] = 0;
  arg.scalar = value;
  return arg;
}

static inline GemmRtArg gemmRtArgF32(float value) {
  GemmRtScalar s;
  s.i64 = 0;
  s.f32 = value;
  return gemmRtArgScalar(GEMM_RT_DTYPE_F32, s);
}

static inline GemmRtArg gemmRtArgF64(double value) {
  GemmRtScalar s;
  s.f64 = value;
  return gemmRtArgScalar(GEMM_RT_DTYPE_F64, s);
}

static inline GemmRtArg gemmRtArgI32(int32_t value) {
  GemmRtScalar s;
  s.i64 = 0;
  s.i32 = value;
  return gemmRtArgScalar(GEMM_RT_DTYPE_I32, s);
}

static inline GemmRtArg gemmRtArgI64(int64_t value) {
  GemmRtScalar s;
  s.i64 = value;
  return gemmRtArgScalar(GEMM_RT_DTYPE_I64, s);
}

#ifdef __cplusplus
}
#endif

#endif // GEMM_C_RUNTIME_H
