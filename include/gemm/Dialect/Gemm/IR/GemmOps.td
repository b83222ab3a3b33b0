//===- GemmOps.td - gemm dialect operations ----------------*- tablegen -*-===//
//
// gemm.matmul (a GEMM with layout, accumulator type, epilogue and config) and
// gemm.yield (the epilogue terminator).
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_OPS_TD
#define GEMM_OPS_TD

include "gemm/Dialect/Gemm/IR/GemmDialect.td"
include "gemm/Dialect/Gemm/IR/GemmAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

class Gemm_Op<string mnemonic, list<Trait> traits = []>
    : Op<Gemm_Dialect, mnemonic, traits>;

def Gemm_ElementType : AnyTypeOf<[F16, BF16, F32, F64, I8, F8E4M3FN, F8E5M2],
    "gemm operand element type">;

def Gemm_MatmulOp : Gemm_Op<"matmul", [
    SingleBlock, IsolatedFromAbove,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "general matrix multiplication with a fused epilogue";
  let description = [{
    Computes, for every output element `(b, m, n)`,

    ```
    acc = sum_k A[b, m, k] * B[b, k, n]          (in the accumulator type)
    C[b, m, n] = epilogue(acc, C[b, m, n], extras...)
    ```

    The layout fixes how A and B are stored (letter 1 is A, letter 2 is B):

    | layout | A | B |
    |---|---|---|
    | nn | M x K | K x N |
    | nt | K x M | K x N |
    | tn | M x K | N x K |
    | tt | K x M | N x K |

    All three operands are memrefs of rank 2, or rank 3 with a leading batch
    dimension. Dimensions may be static or dynamic and layouts strided; the
    innermost dimension need not be contiguous.

    `extras` are additional epilogue inputs: scalars (alpha, beta, clamp
    bounds) or memrefs whose indexing is given by `broadcast`, one entry per
    extra: `#gemm.bcast<row>` (M values), `#gemm.bcast<col>` (N values),
    `#gemm.bcast<full>` (M x N, optionally batched) or `#gemm.bcast<scalar>`
    (a scalar operand).

    The optional epilogue region receives the accumulator, the current
    element of C and one element (or the scalar) per extra, and yields the
    value stored to C. It holds side-effect-free scalar arith/math ops only
    and is isolated from above (it becomes part of a kernel): values from
    outside come in as extras.
    Without a region the accumulator is converted to C's element type
    (saturating for integers). When the region does not use its C argument,
    C is never loaded.

    Example (a linear layer: `C = relu(alpha * A B^T + bias)`):

    ```mlir
    gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
        outs(%c : memref<?x?xf16>)
        extras(%alpha, %bias : f32, memref<?xf32>) acc(f32)
        {broadcast = [#gemm.bcast<scalar>, #gemm.bcast<col>]} {
    ^bb0(%acc: f32, %cin: f16, %al: f32, %bi: f32):
      %s = arith.mulf %acc, %al : f32
      %t = arith.addf %s, %bi : f32
      %z = arith.constant 0.0 : f32
      %r = arith.maximumf %t, %z : f32
      %h = arith.truncf %r : f32 to f16
      gemm.yield %h : f16
    }
    ```
  }];

  let arguments = (ins
    Gemm_Layout:$layout,
    AnyMemRef:$a,
    AnyMemRef:$b,
    AnyMemRef:$c,
    Variadic<AnyType>:$extras,
    TypeAttr:$acc_type,
    OptionalAttr<Gemm_BroadcastArrayAttr>:$broadcast,
    OptionalAttr<Gemm_ConfigAttr>:$config
  );
  let regions = (region MaxSizedRegion<1>:$epilogue);

  let assemblyFormat = [{
    $layout `ins` `(` $a `,` $b `:` type($a) `,` type($b) `)`
    `outs` `(` $c `:` type($c) `)`
    (`extras` `(` $extras^ `:` type($extras) `)`)?
    `acc` `(` $acc_type `)` attr-dict-with-keyword ($epilogue^)?
  }];

  let hasVerifier = 1;
  let hasRegionVerifier = 1;

  let extraClassDeclaration = [{
    /// True if the operands carry a leading batch dimension.
    bool hasBatch() { return getC().getType().getRank() == 3; }
    /// Element types of A, B and C.
    ::mlir::Type getAElementType() { return getA().getType().getElementType(); }
    ::mlir::Type getBElementType() { return getB().getType().getElementType(); }
    ::mlir::Type getCElementType() { return getC().getType().getElementType(); }
    /// True if the epilogue region is present.
    bool hasEpilogue() { return !getEpilogue().empty(); }
    /// True if C is read: the epilogue uses its C argument.
    bool readsC();
    /// Broadcast of extra operand `i` (scalar for non-memref extras).
    ::mlir::gemm::Broadcast getExtraBroadcast(unsigned i);
    /// Positions of A's M and K dims and B's K and N dims, batch excluded.
    unsigned getAMDim() { return isTransposedA() ? 1 : 0; }
    unsigned getAKDim() { return isTransposedA() ? 0 : 1; }
    unsigned getBKDim() { return isTransposedB() ? 1 : 0; }
    unsigned getBNDim() { return isTransposedB() ? 0 : 1; }
    bool isTransposedA() {
      return getLayout() == Layout::nt || getLayout() == Layout::tt;
    }
    bool isTransposedB() {
      return getLayout() == Layout::tn || getLayout() == Layout::tt;
    }
    /// Static problem sizes (ShapedType::kDynamic when dynamic).
    int64_t getStaticM();
    int64_t getStaticN();
    int64_t getStaticK();
    /// The op's types and layout, as the legality rules and the default
    /// configs see them (gemm/Target/Legality.h). Requires a verified op.
    ::mlir::gemm::GemmSignature getSignature();
    /// Checks `config` against `target`'s limits for the op's types
    /// (checkConfigOnTarget); emits the reason at the op and fails otherwise.
    ::mlir::LogicalResult verifyConfigForTarget(
        ::mlir::gemm::ConfigAttr config, const ::mlir::gemm::TargetInfo &target);
  }];
}

def Gemm_YieldOp : Gemm_Op<"yield", [Pure, Terminator, ReturnLike,
    HasParent<"MatmulOp">]> {
  let summary = "epilogue terminator";
  let description = [{
    Yields the value the epilogue stores to C; it must have C's element type.
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

#endif // GEMM_OPS_TD
