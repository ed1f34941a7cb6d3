"""Section smeets_hertz: the Smeets paper's headline validation rebuilt — the force between two
meshed spheres (icospheres, 20 … 20,480 triangles) summed over rounded-triangle facet pairs,
against the analytic Hertz force, for several overlaps.

Reads results/run/smeets_hertz.json (schema "contactbench.run/1", scenario "smeets_hertz",
written by `contactbench run smeets_hertz`): params, law (text), rows [{triangles, overlap,
force, hertz, limit, excess_bound, error_hertz, error_limit, pairs, contact_pairs, ...}],
spot_checks [{triangles, overlap, pairs, agree, boundary, wrong, max_delta_t_error,
max_h2_error, max_pair_force_error}].
"""
import common
from common import is_number

SCENARIO = "smeets_hertz"
ROW_KEYS = ("triangles", "overlap", "force", "hertz", "limit", "error_hertz", "error_limit")
SPOT_KEYS = ("triangles", "overlap", "pairs", "agree", "boundary", "wrong")


def load(path):
    doc, bad = common.load_run(path, "scenario", SCENARIO)
    if not isinstance(doc.get("params"), dict):
        bad("params", "expected an object")
    rows = doc.get("rows")
    if not isinstance(rows, list) or not rows:
        bad("rows", "expected a non-empty list")
    for i, r in enumerate(rows):
        if not isinstance(r, dict):
            bad(f"rows[{i}]", "expected an object")
        for k in ROW_KEYS:
            if not is_number(r.get(k)):
                bad(f"rows[{i}].{k}", f"expected a number, got {r.get(k)!r}")
    spots = doc.get("spot_checks", [])
    if not isinstance(spots, list):
        bad("spot_checks", "expected a list")
    for i, s in enumerate(spots):
        if not isinstance(s, dict) or not all(is_number(s.get(k)) for k in SPOT_KEYS):
            bad(f"spot_checks[{i}]", f"expected numbers {', '.join(SPOT_KEYS)}")
    return doc


def by_overlap(rows):
    out = {}
    for r in rows:
        out.setdefault(r["overlap"], []).append(r)
    for v in out.values():
        v.sort(key=lambda r: r["triangles"])
    return dict(sorted(out.items()))


def fig_convergence(doc, out_dir):
    fig, ax = common.new_figure(8, 5)
    colours = common.plt.rcParams["axes.prop_cycle"].by_key()["color"]
    groups = by_overlap(doc["rows"])
    for k, (overlap, rows) in enumerate(groups.items()):
        colour = colours[k % len(colours)]
        ts = [r["triangles"] for r in rows]
        errs = [abs(r["error_hertz"]) for r in rows]
        ax.loglog(ts, [max(e, 1e-9) for e in errs], color=colour, linewidth=1.4,
                  label=f"δ/R = {overlap:g}: |F − F_Hertz| / F_Hertz")
        neg = [(t, e) for t, e, r in zip(ts, errs, rows) if r["error_hertz"] < 0]
        pos = [(t, e) for t, e, r in zip(ts, errs, rows) if r["error_hertz"] >= 0]
        ax.plot([p[0] for p in pos], [max(p[1], 1e-9) for p in pos], marker="o", color=colour, linestyle="none")
        ax.plot([p[0] for p in neg], [max(p[1], 1e-9) for p in neg], marker="o", markerfacecolor="white",
                color=colour, linestyle="none")
        floor = abs(rows[0]["limit"] / rows[0]["hertz"] - 1)
        ax.axhline(floor, color=colour, linestyle=":", linewidth=1)
    # first-order guide: error ∝ facet size ∝ N^(-1/2), through the finest point of the largest overlap
    last = list(groups.values())[-1] if groups else []
    if len(last) >= 2 and last[-1]["error_hertz"] > 0:
        n0, n1 = last[0]["triangles"], last[-1]["triangles"]
        e1 = last[-1]["error_hertz"]
        ax.loglog([n0, n1], [e1 * (n1 / n0) ** 0.5, e1], color="black", linestyle="--", linewidth=0.8,
                  label="slope −1/2 (error ∝ facet size)")
    ax.set_xlabel("triangles per sphere")
    ax.set_ylabel("relative force error (dimensionless)")
    ax.set_title("Meshed spheres: summed facet-pair force against Hertz (fast kernel)")
    signs = {r["error_hertz"] >= 0 for r in doc["rows"]}
    if True in signs:
        ax.plot([], [], marker="o", color="gray", linestyle="none", label="F above Hertz")
    if False in signs:
        ax.plot([], [], marker="o", markerfacecolor="white", color="gray", linestyle="none", label="F below Hertz")
    ax.plot([], [], color="gray", linestyle=":", label="the law's mesh-independent limit (floor)")
    ax.legend(fontsize=7)
    name = common.save_figure(fig, out_dir, f"{SCENARIO}_convergence")
    return common.figure_html(
        name, "(a) the summed force approaches Hertz at first order (error ∝ facet size, slope −1/2): each "
              "pair's pressure is taken at c_p, the largest on S; dotted: the law's floor, where the "
              "spheres' exact δ_t(h) departs from Hertz's parabola (about −δ/(10R))")


def render(results_dir, out_dir):
    doc, not_run = common.read_run(results_dir, SCENARIO, load)
    if not_run:
        return not_run
    p = doc["params"]
    out = common.paragraph(
        f"Two icospheres of radius {p.get('radius')} m (R* = {p.get('r_star')} m, E* = {p.get('e_star'):g} Pa), "
        f"the same mesh translated along a fixed generic direction, centre distance 2R − δ. "
        f"Law: {doc.get('law', '')}. Sweep with the {p.get('sweep_kernel', 'fast')} kernel; "
        f"the reference kernel spot-checks up to {p.get('spot_checks_per_point', 0)} facet pairs per point.")
    out += fig_convergence(doc, out_dir)
    groups = by_overlap(doc["rows"])
    triangles = sorted({r["triangles"] for r in doc["rows"]})
    table = {(r["triangles"], r["overlap"]): r for r in doc["rows"]}
    rows = []
    for t in triangles:
        row = [t]
        for overlap in groups:
            r = table.get((t, overlap))
            row.append("—" if r is None else f"{r['error_hertz']:+.3e}")
        rows.append(row)
    floor = ["limit of the law"] + [f"{rs[0]['limit'] / rs[0]['hertz'] - 1:+.3e}" for rs in groups.values()]
    out += common.paragraph("Relative error (F − F_Hertz) / F_Hertz by triangles per sphere and overlap δ/R:")
    out += common.table(["triangles"] + [f"δ/R = {o:g}" for o in groups], rows + [floor])
    spots = doc.get("spot_checks", [])
    if spots:
        srows = [[s["triangles"], f"{s['overlap']:g}", s["pairs"], s["agree"], s["boundary"],
                  (s["wrong"], "bad" if s["wrong"] else None), common.fmt_sci(s.get("max_delta_t_error")),
                  common.fmt_sci(s.get("max_h2_error")), common.fmt_sci(s.get("max_pair_force_error")),
                  ", ".join(s.get("mismatched_fields", [])) or "—"]
                 for s in spots]
        out += common.paragraph("Spot checks: facet pairs of the sweep (half of them in contact) through "
                                "the reference kernel, judged by the family's rule; differences in δ_t "
                                "(relative to R), h² (relative to R²) and the pair's force (relative to "
                                "the largest pair force). A boundary verdict is a decision (here S's vertex count) taken "
                                "differently where the exact margin is within the fast kernel's stated bound.")
        out += common.table(["triangles", "δ/R", "pairs", "agree", "boundary", "wrong", "max |Δδ_t|/R",
                             "max |Δh²|/R²", "max |ΔF_pair|", "decisions excused (boundary)"], srows)
    else:
        out += common.paragraph("No reference spot checks in this run (--variant fast).", "missing")
    return out
