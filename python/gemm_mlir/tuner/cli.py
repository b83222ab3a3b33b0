"""The gemm-mlir tuner, in two halves (docs/tuning.md, Running the tuner).

Run as `python3 -m gemm_mlir.tune SUBCOMMAND ...` with PYTHONPATH=python (or
`python3 python/gemm_mlir/tune.py SUBCOMMAND ...`).

Local half (here, where gemm-opt and gemm-tune-space are built):

  prepare OUT [--suite validation|db|all|every|decode|decode-large] [--top N] [--grid]
      Asks gemm-tune-space (the C++ lattice and cost model; nothing here
      re-implements them) for the candidates of each problem class: the
      Pareto frontier's fastest points and the model's pick for every shape
      of the suite, optionally a broad grid of the lattice; writes one
      gemm.matmul per (class, candidate) with dynamic M/N/K (one kernel
      serves every shape), compiles each with gemm-opt to PTX + manifest
      (failures are recorded, never chosen) and writes OUT/plan.json.

Device half (on the GPU machine, with OUT and python/ carried; needs only
CUDA, CuPy and PyTorch):

  measure OUT --results DIR
      Assembles every PTX with ptxas for the plan's chip (registers/spills
      recorded), then per class and shape: random inputs, a float64
      reference, cuBLAS timed on the same inputs; each candidate is launched
      on a NaN-poisoned output and checked, then timed with CUDA events
      (warm-up, median). One log line per candidate (class, shape, config,
      TFLOP/s, status). Writes DIR/measurements.json (every candidate) and
      DIR/tuning-db.json (the fastest correct candidate per class and shape).

Local again:

  report MEASUREMENTS [--param NAME=VALUE ...] [--markdown FILE]
      Evaluates the cost model on the measured candidates and on the whole
      lattice (its pick), and reports per shape the best measured config, the
      model pick's measured ratio to it, the fraction of shapes at >= 0.9 and
      the Spearman rank correlation of predicted vs measured time.
  calibrate MEASUREMENTS... [--cls KEY]     fits the model's constants
  holdout --train RUNS... --test RUN        fits on half the shapes, scores the rest
  merge DB... --out FILE                    the fastest entry per key and shape
  picks KEY                                 the model's picks, one JSON line each
"""
import argparse
import os

from .analysis import cmd_calibrate, cmd_holdout, cmd_report
from .measure import cmd_measure
from .prepare import cmd_picks, cmd_prepare
from .tuning_db import cmd_merge

# The repository root (this file is python/gemm_mlir/tuner/cli.py) and its build/.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
DEFAULT_BUILD = os.path.join(ROOT, "build")

COMMANDS = {"prepare": cmd_prepare, "measure": cmd_measure, "report": cmd_report,
            "calibrate": cmd_calibrate, "picks": cmd_picks, "merge": cmd_merge,
            "holdout": cmd_holdout}


def make_parser(prog=None):
    """The command line: one subcommand per entry of COMMANDS, flags as
    tune.py always had them."""
    p = argparse.ArgumentParser(prog=prog, description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    q = sub.add_parser("prepare", help="candidates of each class, compiled to PTX (local)")
    q.add_argument("out")
    q.add_argument("--build", default=DEFAULT_BUILD)
    q.add_argument("--chip", default="sm_90")
    q.add_argument("--suite", default="all", choices=["validation", "db", "all", "every", "decode", "decode-large"])
    q.add_argument("--dispatch", action="store_true",
                   help="add the dispatch family's members (with their slices) per shape")
    q.add_argument("--top", type=int, default=6,
                   help="frontier points per shape (0: all, -1: none)")
    q.add_argument("--model-top", type=int, default=0,
                   help="the model's fastest lattice points per shape")
    q.add_argument("--param", action="append", default=[], help="model parameter NAME=VALUE")
    q.add_argument("--param-set", action="append", default=[],
                   help="another parameter set for --model-top (NAME=VALUE,...)")
    q.add_argument("--extra-file", default="",
                   help="JSON lines {class, config, why} to add")
    q.add_argument("--classes", default="", help="only these class keys (comma-separated)")
    q.add_argument("--grid", action="store_true", help="add a broad lattice sample")
    q.add_argument("--extra", action="append", default=[], help="a JSON config to add")
    q.add_argument("--jobs", type=int, default=2)
    m = sub.add_parser("measure", help="ptxas, check and time every candidate (GPU machine)")
    m.add_argument("art")
    m.add_argument("--results", required=True)
    m.add_argument("--reps", type=int, default=0)
    r = sub.add_parser("report", help="the cost model against measurements")
    r.add_argument("measurements", nargs="+")
    r.add_argument("--build", default=DEFAULT_BUILD)
    r.add_argument("--chip", default="sm_90")
    r.add_argument("--param", action="append", default=[])
    r.add_argument("--only", default="")
    r.add_argument("--json", default="")
    r.add_argument("--markdown", default="")
    c = sub.add_parser("calibrate", help="fit the model's constants to measurements")
    c.add_argument("measurements", nargs="+")
    c.add_argument("--cls", default="f16_tn_none")
    c.add_argument("--build", default=DEFAULT_BUILD)
    c.add_argument("--chip", default="sm_90")
    c.add_argument("--param", action="append", default=[])
    c.add_argument("--rounds", type=int, default=3)
    h = sub.add_parser("holdout", help="held-out check of the calibration")
    h.add_argument("--train", nargs="+", required=True)
    h.add_argument("--test", required=True)
    h.add_argument("--parity", type=int, default=0, help="fit on shapes of this index parity")
    h.add_argument("--build", default=DEFAULT_BUILD)
    h.add_argument("--chip", default="sm_90")
    g = sub.add_parser("merge", help="merge tuning databases")
    g.add_argument("dbs", nargs="+")
    g.add_argument("--out", required=True)
    k = sub.add_parser("picks", help="the model's picks for a class, as JSON lines")
    k.add_argument("cls")
    k.add_argument("--build", default=DEFAULT_BUILD)
    k.add_argument("--chip", default="sm_90")
    k.add_argument("--param", action="append", default=[])
    return p


def main(argv=None, prog=None):
    a = make_parser(prog).parse_args(argv)
    COMMANDS[a.cmd](a)

