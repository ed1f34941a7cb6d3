"""Section pfc_static: PFC faceted-wall contact resolution, static cases (the PFC manual's
Figures 7 and 8) from our own runs, and the resolution's cost against the number of facets.

Reads results/run/pfc_static.json (schema "contactbench.run/1", scenario "pfc_static", written
by `contactbench run pfc_static`): rough_wall {construction, centre, radius, mesh {vertices,
facets}, rows: [{theta_deg, cos_cutoff, reduced, full}]}, each mode {active, effective,
proximity, k_eff, k_no_pc, active_face/edge/vertex, active_wall_points, groups, verdict?,
fast_active?}; slivers: [{name, description, mesh, centre, radius, reduced, full}], each mode
{contacts: [{facet, region, wall_point, overlap, active}], active_facets, verdict?}. Verdicts
are the pfc_resolution family's own judgement (present when both variants ran). Cost comes
from results/bench.json when present: pfc_resolution/facets=<k>/{reference,fast} and the
family's pfc_resolution/{random,degenerate}/{reference,fast}.
"""
import re

import common
from common import is_number

SCENARIO = "pfc_static"
MODES = ("reduced", "full")
MODE_KEYS = ("active", "effective", "proximity", "k_eff", "k_no_pc")
COLOURS = {"reduced": "#1f77b4", "full": "#d62728", "fast": "#1f77b4", "reference": "#8c8c8c"}


def _mesh_ok(m):
    return (isinstance(m, dict) and isinstance(m.get("vertices"), list)
            and isinstance(m.get("facets"), list)
            and all(isinstance(v, list) and len(v) == 3 and all(is_number(c) for c in v)
                    for v in m["vertices"])
            and all(isinstance(f, list) and len(f) == 3
                    and all(isinstance(i, int) and 0 <= i < len(m["vertices"]) for i in f)
                    for f in m["facets"]))


def _point_ok(p):
    return isinstance(p, list) and len(p) == 3 and all(is_number(c) for c in p)


def load(path):
    doc, bad = common.load_run(path, "scenario", SCENARIO)
    rough = doc.get("rough_wall")
    if not isinstance(rough, dict):
        bad("rough_wall", "expected an object")
    if not _mesh_ok(rough.get("mesh")):
        bad("rough_wall.mesh", "expected {vertices: [[x, y, z]], facets: [[i, j, k]]}")
    if not _point_ok(rough.get("centre")) or not is_number(rough.get("radius")):
        bad("rough_wall.centre", "expected a point and a radius")
    rows = rough.get("rows")
    if not isinstance(rows, list) or not rows:
        bad("rough_wall.rows", "expected a non-empty list")
    for i, r in enumerate(rows):
        where = f"rough_wall.rows[{i}]"
        if not (isinstance(r, dict) and is_number(r.get("theta_deg"))):
            bad(where, "expected {theta_deg, cos_cutoff, reduced, full}")
        for mode in MODES:
            m = r.get(mode)
            if not isinstance(m, dict) or not all(is_number(m.get(k)) for k in MODE_KEYS):
                bad(f"{where}.{mode}", f"expected numbers {', '.join(MODE_KEYS)}")
    slivers = doc.get("slivers")
    if not isinstance(slivers, list):
        bad("slivers", "expected a list")
    for i, s in enumerate(slivers):
        where = f"slivers[{i}]"
        if not isinstance(s, dict) or not _mesh_ok(s.get("mesh")) or not _point_ok(s.get("centre")):
            bad(where, "expected {name, mesh, centre, radius, reduced, full}")
        for mode in MODES:
            m = s.get(mode)
            if not isinstance(m, dict) or not isinstance(m.get("contacts"), list) or not all(
                    isinstance(c, dict) and _point_ok(c.get("wall_point"))
                    and isinstance(c.get("active"), bool) for c in m["contacts"]):
                bad(f"{where}.{mode}.contacts", "expected [{facet, wall_point, active, ...}]")
    return doc


# ---------------------------------------------------------------- Figure 7

def rough_wall_figure(rough, out_dir):
    rows = rough["rows"]
    th = [r["theta_deg"] for r in rows]
    fig, (ax1, ax2) = common.plt.subplots(1, 2, figsize=(11, 4.2))
    style = {"reduced": dict(marker="o", markersize=9, linewidth=3.5, alpha=0.45),
             "full": dict(marker=".", markersize=6, linewidth=1.2)}  # full drawn over reduced
    for mode in MODES:
        c = COLOURS[mode]
        ax1.plot(th, [r[mode]["effective"] for r in rows], color=c, **style[mode],
                 label=f"{mode}: active contacts with PC logic")
        ax1.plot(th, [r[mode]["active"] for r in rows], "--", color=c,
                 linewidth=style[mode]["linewidth"], label=f"{mode}: active contacts without PC logic")
        ax2.plot(th, [r[mode]["k_eff"] for r in rows], color=c, **style[mode],
                 label=f"{mode}: with PC logic")
        ax2.plot(th, [r[mode]["k_no_pc"] for r in rows], "--", color=c,
                 linewidth=style[mode]["linewidth"], label=f"{mode}: without PC logic")
    ax2.axhline(1, color="black", linewidth=0.8, linestyle=":", label="one facet (flat wall)")
    for ax in (ax1, ax2):
        ax.set_xscale("symlog", linthresh=10)
        ax.set_xlim(0, 200)
        ax.set_xticks([0, 2, 5, 10, 20, 45, 90, 180])
        ax.set_xticklabels(["0", "2", "5", "10", "20", "45", "90", "180"])
        ax.set_xlabel("cutoff angle Θ (degrees; linear to 10, log beyond)")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    ax1.set_ylabel("number of active contacts")
    ax1.set_ylim(bottom=0)
    ax2.set_ylabel("effective normal stiffness k_eff / k_n")
    ax2.set_ylim(bottom=0)
    ax1.set_title("Rough wall (Figure 7): active contacts")
    ax2.set_title("Rough wall: effective normal stiffness")
    fig.tight_layout()
    name = common.save_figure(fig, out_dir, f"{SCENARIO}_rough_wall")
    r0, r1 = rows[0], rows[-1]
    caption = (f"Without PC logic the rough wall keeps {r0['reduced']['active']} active contacts "
               f"(reduced; {r0['full']['active']} full), {r0['reduced']['k_no_pc']:.2f}× one "
               f"facet's stiffness; proximity contacts merge them as Θ grows, down to "
               f"{r1['reduced']['effective']} at Θ = {r1['theta_deg']}° "
               f"(k_eff {r1['reduced']['k_eff']:.2f} k_n).")
    if all(r["reduced"]["effective"] == r["full"]["effective"] for r in rows):
        caption += " Full mode coincides with reduced here (no segment meets another facet)."
    return common.figure_html(name, caption)


def rough_wall_map(rough, out_dir):
    """Top view near the ball: heights, active wall points, proximity groups at one Θ."""
    from matplotlib.tri import Triangulation
    rows = rough["rows"]
    pick = next((r for r in rows if r["theta_deg"] == 10), rows[len(rows) // 2])
    v, f = rough["mesh"]["vertices"], rough["mesh"]["facets"]
    cx, cy, cz = rough["centre"]
    R = rough["radius"]
    wps = [p for r in rows for m in MODES for p in r[m].get("active_wall_points", [])]
    reach = 1.5 * max([((p[0] - cx) ** 2 + (p[1] - cy) ** 2) ** 0.5 for p in wps] + [0.05 * R])
    tri = Triangulation([p[0] for p in v], [p[1] for p in v], f)
    fig, ax = common.new_figure(6.8, 6)
    tc = ax.tripcolor(tri, [p[2] for p in v], shading="gouraud", cmap="gray", alpha=0.8)
    ax.triplot(tri, color="#bbbbbb", linewidth=0.3)
    fig.colorbar(tc, ax=ax, label="wall height z (length units)")
    red = pick["reduced"]
    facets = red.get("active_facets", [])
    group_of = {}
    for g, members in enumerate(red.get("groups", [])):
        for m in members:
            group_of[m] = g
    cmap = common.plt.get_cmap("tab10")
    for fct, wp in zip(facets, red.get("active_wall_points", [])):
        g = group_of.get(fct)
        ax.scatter(wp[0], wp[1], s=60, marker="o", zorder=3, edgecolors="black",
                   color="white" if g is None else cmap(g % 10))
    full_wp = pick["full"].get("active_wall_points", [])
    ax.scatter([p[0] for p in full_wp], [p[1] for p in full_wp], s=14, marker="x", color="black",
               zorder=4, label="active in full mode")
    ax.scatter([], [], s=60, edgecolors="black", color="white", label="active (reduced), alone")
    ax.scatter([], [], s=60, edgecolors="black", color=cmap(0),
               label=f"active (reduced), proximity group at Θ = {pick['theta_deg']}° (colour)")
    ax.plot(cx, cy, "+", color="blue", markersize=12, label="ball centre (above)")
    ax.set_xlim(cx - reach, cx + reach)
    ax.set_ylim(cy - reach, cy + reach)
    ax.set_aspect("equal")
    ax.set_xlabel("x (length units; ball radius 1)")
    ax.set_ylabel("y (length units)")
    ax.set_title("Rough wall under the ball: active wall points")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(0, -0.12))
    name = common.save_figure(fig, out_dir, f"{SCENARIO}_rough_wall_map")
    caption = (f"{red['active']} active contacts, {red['active_vertex']} of them at vertices; "
               f"at Θ = {pick['theta_deg']}° they form "
               f"{red['proximity']} proximity contacts, {red['effective']} contacts in all.")
    return common.figure_html(name, caption)


def rough_wall_table(rows):
    out = []
    for r in rows:
        cells = [r["theta_deg"], f"{r['cos_cutoff']:.6g}"]
        for mode in MODES:
            m = r[mode]
            cells += [m["active"], m["proximity"], m["effective"], f"{m['k_eff']:.3f}"]
        verdicts = {r[mode].get("verdict") for mode in MODES} - {None}
        differ = any("fast_active" in r[mode] for mode in MODES)
        text = ", ".join(sorted(verdicts)) or "—"
        if differ:
            text += " (active sets differ)"
        cells.append((text, "bad" if "wrong" in verdicts else None))
        out.append(cells)
    return common.table(["Θ (deg)", "cos Θ", "reduced: active", "PCs", "contacts with PC",
                         "k_eff/k_n", "full: active", "PCs", "contacts with PC", "k_eff/k_n",
                         "fast vs reference"], out)


# ---------------------------------------------------------------- Figure 8

def section_segments(mesh, y0):
    """Each facet's cut by the plane y = y0, as (facet, (x0, z0), (x1, z1))."""
    v = mesh["vertices"]
    out = []
    for k, f in enumerate(mesh["facets"]):
        pts = []
        for a, b in ((f[0], f[1]), (f[1], f[2]), (f[2], f[0])):
            pa, pb = v[a], v[b]
            da, db = pa[1] - y0, pb[1] - y0
            if da == 0:
                pts.append((pa[0], pa[2]))
            if da * db < 0:
                t = da / (da - db)
                pts.append((pa[0] + t * (pb[0] - pa[0]), pa[2] + t * (pb[2] - pa[2])))
        pts = sorted(set(pts))
        if len(pts) >= 2:
            out.append((k, pts[0], pts[-1]))
    return out


def sliver_figure(slivers, out_dir):
    from matplotlib.patches import Circle
    fig, axes = common.plt.subplots(len(slivers), 2, figsize=(10, 4.2 * len(slivers)), squeeze=False)
    for i, s in enumerate(slivers):
        cx, cy, cz = s["centre"]
        R = s["radius"]
        cuts = section_segments(s["mesh"], cy)
        for j, mode in enumerate(MODES):
            ax = axes[i][j]
            ax.add_patch(Circle((cx, cz), R, facecolor="#e8f0ff", edgecolor="#4060a0"))
            for k, (x0, z0), (x1, z1) in cuts:
                ax.plot([x0, x1], [z0, z1], color="black", linewidth=2)
                # labels inside the view, staggered along x; the highest facet's above its line
                xl = min(max(cx + (0.9 - 0.35 * (k % 3)) * R, x0), x1)
                zl = z0 + (z1 - z0) * ((xl - x0) / (x1 - x0) if x1 != x0 else 0)
                above = all(zl >= za + (zb - za) * ((xl - xa) / (xb - xa) if xb != xa else 0)
                            for _, (xa, za), (xb, zb) in cuts if xa <= xl <= xb)
                ax.annotate(f"facet {k}", (xl, zl), textcoords="offset points",
                            xytext=(0, 4 if above else -11), fontsize=8, ha="center")
            n_active = 0
            for c in s[mode]["contacts"]:
                wx, wz = c["wall_point"][0], c["wall_point"][2]
                if c["active"]:
                    n_active += 1
                    ax.plot([cx, wx], [cz, wz], color="red", linewidth=1.8)
                    ax.plot(wx, wz, "o", color="red", markersize=5)
                else:
                    ax.plot([cx, wx], [cz, wz], color="#555555", linewidth=1, linestyle="--")
                    ax.plot(wx, wz, "o", color="white", markeredgecolor="#555555", markersize=5)
            ax.plot(cx, cz, "+", color="#4060a0")
            verdict = s[mode].get("verdict")
            ax.set_title(f"({'ab'[i]}) {s['name']}, {mode}: {n_active} active"
                         + (f" · fast vs ref: {verdict}" if verdict else ""), fontsize=10)
            ax.set_aspect("equal")
            ax.set_xlabel("x (length units)")
            ax.set_ylabel("z (length units)")
            ax.grid(True, alpha=0.3)
            ax.set_xlim(cx - 1.2 * R, cx + 1.2 * R)
            ax.set_ylim(cz - 1.2 * R, cz + 1.2 * R)
    fig.tight_layout()
    name = common.save_figure(fig, out_dir, f"{SCENARIO}_slivers")
    counts = ", ".join(
        f"{s['name']} {sum(c['active'] for c in s['reduced']['contacts'])} → "
        f"{sum(c['active'] for c in s['full']['contacts'])}" for s in slivers)
    caption = (f"Section through the ball centre (y = centre): red lines end at active wall "
               f"points, dashed at inactive ones; active contacts reduced → full: {counts}.")
    return common.figure_html(name, caption)


# ---------------------------------------------------------------- cost

def cost_html(results_dir, out_dir):
    bench = common.load_bench(results_dir)
    if bench is None:
        return common.paragraph(f"{results_dir}/bench.json not found: no resolution cost "
                                "(run `contactbench bench`).", "missing")
    per_k = {}
    for (stem, case, impl), ns in bench.ns.items():
        m = re.fullmatch(r"facets=(\d+)", case)
        if stem == "pfc_resolution" and m:
            per_k.setdefault(impl, {})[int(m.group(1))] = ns
    out = []
    if per_k:
        fig, ax = common.new_figure()
        for impl, t in sorted(per_k.items()):
            ks = sorted(t)
            ax.plot(ks, [t[k] for k in ks], "o-", color=COLOURS.get(impl), label=impl)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("facet contacts k (flat fan of k triangles under the ball)")
        ax.set_ylabel("time per resolution (ns)")
        ax.set_title("pfc_resolution: cost per ball–wall interaction")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
        name = common.save_figure(fig, out_dir, f"{SCENARIO}_cost")
        ks = sorted(set(per_k.get("fast", {})) & set(per_k.get("reference", {})))
        caption = "Time per resolution against the number of facet contacts, log–log."
        if ks:
            ratios = [per_k["reference"][k] / per_k["fast"][k] for k in ks]
            caption += (f" Fast is {common.fmt_ratio(min(ratios))} to "
                        f"{common.fmt_ratio(max(ratios))} faster than the reference over "
                        f"k = {ks[0]} … {ks[-1]}.")
        out.append(common.figure_html(name, caption))
        rows = [[k] + [common.fmt_ns(per_k[i][k]) if k in per_k.get(i, {}) else "—"
                       for i in ("reference", "fast")]
                + [common.fmt_ratio(per_k["reference"][k] / per_k["fast"][k])
                   if k in per_k.get("reference", {}) and k in per_k.get("fast", {}) else "—"]
                for k in sorted({k for t in per_k.values() for k in t})]
        out.append(common.table(["facet contacts k", "reference", "fast", "reference / fast"], rows))
    sets = [[case, common.fmt_ns(bench.ns[("pfc_resolution", case, "reference")]),
             common.fmt_ns(bench.ns[("pfc_resolution", case, "fast")]),
             common.fmt_ratio(bench.ns[("pfc_resolution", case, "reference")]
                              / bench.ns[("pfc_resolution", case, "fast")])]
            for case in ("random", "degenerate")
            if ("pfc_resolution", case, "reference") in bench.ns
            and ("pfc_resolution", case, "fast") in bench.ns]
    if sets:
        out.append(common.paragraph("The family's generated query sets (time per query, cycling "
                                    "over each set):"))
        out.append(common.table(["query set", "reference", "fast", "reference / fast"], sets))
    if not out:
        return common.paragraph(f"{results_dir}/bench.json has no pfc_resolution entries.",
                                "missing")
    return "".join(out)


def render(results_dir, out_dir):
    doc, not_run = common.read_run(results_dir, SCENARIO, load)
    if not_run:
        return not_run
    rough = doc["rough_wall"]
    out = ["<h4>Figure 7: a nominally flat rough wall</h4>\n",
           common.paragraph(f"Wall: {rough.get('construction', '')}. Effective normal "
                            f"stiffness: {rough.get('stiffness', '')}. Θ enters only through "
                            "the proximity contacts (PC logic); the active set itself does not "
                            "depend on it."),
           rough_wall_figure(rough, out_dir), rough_wall_map(rough, out_dir),
           rough_wall_table(rough["rows"])]
    if doc["slivers"]:
        out.append("<h4>Figure 8: a thin wedge and stacked segments</h4>\n")
        out.append(common.paragraph("; ".join(f"({'ab'[i]}) {s.get('description', s['name'])}"
                                              for i, s in enumerate(doc["slivers"]))))
        out.append(sliver_figure(doc["slivers"], out_dir))
    diff = doc.get("active_set_differences")
    if is_number(diff):
        out.append(common.paragraph(
            f"Fast against reference: {diff} resolution(s) with different active sets "
            f"(each judged by the pfc_resolution rule: boundary, not failed), "
            f"{doc.get('wrong', 0)} wrong.", "bad" if doc.get("wrong") else None))
    out.append("<h4>Cost of one resolution</h4>\n")
    out.append(cost_html(results_dir, out_dir))
    return "".join(out)
