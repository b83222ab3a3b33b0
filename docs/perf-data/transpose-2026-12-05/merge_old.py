#!/usr/bin/env python3
"""Copies the kernels of artifact set OLD into set NEW as variants named
<function>_SUFFIX (default _old; each manifest's "function" renamed,
cases.json extended), so that `harness bench NEW` times both builds of every
row in one process beside the same cuBLAS call.
Usage: merge_old.py artifacts/told artifacts/tnew [SUFFIX]"""
import json, os, shutil, sys

old, new = sys.argv[1], sys.argv[2]
suffix = sys.argv[3] if len(sys.argv) > 3 else "_old"
cases = json.load(open(os.path.join(new, "cases.json")))
old_cases = {c["name"]: c for c in json.load(open(os.path.join(old, "cases.json")))}
for name in sorted(os.listdir(old)):
    src = os.path.join(old, name)
    if not name.startswith("g_") or not os.path.isdir(src):
        continue
    dst = os.path.join(new, name + suffix)
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst)
    path = os.path.join(dst, "manifest.json")
    m = json.load(open(path))
    for e in m["kernels"]:
        if e.get("function") == name:
            e["function"] = name + suffix
    json.dump(m, open(path, "w"), indent=1)
    case = dict(old_cases[name], name=name + suffix)
    cases.append(case)
json.dump(cases, open(os.path.join(new, "cases.json"), "w"), indent=1)
