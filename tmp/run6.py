import sys, time, tomllib, json
sys.path.insert(0, "tests")
from skillproof.checks import ask as Q
from skillproof.cmd_ask import render
from skillproof.model import lang, loader
cat = loader.load(None); sess = Q.Session(cat)
qs = tomllib.loads(open(sys.argv[1], encoding="utf-8").read())["question"]
counts = {}
rows = []
for q in qs:
    t = time.time()
    with lang.using("zh"):
        try:
            res = sess.ask(q["ask"]); got = res.answer; text = render(cat, res)
        except Q.QueryError as e:
            got, text = "refused", str(e)
        except Exception as e:
            got, text = "traceback", repr(e)
    dt = time.time() - t
    exp = q["expect"].split("|")
    if got in exp: cls = "right"
    elif got in ("yes", "no", "data"): cls = "WRONG"
    elif got == "refused": cls = "refused"
    elif got == "unknown": cls = "unknown"
    else: cls = got
    counts[cls] = counts.get(cls, 0) + 1
    rows.append((cls, got, q["expect"], q["ask"], round(dt, 2), text.splitlines()[0][:200] if text else ""))
for r in rows: print(*r, sep=" | ")
print(counts)
