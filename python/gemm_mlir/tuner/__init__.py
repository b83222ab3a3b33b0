"""The gemm-mlir tuner (`python3 -m gemm_mlir.tune`; the command line is in
cli.py):

  suites.py     problem suites (shapes) and problem classes
  space.py      configs (JSON and #gemm.config), gemm-tune-space calls,
                candidate grids
  prepare.py    `prepare` (candidates compiled to PTX, plan.json), `picks`
  measure.py    `measure` on the GPU machine: ptxas for the plan's chip,
                check and time (torch, CuPy imported only there)
  analysis.py   `report`, `calibrate`, `holdout`: the model against
                measurements
  tuning_db.py  `merge` of tuning databases
  cli.py        the argparse front end
"""
