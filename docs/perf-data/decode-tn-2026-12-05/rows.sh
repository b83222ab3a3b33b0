# The rows of the decode-tn runs, sourced by run_a.sh, run_b.sh and run_c.sh.
# tn_rows [ROW...]: f16 tn 3-16 rows over N 4096-32000 and K 4096/8192
# (and 2048 for two N), a few bf16 and batched rows, then ROW...
tn_rows() {
  local r="" m n k
  for m in 4 8 12 16; do
    for n in 4096 6144 8192 10240 11008 14336 16384 22528 32000; do
      for k in 4096 8192; do r="$r;f16 tn ${m}x${n}x$k"; done
    done
    for n in 11008 14336; do r="$r;f16 tn ${m}x${n}x2048"; done
  done
  r="${r#;};bf16 tn 8x11008x4096;bf16 tn 16x10240x8192;bf16 tn 4x14336x4096;bf16 tn 12x28672x8192;f16 tn 2x8x11008x4096"
  local x
  for x in "$@"; do r="$r;$x"; done
  echo "$r"
}
# nn_rows [SHAPE...]: f16 nn 4-16 rows over six N x K, f16 nn SHAPE..., then
# two nt and two bf16 nn rows.
nn_rows() {
  local r="" m nk s
  for m in 4 8 12 16; do for nk in 6144x4096 8192x8192 10240x8192 32000x4096 28672x8192 8192x28672; do
    r="$r;f16 nn ${m}x$nk"
  done; done
  for s in "$@"; do r="$r;f16 nn $s"; done
  echo "${r#;};f16 nt 8x11008x4096;f16 nt 12x28672x8192;bf16 nn 8x11008x4096;bf16 nn 12x10240x8192"
}
# The rows of runs 2 and 3 (the final families).
final_rows() {
  TN=$(tn_rows "f16 tn 11x4097x4093" "f16 tn 16x4096x11008")
  NN=$(nn_rows 4x14336x4096 8x11008x4096 16x11008x4096 3x7169x4096 16x7168x8192 \
    8x4096x4096 16x4096x4096 5x5001x3000 8x8417x4096 16x8193x8192 12x6337x4096 \
    16x16001x4096 9x9999x1000 11x4097x4093)
}
