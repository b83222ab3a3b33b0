//===- SplitK.cpp - the reduction of split-K GEMMs ------------------------===//
//
// The reduction kernel of a split-K GEMM: thread (x, y) of block (bx, by, bz)
// owns column bx * 32 + x of batch bz and walks rows by * 8 + y, stepping by
// the grid's rows; for each element it adds the slices of the workspace in
// slice order, starting from zero, and hands the sum to the epilogue
// (emitEpilogueElement: C read if the region reads it, extras, conversion,
// the store). Consecutive threads read and write consecutive columns.
//
//===----------------------------------------------------------------------===//

#include "SplitK.h"
#include "Epilogue.h"
#include "IndexMath.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::detail;

MemRefType mlir::gemm::detail::getSplitKWorkspaceType(MatmulOp op) {
  return MemRefType::get(SmallVector<int64_t>(4, ShapedType::kDynamic),
                         op.getAccType());
}

gpu::GPUFuncOp mlir::gemm::detail::buildSplitKReduceKernel(
    OpBuilder &b, MatmulOp op, ConfigAttr config, const TargetInfo &target,
    gpu::GPUModuleOp gpuModule, StringRef name, TypeRange argTypes) {
  Location loc = op.getLoc();
  SmallVector<Type> types(argTypes);
  types.push_back(getSplitKWorkspaceType(op));
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToEnd(gpuModule.getBody());
  auto kernel =
      gpu::GPUFuncOp::create(b, loc, name, b.getFunctionType(types, {}));
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  kernel.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr(
      {int32_t(kReduceBlockX), int32_t(kReduceBlockY), 1}));
  Block &entry = kernel.getBody().front();
  b.setInsertionPointToStart(&entry);

  KernelContext ctx;
  ctx.op = op;
  ctx.config = config;
  ctx.target = &target;
  ctx.c = entry.getArgument(0);
  for (unsigned i = 1; i + 1 < entry.getNumArguments(); ++i)
    ctx.extras.push_back(entry.getArgument(i));
  Value workspace = entry.getArgument(entry.getNumArguments() - 1);
  ctx.accType = op.getAccType();

  IndexMath m(b, loc);
  auto blockId = [&](gpu::Dimension d) {
    return m.from(gpu::BlockIdOp::create(b, loc, d));
  };
  auto threadId = [&](gpu::Dimension d) {
    return m.from(gpu::ThreadIdOp::create(b, loc, d));
  };
  unsigned b0 = op.hasBatch() ? 1 : 0;
  ctx.m = m.from(memref::DimOp::create(b, loc, ctx.c, b0));
  ctx.n = m.from(memref::DimOp::create(b, loc, ctx.c, b0 + 1));
  if (op.hasBatch())
    ctx.batch = blockId(gpu::Dimension::z);
  Value col = m.add(m.mul(blockId(gpu::Dimension::x), kReduceBlockX),
                    threadId(gpu::Dimension::x));
  Value row0 = m.add(m.mul(blockId(gpu::Dimension::y), kReduceBlockY),
                     threadId(gpu::Dimension::y));
  // The grid's rows, as the host computes grid.y (not read from the grid:
  // ROCDL would need the ROCm device library for it).
  Value rowStep =
      m.mul(m.min(m.ceilDiv(ctx.m, kReduceBlockY), m.c(kMaxReduceGridY)),
            kReduceBlockY);
  Value slices = memref::DimOp::create(b, loc, workspace, 1);
  Value batchIdx = m.idx(ctx.batch ? ctx.batch : m.c(0));

  auto ifCol = scf::IfOp::create(b, loc, m.lt(col, ctx.n),
                                 /*withElseRegion=*/false);
  b.setInsertionPointToStart(&ifCol.getThenRegion().front());
  auto rows = scf::ForOp::create(b, loc, row0, ctx.m, rowStep);
  b.setInsertionPointToStart(rows.getBody());
  Value row = rows.getInductionVar();
  IndexMath mi(b, loc, /*useIndex=*/true);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(ctx.accType));
  auto sum = scf::ForOp::create(
      b, loc, mi.c(0), slices, mi.c(1), ValueRange{zero},
      [&](OpBuilder &b, Location loc, Value s, ValueRange acc) {
        IndexMath ms(b, loc);
        Value part = memref::LoadOp::create(
            b, loc, workspace,
            ValueRange{batchIdx, s, ms.idx(row), ms.idx(col)});
        Value next = isa<FloatType>(ctx.accType)
                         ? Value(arith::AddFOp::create(b, loc, acc[0], part))
                         : Value(arith::AddIOp::create(b, loc, acc[0], part));
        scf::YieldOp::create(b, loc, next);
      });
  emitEpilogueElement(b, loc, ctx, row, col, sum.getResult(0));
  b.setInsertionPointAfter(ifCol);
  gpu::ReturnOp::create(b, loc);
  return kernel;
}
