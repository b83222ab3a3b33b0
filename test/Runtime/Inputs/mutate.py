"""Writes a copy of an artifact folder with its manifest changed, for the
runtime's malformed-manifest tests.

  mutate.py SRC DST STATEMENT   run STATEMENT (Python) with `m` bound to the
                                manifest (a dict), write the result
  mutate.py SRC DST --text TEXT write TEXT as manifest.json, its Python
                                escapes (\\t, \\\\) decoded
  mutate.py SRC DST --eval EXPR write the string EXPR evaluates to
  mutate.py SRC DST --bytes EXPR
                                write the bytes EXPR evaluates to (text
                                that is not UTF-8)
  mutate.py SRC DST --no-manifest
                                copy the folder without manifest.json
"""
import json
import os
import shutil
import sys

src, dst, what = sys.argv[1], sys.argv[2], sys.argv[3:]
shutil.rmtree(dst, ignore_errors=True)
shutil.copytree(src, dst)
path = os.path.join(dst, "manifest.json")
if what[0] == "--no-manifest":
    os.remove(path)
elif what[0] == "--bytes":
    with open(path, "wb") as f:
        f.write(eval(what[1]))
elif what[0] in ("--text", "--eval"):
    text = (what[1].encode().decode("unicode_escape") if what[0] == "--text"
            else eval(what[1]))
    with open(path, "w") as f:
        f.write(text)
else:
    with open(path) as f:
        m = json.load(f)
    exec(what[0], {"m": m, "os": os, "dst": dst})
    with open(path, "w") as f:
        json.dump(m, f, indent=1)
