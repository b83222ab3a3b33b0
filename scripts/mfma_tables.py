#!/usr/bin/env python3
"""Regenerates unittests/data/mfma/*.txt, the MFMA lane-map test vectors.

The vectors come from AMD's Matrix Instruction Calculator
(https://github.com/ROCm/amd_matrix_instruction_calculator, commit 2ef9189,
`matrix_calculator.py --matrix-layout --csv`), which prints for every lane and
register slot of an MFMA instruction which A[i][k], B[k][j] or D[i][j] entry
(and block) it holds. This script runs the calculator and rewrites its table as
one line per (matrix, lane, slot): `A|B|D lane slot row col block`.

usage: mfma_tables.py PATH/TO/matrix_calculator.py OUTDIR
"""
import re
import subprocess
import sys

# (architecture, calculator instruction name, our file name)
INSTRUCTIONS = [
    ("cdna3", "v_mfma_f32_16x16x4_f32", "f32_16x16x4"),
    ("cdna3", "v_mfma_f32_32x32x2_f32", "f32_32x32x2"),
    ("cdna3", "v_mfma_f32_16x16x16_f16", "f16_16x16x16"),
    ("cdna3", "v_mfma_f32_32x32x8_f16", "f16_32x32x8"),
    ("cdna3", "v_mfma_f32_16x16x16_bf16", "bf16_16x16x16"),
    ("cdna3", "v_mfma_f32_32x32x8_bf16", "bf16_32x32x8"),
    ("cdna2", "v_mfma_i32_16x16x16i8", "i8_16x16x16"),
    ("cdna2", "v_mfma_i32_32x32x8i8", "i8_32x32x8"),
    ("cdna3", "v_mfma_i32_16x16x32_i8", "i8_16x16x32"),
    ("cdna3", "v_mfma_i32_32x32x16_i8", "i8_32x32x16"),
    ("cdna3", "v_mfma_f64_16x16x4_f64", "f64_16x16x4"),
    ("cdna3", "v_mfma_f64_4x4x4_4b_f64", "f64_4x4x4_4b"),
    ("cdna3", "v_mfma_f32_16x16x32_fp8_fp8", "f8_16x16x32"),
    ("cdna3", "v_mfma_f32_32x32x16_fp8_fp8", "f8_32x32x16"),
]

ENTRY = re.compile(r"^([ABD])\[(\d+)\]\[(\d+)\](?:\.B(\d+))?$")


def main():
    calc, outdir = sys.argv[1], sys.argv[2]
    for arch, instr, name in INSTRUCTIONS:
        lines = [f"# {arch} {instr}: matrix_calculator.py -a {arch} -i {instr} "
                 "--matrix-layout --{A,B,D}-matrix --csv",
                 "# matrix lane slot row col block"]
        for matrix in "ABD":
            out = subprocess.run(
                [sys.executable, calc, "-a", arch, "-i", instr,
                 "--matrix-layout", f"--{matrix}-matrix", "--csv"],
                check=True, capture_output=True, text=True).stdout
            for row in out.splitlines():
                cells = row.split(",")
                if not cells[0].isdigit():
                    continue
                lane = int(cells[0])
                for slot, cell in enumerate(cells[1:]):
                    m = ENTRY.match(cell.strip())
                    if not m:
                        raise SystemExit(f"{instr}: cannot read '{cell}'")
                    which, i, j, blk = m.groups()
                    lines.append(f"{which} {lane} {slot} {i} {j} {blk or 0}")
        with open(f"{outdir}/{name}.txt", "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
