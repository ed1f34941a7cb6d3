"""Section smeets_figures: Smeets et al. 2014, Figures S1 and S2 and the overlap δ_t against
the offset h, from exact constructions run through both kernels of the rounded_triangle_contact
family.

Reads results/run/smeets_figures.json (schema "contactbench.run/1", scenario "smeets_figures",
written by `contactbench run smeets_figures`):
  s1: p, q (3 × [x, y, z]), p_projected, q_projected, c1, c2, c, plane_x, rc
  s2: p, q (3 × [y, z] in the contact plane x = plane_x), c, rc, reference and fast results
      ({polygon: [[y, z]], contact_point: [y, z] or null, h2, delta_t, contact}), verdict
  delta_t_of_h: curve {h: [...], delta_t: [...]}, samples [{h, reference, fast, verdict}],
      delta_s, rc, r1, r2, distance, max_fast_error, max_formula_error
"""
import math

import common
from common import is_number

SCENARIO = "smeets_figures"
P_COLOUR, Q_COLOUR, S_COLOUR, CORE_COLOUR = "#1f77b4", "#2ca02c", "#f4a6a6", "#b2182b"


def _points(v, dim):
    return isinstance(v, list) and all(
        isinstance(p, list) and len(p) == dim and all(is_number(c) for c in p) for p in v)


def load(path):
    doc, bad = common.load_run(path, "scenario", SCENARIO)
    for key in ("s1", "s2", "delta_t_of_h"):
        if not isinstance(doc.get(key), dict):
            bad(key, "expected an object")
    s1, s2, dt = doc["s1"], doc["s2"], doc["delta_t_of_h"]
    for key in ("p", "q", "p_projected", "q_projected"):
        if not (_points(s1.get(key), 3) and len(s1[key]) == 3):
            bad(f"s1.{key}", "expected three [x, y, z] points")
    for key in ("c1", "c2", "c"):
        if not _points([s1.get(key)], 3):
            bad(f"s1.{key}", "expected [x, y, z]")
    for key in ("p", "q"):
        if not (_points(s2.get(key), 2) and len(s2[key]) == 3):
            bad(f"s2.{key}", "expected three [y, z] points")
    if not _points([s2.get("c")], 2) or not is_number(s2.get("rc")):
        bad("s2.c", "expected c [y, z] and rc")
    for side in ("reference", "fast"):
        r = s2.get(side)
        if not (isinstance(r, dict) and _points(r.get("polygon"), 2)):
            bad(f"s2.{side}.polygon", "expected a list of [y, z] points")
        if r.get("contact_point") is not None and not _points([r["contact_point"]], 2):
            bad(f"s2.{side}.contact_point", "expected [y, z] or null")
    curve = dt.get("curve")
    if not (isinstance(curve, dict) and isinstance(curve.get("h"), list) and isinstance(curve.get("delta_t"), list)
            and len(curve["h"]) == len(curve["delta_t"]) and all(is_number(x) for x in curve["h"] + curve["delta_t"])):
        bad("delta_t_of_h.curve", "expected {h: [...], delta_t: [...]} of equal lengths")
    samples = dt.get("samples")
    if not isinstance(samples, list):
        bad("delta_t_of_h.samples", "expected a list")
    for i, s in enumerate(samples):
        if not (isinstance(s, dict) and is_number(s.get("h"))
                and all(s.get(k) is None or is_number(s.get(k)) for k in ("reference", "fast"))):
            bad(f"delta_t_of_h.samples[{i}]", "expected {h, reference, fast} (numbers or null)")
    return doc


def fig_s1(s1, out_dir):
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection
    from matplotlib.patches import Polygon
    fig = common.plt.figure(figsize=(13, 5.2))
    ax = fig.add_subplot(1, 2, 1, projection="3d")
    side = fig.add_subplot(1, 2, 2)
    pts = s1["p"] + s1["q"] + s1["p_projected"] + s1["q_projected"]
    ys = [p[1] for p in pts]
    zs = [p[2] for p in pts]
    y0, y1, z0, z1 = min(ys) - 0.3, max(ys) + 0.3, min(zs) - 0.3, max(zs) + 0.3
    x = s1["plane_x"]
    plane = [[x, y0, z0], [x, y1, z0], [x, y1, z1], [x, y0, z1]]
    ax.add_collection3d(Poly3DCollection([plane], facecolor="#cccccc", alpha=0.3, edgecolor="#999999"))
    side.axvline(x, color="#999999", linewidth=4, alpha=0.5, label="contact plane (edge-on)")
    for tri, proj, colour, name in ((s1["p"], s1["p_projected"], P_COLOUR, "P"),
                                    (s1["q"], s1["q_projected"], Q_COLOUR, "Q")):
        ax.add_collection3d(Poly3DCollection([tri], facecolor=colour, alpha=0.5, edgecolor=colour))
        side.add_patch(Polygon([[p[0], p[1]] for p in tri], closed=True, facecolor=colour, alpha=0.5,
                               edgecolor=colour, label=f"triangle {name}"))
        loop = proj + proj[:1]
        ax.plot([p[0] for p in loop], [p[1] for p in loop], [p[2] for p in loop], color=colour,
                linestyle="--", linewidth=1.8, label=f"{name}' (projection of {name})")
        for a, b in zip(tri, proj):
            ax.plot([a[0], b[0]], [a[1], b[1]], [a[2], b[2]], color=colour, linewidth=0.8, linestyle=":")
            side.plot([a[0], b[0]], [a[1], b[1]], color=colour, linewidth=0.8, linestyle=":")
        side.plot([p[0] for p in proj], [p[1] for p in proj], marker="o", color=colour, linestyle="none",
                  markersize=4, label=f"{name}' vertices")
    c1, c2, c = s1["c1"], s1["c2"], s1["c"]
    for a in (ax, side):
        coords = ([c1[0], c2[0]], [c1[1], c2[1]]) + (([c1[2], c2[2]],) if a is ax else ())
        a.plot(*coords, color="black", linewidth=0.7)
        a.scatter(*coords, color="black", marker="x", s=30, label="sphere centres c1, c2")
        a.scatter(*([c[0]], [c[1]]) + (([c[2]],) if a is ax else ()), color=CORE_COLOUR, s=25, zorder=5,
                  label="c (contact plane centre)")
    ax.set_xlabel("x (length units)")
    ax.set_ylabel("y (length units)")
    ax.set_zlabel("z (length units)")
    ax.set_box_aspect((abs(c2[0] - c1[0]), y1 - y0, z1 - z0))
    ax.view_init(elev=28, azim=-40)
    ax.set_title("3D view")
    ax.legend(fontsize=7, loc="upper left")
    side.set_aspect("equal")
    side.set_xlabel("x, along c2 − c1 (length units)")
    side.set_ylabel("y (length units)")
    side.set_title("side view (looking along −z)")
    side.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    fig.subplots_adjust(wspace=0.3)
    fig.suptitle("S1: triangles P, Q and their projections onto the spheres' contact plane x = 0")
    name = common.save_figure(fig, out_dir, f"{SCENARIO}_s1")
    return common.figure_html(
        name, "(a) Figure S1 from the exact case: each triangle is projected along c2 − c1 onto the "
              "spheres' contact plane x = 0 (dotted: projection lines; dashed: P' and Q')")


def fig_s2(s2, out_dir):
    from matplotlib.patches import Circle, Polygon
    fig, ax = common.new_figure(7.5, 6)
    rc, c = s2["rc"], s2["c"]
    ref, fast = s2["reference"], s2["fast"]
    circle = Circle(c, rc, fill=False, color="#555555", linewidth=1.2, label=f"contact circle (r_c = {rc:.4g})")
    ax.add_patch(circle)
    poly = ref["polygon"]
    if len(poly) >= 3:
        ax.add_patch(Polygon(poly, closed=True, facecolor=S_COLOUR, edgecolor="none",
                             label=f"S = P' ∩ Q' ({len(poly)} vertices, reference)"))
        core = Polygon(poly, closed=True, facecolor=CORE_COLOUR, edgecolor="none", alpha=0.85,
                       label="S inside the contact circle")
        ax.add_patch(core)
        core.set_clip_path(Circle(c, rc, transform=ax.transData))
    fpoly = fast["polygon"]
    if len(fpoly) >= 3:
        ax.add_patch(Polygon(fpoly, closed=True, fill=False, edgecolor="black", linestyle=":", linewidth=1.4, zorder=4,
                             label=f"S from the fast kernel ({len(fpoly)} vertices)"))
    for tri, colour, name in ((s2["p"], P_COLOUR, "P'"), (s2["q"], Q_COLOUR, "Q'")):
        ax.add_patch(Polygon(tri, closed=True, fill=False, edgecolor=colour, linewidth=1.8, label=name))
    ax.plot([c[0]], [c[1]], marker="o", color="black", linestyle="none", label="c (radical-plane centre)")
    cp = ref.get("contact_point")
    if cp is not None:
        ax.plot([c[0], cp[0]], [c[1], cp[1]], color="black", linewidth=0.8, linestyle="--")
        ax.annotate(f"h = {math.sqrt(ref['h2']):.4g}", ((c[0] + cp[0]) / 2, (c[1] + cp[1]) / 2),
                    textcoords="offset points", xytext=(-14, 9), fontsize=8)
        ax.plot([cp[0]], [cp[1]], marker="*", markersize=13, color="gold", markeredgecolor="black",
                linestyle="none", label="c_p, reference")
    fcp = fast.get("contact_point")
    if fcp is not None:
        ax.plot([fcp[0]], [fcp[1]], marker="+", markersize=12, color="black", linestyle="none",
                label="c_p, fast")
    pts = s2["p"] + s2["q"] + [[c[0] - rc, c[1] - rc], [c[0] + rc, c[1] + rc]]
    pad = 0.15
    ax.set_xlim(min(p[0] for p in pts) - pad, max(p[0] for p in pts) + pad)
    ax.set_ylim(min(p[1] for p in pts) - pad, max(p[1] for p in pts) + pad)
    ax.set_aspect("equal")
    ax.set_xlabel(f"{s2['axes'][0] if 'axes' in s2 else 'u'} in the contact plane (length units)")
    ax.set_ylabel(f"{s2['axes'][1] if 'axes' in s2 else 'v'} in the contact plane (length units)")
    ax.set_title("S2: projected triangles, contact circle, S and the contact point")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    name = common.save_figure(fig, out_dir, f"{SCENARIO}_s2")
    cap = (f"(b) Figure S2 from the exact case: c lies outside S, so c_p is the point of S nearest c "
           f"(h² = {common.fmt_sci(ref.get('h2'))}); dark red is S within the contact circle; "
           f"fast and reference agree (verdict {s2.get('verdict', '?')})")
    return common.figure_html(name, cap)


def fig_delta_t(dt, out_dir):
    fig, ax = common.new_figure(7.5, 4.5)
    curve = dt["curve"]
    ax.plot(curve["h"], curve["delta_t"], color="#555555", linewidth=1.4,
            label="eq. (36) closed form (fast::delta_t_curve)")
    samples = dt["samples"]
    ref = [(s["h"], s["reference"]) for s in samples if is_number(s.get("reference"))]
    fst = [(s["h"], s["fast"]) for s in samples if is_number(s.get("fast"))]
    ax.plot([p[0] for p in ref], [p[1] for p in ref], marker="o", markersize=7, markerfacecolor="none",
            color=CORE_COLOUR, linestyle="none", label="reference kernel (exact h², MPFR δ_t)")
    ax.plot([p[0] for p in fst], [p[1] for p in fst], marker="x", markersize=5, color=P_COLOUR,
            linestyle="none", label="fast kernel")
    if is_number(dt.get("rc")):
        ax.axvline(dt["rc"], color="#999999", linestyle=":", linewidth=1)
        ax.annotate("r_c", (dt["rc"], 0), textcoords="offset points", xytext=(3, 5), fontsize=8)
    ax.set_xlabel("offset h = |c − c_p| (length units)")
    ax.set_ylabel("overlap δ_t (length units)")
    ax.set_title(f"δ_t against h: spheres R1 = {dt.get('r1')}, R2 = {dt.get('r2')}, "
                 f"centre distance {dt.get('distance')} (δ_s = {dt.get('delta_s')})")
    ax.legend(fontsize=8)
    name = common.save_figure(fig, out_dir, f"{SCENARIO}_delta_t")
    cap = (f"(c) δ_t falls from δ_s at h = 0 to 0 at the contact circle; both kernels lie on eq. (36) "
           f"(max |fast − reference| {common.fmt_sci(dt.get('max_fast_error'))}, max |formula − reference| "
           f"{common.fmt_sci(dt.get('max_formula_error'))} length units)")
    return common.figure_html(name, cap)


def render(results_dir, out_dir):
    doc, not_run = common.read_run(results_dir, SCENARIO, load)
    if not_run:
        return not_run
    out = fig_s1(doc["s1"], out_dir) + fig_s2(doc["s2"], out_dir) + fig_delta_t(doc["delta_t_of_h"], out_dir)
    s2 = doc["s2"]
    rows = []
    for side in ("reference", "fast"):
        r = s2[side]
        cp = r.get("contact_point")
        rows.append([side, len(r["polygon"]), "—" if cp is None else f"({cp[0]:.6g}, {cp[1]:.6g})",
                     common.fmt_sci(r.get("h2")), f"{r['delta_t']:.10g}" if is_number(r.get("delta_t")) else "—",
                     "yes" if r.get("contact") else "no"])
    out += common.table(["S2 case", "vertices of S", "c_p (y, z)", "h²", "δ_t", "contact"], rows)
    return out
