"""Section closest_feature_regions: the seven regions of one triangle and the boundary-heavy
queries a plain double labels differently from the exact reference.

Reads results/run/closest_feature_regions.json (schema "contactbench.run/1", scenario
"closest_feature_regions"): triangle (3 points in the plane z = 0), regions (7 names; edge k
joins vertex k and k+1), samples ([x, y, region_index] grid, labelled by the reference),
queries ([{"p": [x, y, z], "reference", "fast", "margin", "bound", "verdict"}]). The verdict
(agree, boundary or wrong) is the closest_feature family's own judgement; this section only
shows it.
"""
import math

import common
from common import is_number

SCENARIO = "closest_feature_regions"
VERDICTS = ("agree", "boundary", "wrong")
COLOURS = {"face": "#dddddd", "edge0": "#a6cee3", "edge1": "#b2df8a", "edge2": "#fdbf6f",
           "vertex0": "#cab2d6", "vertex1": "#fb9a99", "vertex2": "#ffff99"}


def load(path):
    doc, bad = common.load_run(path, "scenario", SCENARIO)
    tri = doc.get("triangle")
    if not (isinstance(tri, list) and len(tri) == 3 and all(
            isinstance(v, list) and len(v) >= 2 and all(is_number(c) for c in v[:2]) for v in tri)):
        bad("triangle", "expected three [x, y] points")
    regions = doc.get("regions")
    if not (isinstance(regions, list) and len(regions) == 7 and all(isinstance(r, str) for r in regions)):
        bad("regions", "expected seven region names")
    for i, s in enumerate(doc.get("samples", [])):
        if not (isinstance(s, list) and len(s) == 3 and is_number(s[0]) and is_number(s[1])
                and isinstance(s[2], int) and 0 <= s[2] < 7):
            bad(f"samples[{i}]", "expected [x, y, region_index 0..6]")
    queries = doc.get("queries")
    if not isinstance(queries, list):
        bad("queries", "expected a list")
    for i, q in enumerate(queries):
        if not (isinstance(q, dict) and isinstance(q.get("p"), list) and len(q["p"]) >= 2
                and all(is_number(c) for c in q["p"]) and isinstance(q.get("reference"), str)
                and isinstance(q.get("fast"), str)):
            bad(f"queries[{i}]", "expected {p: [x, y, z], reference, fast, margin, bound, verdict}")
        if q.get("verdict") not in VERDICTS:
            bad(f"queries[{i}].verdict", f"expected one of {', '.join(VERDICTS)}, got {q.get('verdict')!r}")
    return doc


def boundary_rays(tri):
    """For each edge k: its outward normal n_k; the region boundaries are the rays
    v_k + t n_k and v_{k+1} + t n_k (t >= 0)."""
    rays = []
    for k in range(3):
        a, b, c = tri[k], tri[(k + 1) % 3], tri[(k + 2) % 3]
        ex, ey = b[0] - a[0], b[1] - a[1]
        nx, ny = ey, -ex
        if nx * (c[0] - a[0]) + ny * (c[1] - a[1]) > 0:
            nx, ny = -nx, -ny
        length = math.hypot(nx, ny)
        rays += [(a, (nx / length, ny / length)), (b, (nx / length, ny / length))]
    return rays


def draw_samples(ax, samples, regions):
    """The coloured background: an image when the samples form a full grid, else dots."""
    from matplotlib.colors import ListedColormap
    xs = sorted({s[0] for s in samples})
    ys = sorted({s[1] for s in samples})
    cmap = ListedColormap([COLOURS.get(r, "#eeeeee") for r in regions])
    if len(xs) * len(ys) == len(samples) and len(xs) > 1 and len(ys) > 1:
        col, row = {x: i for i, x in enumerate(xs)}, {y: j for j, y in enumerate(ys)}
        grid = [[0] * len(xs) for _ in ys]
        for x, y, r in samples:
            grid[row[y]][col[x]] = r
        # cell edges half-way between sample coordinates
        ex = [xs[0] - (xs[1] - xs[0]) / 2] + [(p + q) / 2 for p, q in zip(xs, xs[1:])] + [xs[-1] + (xs[-1] - xs[-2]) / 2]
        ey = [ys[0] - (ys[1] - ys[0]) / 2] + [(p + q) / 2 for p, q in zip(ys, ys[1:])] + [ys[-1] + (ys[-1] - ys[-2]) / 2]
        ax.pcolormesh(ex, ey, grid, cmap=cmap, vmin=-0.5, vmax=6.5, shading="flat")
    elif samples:
        ax.scatter([s[0] for s in samples], [s[1] for s in samples], c=[s[2] for s in samples],
                   cmap=cmap, vmin=-0.5, vmax=6.5, marker="s", s=12, linewidths=0)


def render(results_dir, out_dir):
    doc, not_run = common.read_run(results_dir, SCENARIO, load)
    if not_run:
        return not_run
    tri, regions, samples, queries = doc["triangle"], doc["regions"], doc.get("samples", []), doc["queries"]
    differ = [q for q in queries if q["reference"] != q["fast"]]
    off_boundary = [q for q in differ if q["verdict"] == "wrong"]
    same_but_wrong = [q for q in queries if q["reference"] == q["fast"] and q["verdict"] == "wrong"]

    from matplotlib.patches import Patch
    fig, ax = common.new_figure(7.5, 6.5)
    draw_samples(ax, samples, regions)
    pts = [p[:2] for p in tri] + [q["p"][:2] for q in queries] + [s[:2] for s in samples]
    x0, x1 = min(p[0] for p in pts), max(p[0] for p in pts)
    y0, y1 = min(p[1] for p in pts), max(p[1] for p in pts)
    pad = 0.05 * max(x1 - x0, y1 - y0, 1e-300)
    reach = 4 * max(x1 - x0, y1 - y0)
    for (vx, vy), (nx, ny) in boundary_rays(tri):
        ax.plot([vx, vx + reach * nx], [vy, vy + reach * ny], color="#555555", linewidth=0.9,
                linestyle="--")
    ax.fill([p[0] for p in tri], [p[1] for p in tri], facecolor="none", edgecolor="black", linewidth=1.8)
    for k, (vx, vy) in enumerate(p[:2] for p in tri):
        ax.annotate(f"v{k}", (vx, vy), textcoords="offset points", xytext=(4, 4), fontsize=9)
    same = [q for q in queries if q["reference"] == q["fast"]]
    ax.scatter([q["p"][0] for q in same], [q["p"][1] for q in same], s=10, color="#777777",
               zorder=3, label=f"boundary-heavy query, same label ({len(same)})")
    ax.scatter([q["p"][0] for q in differ], [q["p"][1] for q in differ], s=40, color="red",
               edgecolors="black", linewidths=0.5, zorder=4,
               label=f"fast label ≠ reference label ({len(differ)})")
    ax.set_xlim(x0 - pad, x1 + pad)
    ax.set_ylim(y0 - pad, y1 + pad)
    ax.set_aspect("equal")
    ax.set_xlabel("x (length units)")
    ax.set_ylabel("y (length units)")
    ax.set_title("Closest-feature regions of a triangle (plane z = 0) and boundary-heavy queries")
    handles = [Patch(facecolor=COLOURS.get(r, "#eeeeee"), edgecolor="#999999", label=r) for r in regions]
    ax.legend(handles=handles + ax.get_legend_handles_labels()[0], fontsize=8,
              loc="upper left", bbox_to_anchor=(1.01, 1.0))
    name = common.save_figure(fig, out_dir, SCENARIO)

    n = len(differ)
    if n == 0:
        caption = (f"none of the {len(queries)} boundary-heavy queries is labelled differently "
                   "by a plain double")
    elif not off_boundary:
        caption = (f"the {n} queries a plain double labels differently from the exact reference "
                   "all lie on region boundaries" if n > 1 else
                   "the 1 query a plain double labels differently from the exact reference "
                   "lies on a region boundary")
    else:
        caption = (f"{n} queries are labelled differently by a plain double; {len(off_boundary)} "
                   "of them lie off the region boundaries (margin above the bound): wrong, not boundary")
    if same_but_wrong:
        caption += (f"; {len(same_but_wrong)} queries with the same label are judged wrong "
                    "(listed below)")
    rows = [[f"({q['p'][0]:g}, {q['p'][1]:g}, {q['p'][2] if len(q['p']) > 2 else 0:g})",
             q["reference"], q["fast"], common.fmt_sci(q.get("margin")), common.fmt_sci(q.get("bound")),
             (q["verdict"], "bad" if q["verdict"] == "wrong" else None)] for q in differ + same_but_wrong]
    out = common.figure_html(name, caption)
    if rows:
        out += common.table(["query point", "reference", "fast", "exact margin", "bound",
                             "verdict (the family's judgement)"], rows)
    return out
