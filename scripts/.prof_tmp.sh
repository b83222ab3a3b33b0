#!/bin/bash
OUT=${OUT:-/tmp/out}
R=/tmp/res; mkdir -p $R/m90a $R/m90
OUT=$R/m90a ./scripts/gpu_run.sh matrix90a check --shapes full > $R/m90a/log.txt 2>&1; echo "m90a rc=$?"
OUT=$R/m90 ./scripts/gpu_run.sh matrix check --shapes full > $R/m90/log.txt 2>&1; echo "m90 rc=$?"
grep checks $R/m90a/log.txt $R/m90/log.txt
grep -v "^ok" $R/m90a/log.txt $R/m90/log.txt | grep -i "fail\|FAIL" | head
tar czf $OUT/results.tgz -C $R .
