"""Section ccd_public: both CCD variants on the public query set of Wang et al. (ACM TOG 2021),
per folder and kind, their time distributions, and the fast variant's false positives.

Reads results/run/ccd_public.json (schema "contactbench.run/1", scenario "ccd_public",
written by `contactbench run ccd_public`): queries: [{source ("<scene>/<kind>"), name,
kind, ground_truth (0/1), reference: {hit, toi, toi_up, ns}, fast: {hit, toi, ns, nodes,
second_stage, budget_exhausted, cut_short}, separation (fast false positives only: minimum
distance over the step divided by the query's scale), excused_below (fast false positives,
when both variants ran: the threshold the family's rule applied to that query, the same
number `check` and `eval` print), verdict (when both variants ran: the ccd family's rule, as
`check` judges it)}], fast_limits {max_depth, max_nodes, ..., toi_gap_bound}. Either
variant may be absent.
"""
import math
import statistics

import common
from common import fmt_ns, is_number

SCENARIO = "ccd_public"
VARIANTS = ("reference", "fast")
VERDICTS = ("agree", "boundary", "false_positive", "wrong", "out_of_domain")


def load(path):
    doc, bad = common.load_run(path, "scenario", SCENARIO)
    queries = doc.get("queries")
    if not isinstance(queries, list):
        bad("queries", "expected a list")
    for i, q in enumerate(queries):
        if not (isinstance(q, dict) and isinstance(q.get("source"), str)
                and isinstance(q.get("name"), str) and q.get("ground_truth") in (0, 1)):
            bad(f"queries[{i}]", "expected {source, name, ground_truth 0/1, ...}")
        for v in VARIANTS:
            r = q.get(v)
            if r is None:
                continue
            if not (isinstance(r, dict) and isinstance(r.get("hit"), bool) and is_number(r.get("ns"))):
                bad(f"queries[{i}].{v}", "expected {hit: bool, ns: number, ...}")
        if "verdict" in q and q["verdict"] not in VERDICTS:
            bad(f"queries[{i}].verdict", f"expected one of {', '.join(VERDICTS)}")
    return doc


def summarise(rows, variant):
    """queries, true collisions, false negatives, false positives, median/mean ns, slowest."""
    rs = [q for q in rows if q.get(variant) is not None]
    if not rs:
        return None
    times = [q[variant]["ns"] for q in rs]
    slow = max(rs, key=lambda q: q[variant]["ns"])
    return {
        "queries": len(rs),
        "true": sum(q["ground_truth"] == 1 for q in rs),
        "fn": sum(q["ground_truth"] == 1 and not q[variant]["hit"] for q in rs),
        "fp": sum(q["ground_truth"] == 0 and q[variant]["hit"] for q in rs),
        "median": statistics.median(times),
        "mean": statistics.fmean(times),
        "slowest": slow[variant]["ns"],
        "slowest_name": slow["name"],
    }


def time_plot(queries, out_dir):
    fig, ax = common.new_figure(7.5, 4.2)
    all_t = [q[v]["ns"] for q in queries for v in VARIANTS if q.get(v) is not None and q[v]["ns"] > 0]
    lo, hi = math.log10(min(all_t)), math.log10(max(all_t))
    if hi - lo < 1:
        hi = lo + 1
    nb = 60
    edges = [10 ** (lo + (hi - lo) * k / nb) for k in range(nb + 1)]
    colours = {"reference": "#1f78b4", "fast": "#e6550d"}
    for v in VARIANTS:
        t = [q[v]["ns"] for q in queries if q.get(v) is not None and q[v]["ns"] > 0]
        if t:
            ax.hist(t, bins=edges, histtype="stepfilled", alpha=0.45, color=colours[v],
                    label=f"{v}: median {fmt_ns(statistics.median(t))}, "
                          f"mean {fmt_ns(statistics.fmean(t))}, max {fmt_ns(max(t))}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("time per query (ns, best of the scenario's repeats)")
    ax.set_ylabel("queries")
    ax.set_title("CCD on the public query set: time per query")
    ax.legend(fontsize=8)
    return common.save_figure(fig, out_dir, "ccd_public_times")


def render(results_dir, out_dir):
    doc, not_run = common.read_run(results_dir, SCENARIO, load)
    if not_run:
        return not_run
    queries = doc["queries"]
    if not queries:
        return common.paragraph(f"The {SCENARIO} scenario recorded no queries.", "missing")
    sources = sorted({q["source"] for q in queries})
    headers = ["folder / kind", "variant", "queries", "true collisions", "false negatives",
               "false positives", "median time", "mean time", "slowest query"]
    rows = []
    for src in sources + ["all"]:
        sel = queries if src == "all" else [q for q in queries if q["source"] == src]
        for v in VARIANTS:
            s = summarise(sel, v)
            if s is None:
                continue
            fn = (s["fn"], "bad") if s["fn"] else s["fn"]
            label = (src, "total") if src == "all" else src
            rows.append([label, v, s["queries"], s["true"], fn, s["fp"], fmt_ns(s["median"]),
                         fmt_ns(s["mean"]), f"{fmt_ns(s['slowest'])} ({s['slowest_name']})"])
    out = common.paragraph(
        "Exact reference and conservative fast variant on the handcrafted public set of Wang et "
        "al. 2021 (../shared/data/ccd-queries). A false negative is a missed contact (never "
        "allowed for fast); a false positive is a reported contact the exact ground truth "
        "does not have.")
    out += common.table(headers, rows)
    have_times = any(q.get(v) is not None for q in queries for v in VARIANTS)
    if have_times:
        name = time_plot(queries, out_dir)
        out += common.figure_html(name, "Time per query, log scales: the fast variant's tail is "
                                        "its double-double second stage, bounded by its node budgets")
    fps = [q for q in queries if q.get("fast") is not None and q["fast"]["hit"] and q["ground_truth"] == 0]
    fps.sort(key=lambda q: (q.get("separation") if is_number(q.get("separation")) else math.inf))
    if fps:
        def sep_cell(q):
            text = common.fmt_sci(q.get("separation"))
            return (text, "bad") if q.get("verdict") == "wrong" else text

        def threshold(q):  # printed as check and eval print it ({:.3g})
            return f"{q['excused_below']:.3g}" if is_number(q.get("excused_below")) else "—"

        fp_rows = [[q["name"], sep_cell(q), threshold(q),
                    f"{q['fast'].get('toi', float('nan')):.17g}",
                    q["fast"].get("nodes", ""), "yes" if q["fast"].get("second_stage") else "no",
                    "yes" if q["fast"].get("cut_short") else "no", q.get("verdict", "")]
                   for q in fps]
        rule = (" Verdicts are the ccd family's rule as `check` applies it: a false positive is "
                "excused when the search was cut short (node budget or input range) or the "
                "separation is at most the threshold shown, half the fast variant's bound "
                "2^-38·κ stated for that query at its toi (κ, the conditioning there, clamped to "
                "[4, 2^16]: near-parallel edges reach the cap, 1.2e-7); anything else is `wrong` "
                "(marked).")
        out += common.paragraph(f"The fast variant's {len(fps)} false positive(s), closest to "
                                "touching first. Separation: minimum distance between the "
                                "primitives over the step, divided by the largest coordinate "
                                "(long-double upper estimate, not exact)." + rule)
        out += common.table(["query", "separation (× scale)", "excused below (× scale)",
                             "fast toi (lower bound)", "sub-intervals",
                             "second stage", "cut short", "verdict"], fp_rows)
    elif any(q.get("fast") is not None for q in queries):
        out += common.paragraph("The fast variant reports no false positive on this set.")
    return out
