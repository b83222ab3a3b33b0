"""Random rows for the 3-16-row classes on a B stored K x N (run 4): M 3 to
16, N 1000 to 16000, K 256 to 4096 (the rules' K), f16/bf16, nn/nt, every fifth batched
(2 to 4), a third of N and K not rounded to a multiple of 8. Fixed seed, so
every run times the same
rows."""
import random

r = random.Random(20261204)
rows = []
for i in range(40):
    m = r.randint(3, 16)
    n = r.randint(1000, 16000)
    k = r.randint(256, 4096)
    if r.random() < 0.66:
        n -= n % 8
        k -= k % 8
    dt = r.choice(["f16", "bf16"])
    lay = r.choice(["nn", "nt"])
    b = f"{r.randint(2, 4)}x" if i % 5 == 4 else ""
    rows.append(f"{dt} {lay} {b}{m}x{n}x{k}")
print(";".join(rows))
