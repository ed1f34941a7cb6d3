"""Section ellipsoid_contact: the state map as one ellipsoid slides past another, and accuracy
against speed of the reference, the fast variant, the paper's shortcut and FCL's collide.

Reads results/run/ellipsoid_contact.json (key "scenario": "ellipsoid_contact"):
  panels: [{"name", "points": [{"s", "gap", "state", "fast", "shortcut", "fcl"}]}]
    s      B's offset along its path (m; A's largest semi-axis is 1 m)
    gap    the reference's signed relative gap sqrt(F) - 1 (dimensionless)
    state  the reference's state; fast, shortcut, fcl: each method's state
The section only reads it; this file run as a program writes it by `contactbench eval` of
the slide queries (make_slide):
    /usr/bin/python3 reports/sections/ellipsoid_contact.py --results results [--binary build/contactbench] Accuracy against speed reads results/check.json (wrong rates on the
near-touching regimes gap=+-1e-k, per method) and results/bench.json (ellipsoid_state/random/
<impl>, ns per query), falling back to check.json's median times.
"""
import argparse
import json
import math
import sys
import pathlib
import subprocess
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # reports/, when run as a program
import common  # noqa: E402
from common import esc, is_number  # noqa: E402

SCENARIO = "ellipsoid_contact"
STATES = ("separated", "touching", "overlapping")
COLOURS = {"separated": "#1f78b4", "touching": "#33a02c", "overlapping": "#ff7f00"}
METHODS = (("fast", "ellipsoid_contact", "fast"),
           ("shortcut", "ellipsoid_contact_published_shortcut", "fast"),
           ("fcl", "ellipsoid_contact_published_fcl_collide", "fast"))
REPO = pathlib.Path(__file__).resolve().parents[2]

# The slide: A fixed, B's centre (s, h, 0.1) for s in [-3, 3]; panels with B a copy of A
# (identical, equally oriented: the shortcut's weak case) and with B a different shape.
A = {"centre": [0, 0, 0], "semi_axes": [1, 0.6, 0.4], "quaternion": [0.9, 0.2, -0.3, 0.1]}
PANELS = (("identical shapes, equal orientation", A["semi_axes"], A["quaternion"], 0.9),
          ("different shapes", [0.7, 0.5, 0.3], [0.3, -0.5, 0.6, 0.2], 0.8))


def load(path):
    doc, bad = common.load_run(path, "scenario", SCENARIO)
    panels = doc.get("panels")
    if not isinstance(panels, list) or not panels:
        bad("panels", "expected a non-empty list")
    for i, p in enumerate(panels):
        if not (isinstance(p, dict) and isinstance(p.get("name"), str) and isinstance(p.get("points"), list)):
            bad(f"panels[{i}]", "expected {name, points}")
        for j, q in enumerate(p["points"]):
            if not (isinstance(q, dict) and is_number(q.get("s")) and is_number(q.get("gap"))
                    and all(q.get(k) in STATES for k in ("state", "fast", "shortcut", "fcl"))):
                bad(f"panels[{i}].points[{j}]", "expected s, gap (numbers) and four states")
    return doc


def _eval(binary, family, queries):
    with tempfile.TemporaryDirectory() as tmp:
        inp, out = pathlib.Path(tmp) / "q.jsonl", pathlib.Path(tmp) / "out.json"
        inp.write_text("".join(json.dumps(q) + "\n" for q in queries))
        r = subprocess.run([str(binary), "eval", "--family", family, "--input", str(inp), "--json", str(out)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode not in (0, 1):  # 1: a published method was judged wrong somewhere
            raise RuntimeError(f"contactbench eval --family {family}: {r.stderr.strip()}")
        return json.loads(out.read_text())["records"]


def _query(b_axes, b_quat, s, h):
    return {"a": A, "b": {"centre": [s, h, 0.1], "semi_axes": b_axes, "quaternion": b_quat}}


def make_slide(binary, path):
    """Evaluates the slide queries (a coarse sweep, the state changes refined by secant steps
    on the reference's gap, then offsets 1e-3 ... 1e-15 m either side of each) and writes
    path."""
    panels = []
    for name, axes, quat, h in PANELS:
        def gaps(ss):
            recs = _eval(binary, "ellipsoid_contact", [_query(axes, quat, s, h) for s in ss])
            return [math.sqrt(r["reference"]["F"]) - 1 for r in recs]
        ss = [-3 + 6 * i / 400 for i in range(401)]
        g = gaps(ss)
        roots = []
        for i in range(len(ss) - 1):
            if (g[i] > 0) != (g[i + 1] > 0):
                a, b, ga, gb = ss[i], ss[i + 1], g[i], g[i + 1]
                for _ in range(6):  # secant on the smooth gap
                    if gb == ga:
                        break
                    c = b - gb * (b - a) / (gb - ga)
                    a, ga, b, gb = b, gb, c, gaps([c])[0]
                roots.append(b)
        extra = [r + sign * 10.0 ** -k for r in roots for k in range(3, 16) for sign in (-1, 1)] + roots
        ss = sorted(ss + extra)
        queries = [_query(axes, quat, s, h) for s in ss]
        recs = {m: _eval(binary, fam, queries) for m, fam, _ in METHODS}
        points = []
        for i, s in enumerate(ss):
            ref = recs["fast"][i]["reference"]
            points.append({"s": s, "gap": math.sqrt(ref["F"]) - 1, "state": ref["state"],
                           **{m: recs[m][i]["fast"]["state"] for m, _, _ in METHODS}})
        panels.append({"name": name, "h": h, "points": points})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"scenario": SCENARIO, "panels": panels}))


def slide_figure(doc, out_dir):
    fig, axes = common.plt.subplots(len(doc["panels"]), 1, figsize=(9.5, 3.4 * len(doc["panels"])), squeeze=False)
    for ax, p in zip(axes[:, 0], doc["panels"]):
        pts = p["points"]
        for st in STATES:
            xs = [q["s"] for q in pts if q["state"] == st]
            ax.scatter(xs, [q["gap"] for q in pts if q["state"] == st], s=8, c=COLOURS[st], label=f"reference: {st}")
        for m, marker, colour in (("shortcut", "x", "red"), ("fcl", "o", "black"), ("fast", "D", "purple")):
            miss = [q for q in pts if q[m] != q["state"]]
            if miss:
                ax.scatter([q["s"] for q in miss], [q["gap"] for q in miss], s=36, marker=marker,
                           facecolors="none" if marker != "x" else colour, edgecolors=colour if marker != "x" else None,
                           label=f"{m} differs ({len(miss)})")
        ax.set_yscale("symlog", linthresh=1e-15)
        ticks = [-1, -1e-4, -1e-8, -1e-12, 0, 1e-12, 1e-8, 1e-4, 1]
        ax.set_yticks(ticks, ["−1", "−1e-4", "−1e-8", "−1e-12", "0", "1e-12", "1e-8", "1e-4", "1"])
        ax.minorticks_off()
        ax.set_xlabel("offset s of B's centre along its path (m)")
        ax.set_ylabel("relative gap √F − 1")
        ax.set_title(p["name"], fontsize=10)
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
        ax.grid(alpha=0.3)
    fig.tight_layout()
    return common.save_figure(fig, out_dir, "ellipsoid_contact_slide")


def _near_rate(fam):
    wrong = queries = 0
    for tag, c in fam.get("by_regime", {}).items():
        if tag.startswith("gap=") and tag != "gap=none":
            wrong += c.get("wrong", 0)
            queries += c.get("queries", 0) - c.get("out_of_domain", 0)
    return (wrong / queries, queries) if queries else (None, 0)


def speed_accuracy(results_dir, out_dir):
    """(figure html, table rows) or (None, reason)."""
    path = pathlib.Path(results_dir) / "check.json"
    if not path.exists():
        return None, "results/check.json not found"
    fams = {f["family"]: f for f in common.load_json(path).get("families", [])}
    if "ellipsoid_contact" not in fams:
        return None, "no ellipsoid_contact family in results/check.json"
    bench = common.load_bench(results_dir)
    impl = {"reference": "reference", "fast": "fast", "shortcut": "shortcut", "fcl": "fcl_collide"}
    rows, pts = [], []
    for m, fam, side in (("reference", "ellipsoid_contact", "reference"),) + METHODS:
        f = fams.get(fam)
        if f is None:
            continue
        rate, n = (0.0, _near_rate(f)[1]) if m == "reference" else _near_rate(f)
        ns = bench.ns.get(("ellipsoid_state", "random", impl[m])) if bench else None
        source = "bench"
        if ns is None:
            ns, source = f.get("time_ns", {}).get(side, {}).get("median"), "check median"
        if rate is None or not is_number(ns):
            continue
        pts.append((m, ns, rate))
        rows.append([m, common.fmt_ns(ns) + f" ({source})", f"{100 * rate:.3g} %", str(n)])
    if not pts:
        return None, "no timings or near-touching regimes in the results"
    fig, ax = common.new_figure()
    for m, ns, rate in pts:
        ax.scatter([ns], [max(rate * 100, 1e-3)], s=50)
        ax.annotate(m, (ns, max(rate * 100, 1e-3)), textcoords="offset points", xytext=(6, 4))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("time per query (ns, log)")
    ax.set_ylabel("wrong near touching (%)")
    ax.grid(alpha=0.3)
    name = common.save_figure(fig, out_dir, "ellipsoid_contact_speed_accuracy")
    return common.figure_html(name, "Lower left is better: per method, its time per query against the share "
                                    "of near-touching queries (relative gaps 1e-3 … 1e-15) it gets wrong (0 % drawn at 1e-3 %)."), rows


def render(results_dir, out_dir):
    path = pathlib.Path(results_dir) / "run" / f"{SCENARIO}.json"
    html = []
    if path.exists():
        doc = load(path)
        html.append(common.figure_html(slide_figure(doc, out_dir),
                                       "Where each method's state differs from the exact one as B slides past A: "
                                       "the shortcut misses every identical pair, FCL misses near the state changes; fast's few "
                                       "differences lie within its stated bound (|gap| ≤ 1e-12)."))
        counts = []
        for p in doc["panels"]:
            n = len(p["points"])
            counts.append([p["name"], str(n)] + [str(sum(q[m] != q["state"] for q in p["points"]))
                                                 for m in ("fast", "shortcut", "fcl")])
        html.append(common.table(["slide", "queries", "fast differs", "shortcut differs", "FCL differs"], counts))
    else:
        html.append(common.paragraph(f"The slide data ({path}) was not made: `/usr/bin/python3 "
                                     f"reports/sections/ellipsoid_contact.py --results {results_dir}` writes it.",
                                     "missing"))
    fig, rows = speed_accuracy(results_dir, out_dir)
    if fig is None:
        html.append(common.paragraph(f"Accuracy against speed: {esc(rows)}.", "missing"))
    else:
        html.append(fig)
        html.append(common.table(["method", "time per query", "wrong near touching", "near-touching queries"], rows))
    return "".join(html)


def main(argv=None):
    ap = argparse.ArgumentParser(description="write results/run/ellipsoid_contact.json (the slide)")
    ap.add_argument("--results", type=pathlib.Path, default=pathlib.Path("results"))
    ap.add_argument("--binary", type=pathlib.Path, default=REPO / "build" / "contactbench")
    args = ap.parse_args(argv)
    make_slide(args.binary, args.results / "run" / f"{SCENARIO}.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
