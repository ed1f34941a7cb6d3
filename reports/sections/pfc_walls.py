"""Section pfc_walls: the PFC faceted-wall cases with motion (issue 10; Itasca PFC manual
"Faceted Walls", Figures 4/9, 5, 6/11 and 10) from our own runs.

Reads results/run/<scenario>.json (schema "contactbench.run/1") for the scenarios
pfc_coplanar, pfc_convex_edge, concave_edge and pfc_holes (`contactbench run <name>`); each
holds `runs` (per wall and contact mode: a sampled series s, x, z, fx, fy, fz, active,
acting, proximity, normal_deg, facets, why, and the fast-vs-reference `agreement`) and a
per-scenario summary. A scenario not run is named; the others are still shown.
Figures: (a) Figures 4 and 9, shear against position on the grid and on one facet;
(b) Figure 5, the acting normal around a convex edge; (c) Figures 6 and 11, contacts, normals
and force into a concave edge with and without PC; (d) Figure 10, shear across a hole and
a gap. Table: fast vs reference active sets step by step.
"""
import common
from common import is_number

SCENARIOS = ("pfc_coplanar", "pfc_convex_edge", "concave_edge", "pfc_holes")
SERIES_KEYS = ("s", "x", "z", "fx", "fy", "fz", "active", "acting", "proximity", "normal_deg", "facets", "why")


def loader(scenario):
    def load(path):
        doc, bad = common.load_run(path, "scenario", scenario)
        if not isinstance(doc.get("params"), dict):
            bad("params", "expected an object")
        runs = doc.get("runs")
        if not isinstance(runs, list) or not runs:
            bad("runs", "expected a non-empty list")
        for i, r in enumerate(runs):
            s = r.get("series") if isinstance(r, dict) else None
            if not (isinstance(s, dict) and all(isinstance(s.get(k), list) for k in SERIES_KEYS)
                    and isinstance(r.get("wall"), str) and isinstance(r.get("mode"), str)):
                bad(f"runs[{i}]", "expected {wall, mode, series: {" + ", ".join(SERIES_KEYS) + "}}")
            if len({len(s[k]) for k in SERIES_KEYS}) != 1:
                bad(f"runs[{i}].series", "series of different lengths")
            a = r.get("agreement")
            if a is not None and not (isinstance(a, dict) and all(
                    isinstance(a.get(k), int) for k in ("steps", "agree", "boundary", "wrong"))):
                bad(f"runs[{i}].agreement", "expected {steps, agree, boundary, wrong, ...} integers")
        return doc
    return load


def run_of(doc, wall, mode):
    for r in doc["runs"]:
        if r["wall"] == wall and r["mode"] == mode:
            return r
    return None


def fig_coplanar(doc, out_dir):
    fig, (ax, bx) = common.plt.subplots(2, 1, figsize=(8.5, 6.2), sharex=True,
                                        gridspec_kw={"height_ratios": [3, 1.3]})
    diff = {v["mode"]: v["max_shear_difference"] for v in doc.get("versus_one_facet", [])}
    one = run_of(doc, "one_facet", "pfc_full")
    if one:
        ax.plot(one["series"]["x"], one["series"]["fx"], color="black", linewidth=3, alpha=0.3,
                label="one large facet (any mode)")
    for mode in ("raw", "pfc_reduced", "pfc_full"):
        r = run_of(doc, "grid", mode)
        if not r:
            continue
        s = r["series"]
        d = diff.get(mode)
        label = f"grid, {mode}" + (f" (max |ΔFx| vs one facet {d:.2g} N)" if is_number(d) else "")
        ax.plot(s["x"], s["fx"], color=common.MODE_COLOURS[mode], linewidth=1, label=label)
        bx.step(s["x"], s["active"], where="post", color=common.MODE_COLOURS[mode], linewidth=1.5 if mode == "pfc_reduced" else 1,
                linestyle="--" if mode == "pfc_reduced" else "-", label=mode)
    ax.set_ylabel("shear force Fx (N)")
    ax.legend(fontsize=8)
    ax.set_title("Figures 4 and 9: sphere pressed on a coplanar wall, translated along +x (prescribed)")
    bx.set_ylabel("active contacts")
    bx.set_xlabel("sphere centre x (m)")
    bx.legend(fontsize=7, ncol=3)
    name = common.save_figure(fig, out_dir, "pfc_walls_coplanar")
    d = diff.get("pfc_full")
    d = f"{d:.2g} N" if is_number(d) else "not computed"
    return common.figure_html(
        name, "(a) full mode: one active contact at every step and the shear of one large facet "
              f"(max difference {d}); reduced mode restarts the shear at every facet change; raw "
              "adds edge contacts near every edge")


def fig_convex(doc, out_dir):
    fig, (ax, bx) = common.plt.subplots(2, 1, figsize=(8.5, 5.8), sharex=True,
                                        gridspec_kw={"height_ratios": [3, 1.3]})
    arc = doc["params"].get("arc", 0)
    for mode in ("raw", "pfc_full"):
        r = run_of(doc, "convex", mode)
        if not r:
            continue
        s = r["series"]
        xs = [x for x, n in zip(s["s"], s["normal_deg"]) for _ in n]
        ys = [a for n in s["normal_deg"] for a in n]
        ax.scatter(xs, ys, s=2, color=common.MODE_COLOURS[mode], label=f"{mode}: acting normals")
        bx.step(s["s"], s["acting"], where="post", color=common.MODE_COLOURS[mode], linewidth=1, label=mode)
    for x in (0, arc):
        ax.axvline(x, color="#bbbbbb", linestyle="--", linewidth=0.8)
    ax.set_ylabel("normal angle from +z (deg)")
    ax.set_title(f"Figure 5: sphere carried around a convex edge "
                 f"(fold {doc['params'].get('angle_deg', 0):g}°, prescribed)")
    ax.legend(fontsize=8, markerscale=4)
    bx.set_xlabel("path position s (m): arc length, the arc above the edge between the dashed lines")
    bx.set_ylabel("acting contacts")
    bx.legend(fontsize=7)
    passes = {v["mode"]: v["passes"] for v in doc.get("summary", [])}
    name = common.save_figure(fig, out_dir, "pfc_walls_convex_edge")
    return common.figure_html(
        name, f"(b) full mode: the normal rotates smoothly over the edge and activity passes to the "
              f"sloping facets {passes.get('pfc_full', '?')} time(s); raw adds edge contacts near it")


def fig_concave(doc, out_dir):
    fig, axes = common.plt.subplots(3, 1, figsize=(8.5, 8.0), sharex=True)
    for mode, style in (("pfc_full", "-"), ("pfc_pc", "--")):
        r = run_of(doc, "concave", mode)
        if not r:
            continue
        s = r["series"]
        c = common.MODE_COLOURS[mode]
        label = "without PC (pfc_full)" if mode == "pfc_full" else "with PC (pfc_pc)"
        axes[0].step(s["s"], s["active"], where="post", color=c, linestyle=style, label=f"{label}: active")
        axes[0].step(s["s"], s["acting"], where="post", color=c, linestyle=":", label=f"{label}: acting")
        xs = [x for x, n in zip(s["s"], s["normal_deg"]) for _ in n]
        ys = [a for n in s["normal_deg"] for a in n]
        axes[1].scatter(xs, ys, s=2, color=c, label=label)
        axes[2].plot(s["s"], [(a * a + b * b + d * d) ** 0.5 for a, b, d in zip(s["fx"], s["fy"], s["fz"])],
                     color=c, linestyle=style, linewidth=1, label=label)
    axes[0].set_ylabel("contacts")
    axes[0].legend(fontsize=7)
    axes[0].set_title(f"Figures 6 and 11: sphere moved into a concave edge "
                      f"(ramp {doc['params'].get('angle_deg', 0):g}°, prescribed)")
    axes[1].set_ylabel("acting normal from +z (deg)")
    axes[1].legend(fontsize=7, markerscale=4)
    axes[2].set_ylabel("|contact force| (N)")
    axes[2].set_xlim(-0.015, 0.015)  # the edge region; the runs go on at constant force beyond
    axes[2].set_xlabel("path position s (m): 0 where the sphere is R − δ from both planes")
    axes[2].legend(fontsize=7)
    name = common.save_figure(fig, out_dir, "pfc_walls_concave_edge")
    return common.figure_html(
        name, "(c) without PC two contacts act near the edge (floor and ramp normals); with PC one "
              "proximity contact acts with the overlap-weighted normal and the mean overlap")


def fig_holes(doc, out_dir):
    fig, (ax, bx) = common.plt.subplots(1, 2, figsize=(12, 4.4), sharey=True)
    colours = {"whole": "#2ca02c", "hole": "#d62728", "gap": "#1f77b4",
               "fan_whole": "#2ca02c", "fan_hole": "#d62728"}
    styles = {"whole": ("-", 1.2), "hole": ("-", 3.0), "gap": ("--", 1.2),
              "fan_whole": ("-", 1.2), "fan_hole": ("-", 1.2)}
    reasons = {e["wall"]: e.get("new_contacts_by_reason", {}) for e in doc.get("events", [])}
    for r in doc["runs"]:
        s = r["series"]
        why = ", ".join(f"{k} {v}" for k, v in sorted(reasons.get(r["wall"], {}).items()))
        style, width = styles.get(r["wall"], ("-", 1))
        axis = bx if r["wall"].startswith("fan") else ax
        axis.plot(s["x"], s["fx"], color=colours.get(r["wall"], "gray"), linewidth=width, linestyle=style,
                  alpha=0.6 if r["wall"] == "hole" else 1, label=f"{r['wall']} (new contacts: {why})")
    hx = doc["params"].get("hole_x")
    if isinstance(hx, list) and len(hx) == 2:
        ax.axvspan(hx[0], hx[1], color="#eeeeee", zorder=0, label="missing cell (hole) / column (gap)")
    fc, fr = doc["params"].get("fan_centre"), doc["params"].get("fan_radius")
    if isinstance(fc, list) and is_number(fr):
        half = (doc["params"].get("y0", 0) - fc[1]) / 3 ** 0.5  # the wedge's width at the path
        bx.axvspan(fc[0] - half, fc[0] + half, color="#eeeeee", zorder=0, label="missing wedge (fan_hole)")
        bx.set_xlim(fc[0] - 1.6 * fr, fc[0] + 1.6 * fr)
    for axis, title in ((ax, "grid: whole, one-cell hole, gap column"),
                        (bx, "hexagonal fan: whole, without the wedge on the path")):
        axis.set_xlabel("sphere centre x (m)")
        axis.legend(fontsize=7)
        axis.set_title(title, fontsize=9)
    ax.set_ylabel("shear force Fx (N)")
    fig.suptitle("Figure 10: state propagation with and without holes (full mode, prescribed)", fontsize=10)
    name = common.save_figure(fig, out_dir, "pfc_walls_holes")
    return common.figure_html(
        name, "(d) the shear carries on across whole walls; across the grid's hole and gap the new contact "
              "is linked to no previous one (no_link), across the fan's missing wedge it is linked through "
              "the centre vertex but the hole check fails (hole): the shear restarts")


def agreement_rows(scenario, doc):
    rows = []
    for r in doc["runs"]:
        a = r.get("agreement")
        if not a:
            continue
        ok = a.get("ok")
        rows.append([scenario, r["wall"], r["mode"], str(a["steps"]), str(a["agree"]),
                     str(a["boundary"]), str(a.get("history", 0)),
                     (str(a["wrong"]), "bad" if a["wrong"] else None),
                     common.fmt_sci(a.get("max_force_difference")), common.fmt_sci(a.get("force_bound")),
                     ("yes", None) if ok else ("no", "bad")])
    return rows


def render(results_dir, out_dir):
    out, rows = [], []
    figures = {"pfc_coplanar": fig_coplanar, "pfc_convex_edge": fig_convex,
               "concave_edge": fig_concave, "pfc_holes": fig_holes}
    for scenario in SCENARIOS:
        doc, not_run = common.read_run(results_dir, scenario, loader(scenario))
        if not_run:
            out.append(not_run)
            continue
        out.append(figures[scenario](doc, out_dir))
        rows += agreement_rows(scenario, doc)
        if scenario == "concave_edge":
            srows = [[v["mode"], str(v.get("max_active")), str(v.get("max_proximity")),
                      common.fmt_sci(v.get("two_acting_from")), common.fmt_sci(v.get("two_acting_to")),
                      common.fmt_sci(v.get("force_at_kink")), common.fmt_sci(v.get("largest_force_jump"))]
                     for v in doc.get("summary", [])]
            out.append(common.table(["concave_edge mode", "max active", "max PCs", "two acting from s (m)",
                                     "to s (m)", "|F| at the kink (N)", "largest step |ΔF| (N)"], srows))
    if rows:
        out.append(common.paragraph(
            "Fast vs reference kernels in lockstep on the same prescribed path: the active set "
            "(active facets, their inheritance, proximity groups) compared at every step. boundary: "
            "pfc_resolution's rule excuses the difference (a decision within the fast kernel's "
            "stated bound); after boundary: both runs' own queries agree, only the state carried "
            "from an earlier boundary step differs. The force bound holds unless a boundary step "
            "made the runs part."))
        out.append(common.table(["scenario", "wall", "mode", "steps compared", "same active set",
                                 "boundary", "after boundary", "wrong", "max |ΔF| (N)", "force bound (N)", "ok"], rows))
    return "".join(out)
