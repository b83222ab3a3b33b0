//===- GemmDialect.cpp - gemm dialect registration ------------------------===//
//
// Registers the gemm dialect's operations and attributes.
//
//===----------------------------------------------------------------------===//

#include "gemm/Dialect/Gemm/IR/GemmDialect.h"
#include "gemm/Dialect/Gemm/IR/GemmAttrs.h"
#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::gemm;

#include "gemm/Dialect/Gemm/IR/GemmOpsDialect.cpp.inc"

void GemmDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "gemm/Dialect/Gemm/IR/GemmOps.cpp.inc"
      >();
  registerAttributes();
}

LogicalResult GemmDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  if (attr.getName() == kTargetAttrName) {
    if (!isa<TargetAttr>(attr.getValue()))
      return op->emitError() << "expected '" << kTargetAttrName
                             << "' to be a #gemm.target attribute, got "
                             << attr.getValue();
    return success();
  }
  if (attr.getName() == kKernelsAttrName) {
    if (!isa<ArrayAttr>(attr.getValue()))
      return op->emitError() << "expected '" << kKernelsAttrName
                             << "' to be an array of kernel descriptions";
    return success();
  }
  return op->emitError() << "unknown gemm dialect attribute '"
                         << attr.getName().getValue() << "'";
}
