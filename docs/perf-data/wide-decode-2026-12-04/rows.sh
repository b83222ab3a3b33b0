# The wide-decode rows (sourced): 33 to 128 rows of A against N and K in the
# thousands, the members' edges, and odd sizes; rows outside the every list.
WIDE=''
for m in 33 48 64 80 96 128; do
  for nk in 4096x4096 11008x4096 4096x11008 14336x4096; do WIDE="$WIDE f16 tn ${m}x${nk};"; done
done
for m in 64 128; do
  for nk in 4096x4096 11008x4096 4096x11008 14336x4096; do WIDE="$WIDE f16 nn ${m}x${nk};"; done
done
WIDE="$WIDE bf16 tn 64x4096x4096; bf16 nt 128x11008x4096; f16 tt 96x4096x4096; f16 tn 100x9000x1100;"
WIDE="$WIDE f16 tn 37x2500x8500; f16 tn 90x2100x1500; f16 tn 65x8448x4096; f16 tn 32x4096x4096;"
WIDE="$WIDE f16 tn 129x11008x4096; f16 tn 64x4096x1000; f16 tn 4x64x4096x4096"
# Past the first members' bounds (run_h.sh): 129 to 256 rows, K below 1024,
# and sizes no sweep saw.
PAST=''
for s in 129x11008x4096 192x11008x4096 256x4096x4096 160x4096x4096 64x4096x1000 96x4096x768 48x8192x768 \
         200x4096x4096 150x14336x4096 64x2048x640 100x5000x700 255x8192x2048; do PAST="$PAST f16 tn $s;"; done
PAST="$PAST bf16 nn 160x4096x4096; f16 nn 96x4096x768; f16 tt 129x11008x4096"
