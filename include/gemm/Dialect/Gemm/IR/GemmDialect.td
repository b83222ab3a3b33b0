//===- GemmDialect.td - The gemm dialect -------------------*- tablegen -*-===//
//
// The gemm dialect models a GEMM problem and the choices that implement it:
// operand layout, element and accumulator types, an epilogue region, and a
// configuration (tile shapes, instruction kind, pipeline stages, shared-memory
// layout) checked against a target chip.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_DIALECT_TD
#define GEMM_DIALECT_TD

include "mlir/IR/OpBase.td"

def Gemm_Dialect : Dialect {
  let name = "gemm";
  let cppNamespace = "::mlir::gemm";
  let summary = "GEMM problems, their layouts, epilogues and tilings";
  let description = [{
    The `gemm` dialect describes a general matrix multiplication
    `D = epilogue(A x B, C, extras...)` on memrefs together with how it is to
    be implemented on a GPU. `gemm.matmul` holds the problem (layout, element
    and accumulator types, optional batch dimension, epilogue region);
    `#gemm.config` holds the implementation choices (instruction kind, block
    tile, warp grid, instruction shape, stages, shared-memory layout,
    rasterization and split-K); `#gemm.target` names a chip of the project's
    target table, whose limits the verifiers check the configuration against.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Registers the attributes (defined in GemmAttrs.cpp with their storage).
    void registerAttributes();
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // GEMM_DIALECT_TD
