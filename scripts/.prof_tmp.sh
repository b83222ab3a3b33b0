#!/bin/bash
OUT=${OUT:-/tmp/out}
R=/tmp/res; mkdir -p $R/smoke
OUT=$R/smoke ./scripts/gpu_run.sh smoke90a check --shapes full > $R/smoke/log.txt 2>&1; echo "smoke rc=$?"
grep checks $R/smoke/log.txt; grep -v "^ok" $R/smoke/log.txt | grep -i fail | head
tar czf $OUT/results.tgz -C $R .
