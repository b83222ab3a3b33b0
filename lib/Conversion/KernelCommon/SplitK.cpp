//===- SplitK.cpp - the reduction of split-K GEMMs ------------------------===//
//
// The reduction kernel of a split-K GEMM. A block of 32 x 8 threads covers
// 32 columns (consecutive threads, consecutive columns) of R rows, and the
// 8 / R threads of a column and row (its slice groups, G = 8 / R) add the
// slices g, g + G, g + 2G, ... in order, each from zero; the group sums meet
// in shared memory, where the first thread adds them in group order and
// hands the total to the epilogue (emitEpilogueElement: C read if the region
// reads it, extras, conversion, the store). A thread loads four of its
// slices at once before adding them in order, and the last one to three
// at once too, so that its loads take ceil(count / 4) round trips.
// G is 8 from 8 slices on when the outputs are few (batch * M * N at most
// 1024 per slice: K-heavy GEMMs), spreading many slices over 8 threads an
// element; otherwise 1, one thread an element: 2 groups of 2 slices made
// f16 1023x999x777 slower (twice the blocks and a barrier for one load
// each), and 8 groups took 14.4 us for f16 181x1048x2512 in 9 slices (5973
// blocks of 32 outputs). The order of the additions depends on the sizes
// only, so the same sizes give the same bits. Block rows walk M in a
// grid-stride loop.
//
// With `reduction = cluster` there is no workspace and no second kernel:
// the S slices of a tile are one thread-block cluster of (1, S, 1) blocks;
// each stages its partial sums in its own shared memory, and after a
// cluster barrier block s adds, for the s-th share of the tile's elements,
// the S partial sums in slice order through distributed shared memory
// (mapa + ld.shared::cluster) and applies the epilogue (deterministic too).
//
//===----------------------------------------------------------------------===//

#include "SplitK.h"
#include "Epilogue.h"
#include "IndexMath.h"
#include "KernelSetup.h"
#include "gemm/Dialect/Gemm/IR/GemmAttrs.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::detail;

/// x + y of two partial sums (addf or addi, by their type): the slices'
/// sums of every reduction below.
static Value addPartials(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::AddFOp::create(b, loc, x, y);
  return arith::AddIOp::create(b, loc, x, y);
}

Value mlir::gemm::detail::emitReduceRowsPerBlock(IndexMath &m, Value slices,
                                                 Value batch, Value rows,
                                                 Value cols) {
  // batch * rows * cols <= L (L = kReduceGroupOutputs * slices < 2^27) as
  // batch <= L / rows / cols, which cannot overflow 32 bits.
  Value limit = m.mul(slices, kReduceGroupOutputs);
  Value few = m.le(
      batch, m.div(m.div(limit, m.max(rows, m.c(1))), m.max(cols, m.c(1))));
  // 1 row of 8 groups from 8 slices on for few outputs, else 8 rows.
  Value grouped = m.andI1(m.le(m.c(kReduceBlockY), slices), few);
  return m.select(grouped, m.c(1), m.c(kReduceBlockY));
}

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
  Value tx = threadId(gpu::Dimension::x), ty = threadId(gpu::Dimension::y);
  Value col = m.add(m.mul(blockId(gpu::Dimension::x), kReduceBlockX), tx);
  Value slices = m.from(memref::DimOp::create(b, loc, workspace, 1));
  Value batches =
      op.hasBatch() ? m.from(memref::DimOp::create(b, loc, ctx.c, 0)) : m.c(1);
  // Thread row ty is slice group ty % groups of block row ty / groups.
  Value rowsPerBlock = emitReduceRowsPerBlock(m, slices, batches, ctx.m, ctx.n);
  Value groups = m.div(m.c(kReduceBlockY), rowsPerBlock);
  Value group = m.rem(ty, groups);
  Value blockRow = m.div(ty, groups);
  // The grid's rows, as the host computes grid.y (not read from the grid:
  // ROCDL would need the ROCm device library for it).
  Value rowStep =
      m.mul(m.min(m.ceilDiv(ctx.m, rowsPerBlock), m.c(kMaxReduceGridY)),
            rowsPerBlock);
  Value batchIdx = m.idx(ctx.batch ? ctx.batch : m.c(0));
  // The groups' partial sums, [ty][tx].
  auto wg =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  Value partials = kernel.addWorkgroupAttribution(
      MemRefType::get({kReduceBlockY * kReduceBlockX}, ctx.accType,
                      MemRefLayoutAttrInterface(), wg),
      loc);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(ctx.accType));

  // Block rows step together (the barriers below), each thread's row
  // inside C or not.
  auto rows = scf::ForOp::create(
      b, loc, m.idx(m.mul(blockId(gpu::Dimension::y), rowsPerBlock)),
      m.idx(ctx.m), m.idx(rowStep));
  b.setInsertionPointToStart(rows.getBody());
  {
    IndexMath mr(b, loc);
    Value row = mr.add(mr.from(rows.getInductionVar()), blockRow);
    Value inside = mr.andI1(mr.lt(row, ctx.m), mr.lt(col, ctx.n));
    // This group's slices, group, group + groups, ..., added in order:
    // kReduceUnroll of them loaded at once, then the rest (fewer) at once.
    auto partial = scf::IfOp::create(
        b, loc, inside,
        [&](OpBuilder &b, Location loc) {
          IndexMath ms(b, loc);
          auto load = [&](OpBuilder &b, Location loc, Value s) -> Value {
            IndexMath ml(b, loc);
            return memref::LoadOp::create(
                b, loc, workspace,
                ValueRange{batchIdx, ml.idx(s), ml.idx(row), ml.idx(col)});
          };
          // The group's slice count, and the part of it that unrolls.
          Value count = ms.div(
              ms.add(ms.sub(slices, group), ms.sub(groups, ms.c(1))), groups);
          Value unrolled = ms.mul(ms.div(count, kReduceUnroll), kReduceUnroll);
          auto main = scf::ForOp::create(
              b, loc, ms.idx(ms.c(0)), ms.idx(unrolled),
              ms.idx(ms.c(kReduceUnroll)), ValueRange{zero},
              [&](OpBuilder &b, Location loc, Value i, ValueRange acc) {
                IndexMath ml(b, loc);
                Value first = ml.add(group, ml.mul(ml.from(i), groups));
                SmallVector<Value> parts;
                for (int64_t j = 0; j < kReduceUnroll; ++j)
                  parts.push_back(
                      load(b, loc, ml.add(first, ml.mul(groups, ml.c(j)))));
                Value sum = acc[0];
                for (Value p : parts)
                  sum = addPartials(b, loc, sum, p);
                scf::YieldOp::create(b, loc, sum);
              });
          // The last count - unrolled (< 4) slices, loaded at once as
          // well: indices past the group's last slice load that slice
          // again (in bounds, and in cache) and are not added.
          Value left = ms.sub(count, unrolled);
          auto rest = scf::IfOp::create(
              b, loc, ms.lt(ms.c(0), left),
              [&](OpBuilder &b, Location loc) {
                IndexMath ml(b, loc);
                SmallVector<Value> parts;
                for (int64_t j = 0; j < kReduceUnroll - 1; ++j) {
                  Value i =
                      ml.min(ml.add(unrolled, ml.c(j)), ml.sub(count, ml.c(1)));
                  parts.push_back(
                      load(b, loc, ml.add(group, ml.mul(i, groups))));
                }
                // The first is always one of them.
                Value sum = addPartials(b, loc, main.getResult(0), parts[0]);
                for (int64_t j = 1; j < kReduceUnroll - 1; ++j)
                  sum = arith::SelectOp::create(
                      b, loc, ml.lt(ml.c(j), left),
                      addPartials(b, loc, sum, parts[j]), sum);
                scf::YieldOp::create(b, loc, sum);
              },
              [&](OpBuilder &b, Location loc) {
                scf::YieldOp::create(b, loc, main.getResult(0));
              });
          scf::YieldOp::create(b, loc, rest.getResult(0));
        },
        [&](OpBuilder &b, Location loc) {
          scf::YieldOp::create(b, loc, zero);
        });
    Value at = mr.add(mr.mul(ty, kReduceBlockX), tx);
    memref::StoreOp::create(b, loc, partial.getResult(0), partials,
                            ValueRange{mr.idx(at)});
    gpu::BarrierOp::create(b, loc);
    // The first thread of each group adds the groups' sums in group order
    // and runs the epilogue once on the total.
    Value first =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, group, mr.c(0));
    emitIfTrue(b, loc, mr.andI1(first, inside), [&](OpBuilder &b) {
      IndexMath mt(b, loc);
      auto total = scf::ForOp::create(
          b, loc, mt.idx(mt.c(0)), mt.idx(groups), mt.idx(mt.c(1)),
          ValueRange{zero},
          [&](OpBuilder &b, Location loc, Value j, ValueRange acc) {
            IndexMath ml(b, loc);
            Value idx = ml.add(at, ml.mul(ml.from(j), kReduceBlockX));
            Value p = memref::LoadOp::create(b, loc, partials,
                                             ValueRange{ml.idx(idx)});
            scf::YieldOp::create(b, loc, addPartials(b, loc, acc[0], p));
          });
      emitEpilogueElement(b, loc, ctx, row, col, total.getResult(0));
    });
    gpu::BarrierOp::create(b, loc);
  }
  b.setInsertionPointAfter(rows);
  gpu::ReturnOp::create(b, loc);
  return kernel;
}

//===----------------------------------------------------------------------===//
// The reduction inside a cluster (`reduction = cluster`)
//===----------------------------------------------------------------------===//

int64_t mlir::gemm::detail::emitClusterReduction(OpBuilder &b,
                                                 KernelContext &ctx,
                                                 ComputeStep &step,
                                                 ValueRange acc) {
  Location loc = ctx.op.getLoc();
  MLIRContext *mctx = b.getContext();
  ConfigAttr cfg = ctx.config;
  TileConfig tile = toTileConfig(cfg);
  Type accType = ctx.accType;
  unsigned accBytes = accType.getIntOrFloatBitWidth() / 8;
  int64_t pitch = clusterStagingPitch(tile, accBytes);
  int64_t bytes = estimateClusterStagingBytes(tile, accBytes);
  int64_t threads = cfg.getNumWarps() * ctx.target->warpSize;

  // Every warp is done with the operand tiles the partial sums overwrite.
  gpu::BarrierOp::create(b, loc);
  auto wg = gpu::AddressSpaceAttr::get(mctx, gpu::AddressSpace::Workgroup);
  Value smem = gpu::DynamicSharedMemoryOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                      MemRefLayoutAttrInterface(), wg));
  Value staged = memref::ViewOp::create(
      b, loc,
      MemRefType::get({bytes / accBytes}, accType, MemRefLayoutAttrInterface(),
                      wg),
      smem, arith::ConstantIndexOp::create(b, loc, 0), ValueRange{});
  step.forEachElement(b, loc, acc, [&](Value row, Value col, Value value) {
    IndexMath m(b, loc);
    memref::StoreOp::create(b, loc, value, staged,
                            ValueRange{m.idx(m.add(m.mul(row, pitch), col))});
  });
  // Every block of the cluster has staged its slice (the arrive releases,
  // the wait acquires the cluster's shared memory writes).
  auto clusterSync = [&] {
    NVVM::ClusterArriveOp::create(b, loc, b.getUnitAttr());
    NVVM::ClusterWaitOp::create(b, loc, b.getUnitAttr());
  };
  clusterSync();

  // The staged tile's address, as the cluster's blocks map it (mapa).
  auto sharedPtr = LLVM::LLVMPointerType::get(
      mctx, static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
  auto clusterPtr = LLVM::LLVMPointerType::get(
      mctx, static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster));
  Value address = arith::IndexCastOp::create(
      b, loc, b.getI64Type(),
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, smem));
  Value base = LLVM::IntToPtrOp::create(b, loc, sharedPtr, address,
                                        LLVM::DereferenceableAttr());

  // Block `slice` of the cluster reduces the slice-th share of the tile's
  // elements inside C (row-major over the rows inside C, consecutive
  // threads on consecutive columns): it adds the slices' partial sums in
  // slice order, read from each block's shared memory, and applies the
  // epilogue once.
  IndexMath m(b, loc);
  Value rowsInside = m.min(m.sub(ctx.m, ctx.tileM0), m.c(cfg.getBM()));
  Value total = m.mul(rowsInside, cfg.getBN());
  Value share = m.ceilDiv(total, ctx.slices);
  Value begin = m.mul(ctx.slice, share);
  Value end = m.min(m.add(begin, share), total);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(accType));
  auto loop = scf::ForOp::create(
      b, loc, m.idx(m.c(0)), m.idx(m.ceilDiv(share, threads)), m.idx(m.c(1)));
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    IndexMath mi(b, loc);
    Value e =
        mi.add(mi.add(begin, mi.mul(mi.from(loop.getInductionVar()), threads)),
               ctx.tid);
    emitIfTrue(b, loc, mi.lt(e, end), [&](OpBuilder &b) {
      IndexMath me(b, loc);
      Value r = me.div(e, cfg.getBN()), c = me.rem(e, cfg.getBN());
      Value offset = me.add(me.mul(r, pitch), c);
      auto sum = scf::ForOp::create(
          b, loc, me.idx(me.c(0)), me.idx(ctx.slices), me.idx(me.c(1)),
          ValueRange{zero},
          [&](OpBuilder &b, Location loc, Value q, ValueRange partial) {
            IndexMath mq(b, loc);
            Value remote =
                NVVM::MapaOp::create(b, loc, clusterPtr, base, mq.from(q));
            Value at = LLVM::GEPOp::create(b, loc, clusterPtr, accType, remote,
                                           ValueRange{offset});
            Value x = LLVM::LoadOp::create(b, loc, accType, at);
            scf::YieldOp::create(b, loc, addPartials(b, loc, partial[0], x));
          });
      emitEpilogueElement(b, loc, ctx, me.add(ctx.tileM0, r),
                          me.add(ctx.tileN0, c), sum.getResult(0));
    });
  }
  // No block leaves (its shared memory) while another may still read it.
  clusterSync();
  return bytes;
}

//===----------------------------------------------------------------------===//
// The fix-up of the last wave's split tiles (`reduction = fixup`)
//===----------------------------------------------------------------------===//

MemRefType mlir::gemm::detail::getFixupWorkspaceType(MatmulOp op,
                                                     ConfigAttr config) {
  return MemRefType::get({ShapedType::kDynamic, ShapedType::kDynamic,
                          config.getBM(), config.getBN()},
                         op.getAccType());
}

MemRefType mlir::gemm::detail::getFixupFlagsType(MLIRContext *ctx) {
  return MemRefType::get({ShapedType::kDynamic}, IntegerType::get(ctx, 32));
}

SmallVector<Value> mlir::gemm::detail::emitFixupReduction(OpBuilder &b,
                                                          KernelContext &ctx,
                                                          ComputeStep &step,
                                                          ValueRange acc,
                                                          Value &owner) {
  Location loc = ctx.op.getLoc();
  MLIRContext *mctx = b.getContext();
  // The word through which the block's first thread tells the others
  // whether the block counted last.
  // (Found from an argument: the builder may be inside an op still being
  // built, which has no parent yet.)
  auto kernel = cast<gpu::GPUFuncOp>(
      cast<BlockArgument>(ctx.flags).getOwner()->getParentOp());
  auto wg = gpu::AddressSpaceAttr::get(mctx, gpu::AddressSpace::Workgroup);
  Value lastWord = kernel.addWorkgroupAttribution(
      MemRefType::get({1}, b.getI32Type(), MemRefLayoutAttrInterface(), wg),
      loc);
  // fence.sc.gpu (membar.gl): a thread's plane stores are visible GPU-wide
  // before the flag counts them; the counting block's loads come after.
  auto gpuFence = [&](OpBuilder &b) {
    NVVM::MembarOp::create(b, loc, NVVM::MemScopeKind::GPU);
  };
  auto eq = [&](OpBuilder &b, Value x, Value y) -> Value {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
  };
  SmallVector<Type> types(acc.getTypes());
  types.push_back(b.getI1Type());
  scf::IfOp split = emitIfElse(
      b, loc, types, ctx.split,
      [&](OpBuilder &b) {
        IndexMath m(b, loc);
        Value tile = m.idx(ctx.tailTile);
        auto at = [&](IndexMath &mi, Value slice, Value row, Value col) {
          return SmallVector<Value>{tile, mi.idx(slice), mi.idx(row),
                                    mi.idx(col)};
        };
        step.forEachElement(b, loc, acc, [&](Value row, Value col, Value v) {
          memref::StoreOp::create(b, loc, v, ctx.workspace,
                                  at(m, ctx.slice, row, col));
        });
        gpuFence(b);
        ctx.emitComputeBarrier(b, loc);
        emitIfTrue(b, loc, eq(b, ctx.tid, m.c(0)), [&](OpBuilder &b) {
          IndexMath mf(b, loc);
          Value before = memref::AtomicRMWOp::create(
              b, loc, arith::AtomicRMWKind::addi, mf.c(1), ctx.flags,
              ValueRange{tile});
          Value last = eq(b, before, mf.sub(ctx.slices, mf.c(1)));
          memref::StoreOp::create(
              b, loc, arith::ExtUIOp::create(b, loc, b.getI32Type(), last),
              lastWord, ValueRange{mf.idx(mf.c(0))});
          // Every slice has counted: the flag is the next launch's again.
          emitIfTrue(b, loc, last, [&](OpBuilder &b) {
            IndexMath ml(b, loc);
            memref::StoreOp::create(b, loc, ml.c(0), ctx.flags,
                                    ValueRange{tile});
          });
        });
        ctx.emitComputeBarrier(b, loc);
        Value last = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::ne,
            memref::LoadOp::create(b, loc, lastWord, ValueRange{m.idx(m.c(0))}),
            m.c(0));
        scf::IfOp reduce = emitIfElse(
            b, loc, acc.getTypes(), last,
            [&](OpBuilder &b) {
              gpuFence(b);
              IndexMath mr(b, loc);
              SmallVector<Value> sum = emitForYielding(
                  b, loc, mr.c(0), ctx.slices, mr.c(1),
                  step.initAccumulators(b, loc),
                  [&](OpBuilder &b, Value q, ValueRange partial) {
                    IndexMath mq(b, loc);
                    return step.mapElements(
                        b, loc, partial, [&](Value row, Value col, Value v) {
                          Value x = memref::LoadOp::create(
                              b, loc, ctx.workspace, at(mq, q, row, col));
                          return addPartials(b, loc, v, x);
                        });
                  });
              scf::YieldOp::create(b, loc, sum);
            },
            [&](OpBuilder &b) { scf::YieldOp::create(b, loc, acc); });
        SmallVector<Value> results(reduce.getResults());
        results.push_back(last);
        scf::YieldOp::create(b, loc, results);
      },
      [&](OpBuilder &b) {
        SmallVector<Value> results(acc);
        results.push_back(arith::ConstantIntOp::create(b, loc, 1, 1));
        scf::YieldOp::create(b, loc, results);
      });
  owner = split.getResults().back();
  return SmallVector<Value>(split.getResults().drop_back());
}
