//===- Passes.td - gemm dialect transforms -----------------*- tablegen -*-===//

#ifndef GEMM_DIALECT_GEMM_TRANSFORMS_PASSES_TD
#define GEMM_DIALECT_GEMM_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def GemmSelectConfig : Pass<"gemm-select-config", "::mlir::ModuleOp"> {
  let summary = "Choose a #gemm.config for every gemm.matmul without one";
  let description = [{
    Fills in the `config` of every `gemm.matmul` that has none, for the chip
    named by `target` (or, when empty, by the module's `gemm.target`):

    1. from the tuning database `tuning-db` (JSON, schema in
       docs/tuning.md) when it holds an entry for the chip, operand and
       accumulator types, layout and epilogue class (the problem's class, else
       `none`): the entry of the same shape bucket (each of M, N, K rounded to
       the nearest power of two; dynamic sizes count as 4096), else the
       nearest bucket (sum of log2 distances; ties to the entry listed first);
    2. otherwise from the analytical cost model: the fastest point of the
       legal lattice (gemm/Tuning/Lattice.h, gemm/Tuning/CostModel.h).

    Explicit configs are kept and checked against the chip. A database that
    cannot be read, is malformed, has the wrong schema or version, names an
    unknown chip or holds a config that is illegal for its key is an error.
    With `report`, every choice is reported as a remark saying where it came
    from.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "Target chip (default: the module's gemm.target)">,
    Option<"tuningDb", "tuning-db", "std::string", /*default=*/"\"\"",
           "Tuning database (JSON) consulted before the cost model">,
    Option<"allowTf32", "allow-tf32", "bool", /*default=*/"false",
           "Let f32 GEMMs run on tf32 tensor cores">,
    Option<"report", "report", "bool", /*default=*/"false",
           "Emit a remark per gemm.matmul naming the source of its config">
  ];
  let statistics = [
    Statistic<"numFromDB", "num-from-db", "Configs taken from the database">,
    Statistic<"numFromModel", "num-from-model",
              "Configs picked by the cost model">,
    Statistic<"numExplicit", "num-explicit", "Explicit configs kept">
  ];
}

#endif // GEMM_DIALECT_GEMM_TRANSFORMS_PASSES_TD
