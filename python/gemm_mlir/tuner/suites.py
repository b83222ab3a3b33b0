"""The tuner's problem suites (shapes) and problem classes (dtype, layout,
epilogue), and how they are spelled in names and plans."""

SQUARE = [(s, s, s) for s in (512, 1024, 2048, 3072, 4096, 6144, 8192)]
LLM = [(m, n, k) for m in (1, 16, 128, 4096)
       for (n, k) in ((4096, 4096), (11008, 4096), (4096, 11008), (14336, 4096))]
TALL_SKINNY = [(16384, 64, 4096), (16384, 256, 1024), (8192, 128, 8192),
               (64, 16384, 4096)]
RAGGED = [(4099, 4097, 4095), (1000, 1000, 1000), (2049, 2047, 2051),
          (777, 333, 1024), (3001, 1999, 5003)]
VALIDATION_SHAPES = list(dict.fromkeys(SQUARE + LLM + TALL_SKINNY + RAGGED))
# Fewer shapes for the other classes of the shipped database.
DB_SHAPES = [(1024, 1024, 1024), (2048, 2048, 2048), (4096, 4096, 4096),
             (8192, 8192, 8192), (16, 4096, 4096), (128, 11008, 4096),
             (4096, 14336, 4096), (4099, 4097, 4095)]

# The classes of the every-shape benchmark (docs/dispatch.md), for the
# sm_90a entries: decode (split, in clusters, unsplit), M from 33 to 64,
# K-heavy, K = 1, small K, tall-skinny, odd sizes, the large default.
EVERY_SHAPES = [(1, 4096, 4096), (16, 4096, 11008), (4, 14336, 4096),
                (2, 8192, 8192), (48, 4096, 4096), (64, 64, 65536),
                (1000, 1001, 1), (4096, 4096, 64), (65536, 48, 4096),
                (1023, 999, 777), (4096, 4096, 4096), (4099, 4097, 4095)]

# Problem classes: (dtype as cases.py names it, layout, cases.py epilogue,
# gemm-tune-space dtype, epilogue class).
VALIDATION_CLASSES = [("f16", "tn", "none", "f16", "none")]
DB_CLASSES = [("f16", "nn", "none", "f16", "none"),
              ("bf16", "tn", "none", "bf16", "none"),
              ("f16", "tn", "bias_col_relu", "f16", "elementwise"),
              ("f16", "tn", "linear", "f16", "reads_c"),
              ("i8", "tn", "none", "i8", "none")]
# Decode (M <= 16, N and K in the thousands): the rows the bandwidth bar of
# docs/dispatch.md is measured on, unsplit and split grids; and rows that
# rule out 16-byte copies (odd N: B of nn; odd K: A of nn, both of tn),
# which the gemv-mma unaligned members read in place and the others pack.
# The database keeps them apart from aligned shapes of the same bucket
# (lookupTuningDB matches the operands' alignment).
DECODE_SHAPES = [(1, 4096, 4096), (16, 4096, 11008), (8, 11008, 4096),
                 (4, 14336, 4096), (2, 8192, 8192), (1, 2048, 8192),
                 (12, 28672, 8192), (8, 8417, 4096), (11, 4097, 4093),
                 (8, 6000, 2047)]
# Decode on large weights (M from 4 to 16, B of 50 MB to 470 MB: LLM
# projections of 7B to 70B models): where the gemv-mma members (B through
# registers, no pipeline) and the pipelined tiles (decode's mma.sync
# 16 x 128 on cp.async, wgmma 64 x 128 on TMA) cross over.
DECODE_LARGE_SHAPES = [(m, n, k) for m in (4, 8, 12, 16)
                       for (n, k) in ((6144, 4096), (8192, 8192), (10240, 8192),
                                      (32000, 4096), (28672, 8192), (8192, 28672))]
DECODE_CLASSES = [("f16", "tn", "none", "f16", "none"),
                  ("f16", "nn", "none", "f16", "none")]
EVERY_CLASSES = [("f16", "tn", "none", "f16", "none"),
                 ("f16", "nn", "none", "f16", "none"),
                 ("bf16", "tn", "none", "bf16", "none")]



def shape_str(s):
    return "x".join(str(d) for d in s)


def class_key(cls):
    return f"{cls[0]}_{cls[1]}_{cls[2]}"
