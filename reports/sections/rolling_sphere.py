"""Section rolling_sphere: Woo's edge smoothing (family edge_smoothing) in the rolling_sphere
scenario.

Reads results/run/rolling_sphere.json (schema "contactbench.run/1", written by
`contactbench run rolling_sphere`): woo_picture (raw/smoothed contacts of a sphere over an
internal edge), zone_map (original vs adjusted normal angle around a convex and a concave
edge), plane (time series and speed loss per surface and mode), trough (angle series and
period error per resolution and mode), agreement (fast vs reference trajectories).
Figures: (a) Woo's picture, (b) horizontal contact force against position across internal
edges, (c) the zone map, (d) trough angle against time and period error against resolution.
"""
import math

import common
from common import is_number

SCENARIO = "rolling_sphere"
ZONE_COLOURS = {"none": "#999999", "blue": "#1f77b4", "red": "#d62728", "green": "#2ca02c",
                "vertex_cone": "#9467bd"}
MODE_COLOURS = {**common.MODE_COLOURS, "ideal": "#000000"}


def load(path):
    doc, bad = common.load_run(path, "scenario", SCENARIO)
    for key in ("woo_picture", "zone_map", "params"):
        if not isinstance(doc.get(key), dict):
            bad(key, "expected an object")
    for key in ("plane", "trough", "agreement"):
        if not isinstance(doc.get(key), list):
            bad(key, "expected a list")
    for i, p in enumerate(doc["plane"]):
        s = p.get("series") if isinstance(p, dict) else None
        if not (isinstance(s, dict) and all(isinstance(s.get(k), list) for k in ("t", "x", "z", "vx", "fx"))
                and isinstance(p.get("surface"), str) and isinstance(p.get("mode"), str)):
            bad(f"plane[{i}]", "expected {surface, mode, series: {t, x, z, vx, fx}}")
        if len({len(s[k]) for k in ("t", "x", "z", "vx", "fx")}) != 1:
            bad(f"plane[{i}].series", "series of different lengths")
    for i, t in enumerate(doc["trough"]):
        if not (isinstance(t, dict) and isinstance(t.get("resolution"), int) and isinstance(t.get("t"), list)
                and isinstance(t.get("theta"), list) and len(t["t"]) == len(t["theta"])):
            bad(f"trough[{i}]", "expected {resolution, mode, period, period_error, t, theta}")
    for shape in ("convex", "concave"):
        rows = doc["zone_map"].get(shape)
        if not isinstance(rows, list) or not all(
                isinstance(r, dict) and is_number(r.get("original")) and is_number(r.get("adjusted"))
                and r.get("zone") in ZONE_COLOURS for r in rows):
            bad(f"zone_map.{shape}", "expected rows {original, adjusted, zone}")
    for mode in ("raw", "smoothed"):
        m = doc["woo_picture"].get(mode)
        if not isinstance(m, dict) or not isinstance(m.get("contacts"), list):
            bad(f"woo_picture.{mode}", "expected {contacts, gravity, resultant}")
    return doc


def fig_woo(doc, out_dir):
    w = doc["woo_picture"]
    r, (cx, cz) = w["radius"], w["centre"]
    fig, axes = common.plt.subplots(1, 2, figsize=(9.5, 4.0), sharey=True)
    g = math.hypot(*w["raw"]["gravity"])
    scale = 0.9 * r / g  # arrow length per newton: gravity drawn as 0.9 radius
    for ax, mode in zip(axes, ("raw", "smoothed")):
        m = w[mode]
        xs = w["grid_x"]
        ax.plot([xs[0], xs[-1]], [0, 0], color="black", linewidth=1.5)
        for x in xs:
            ax.plot([x, x], [-0.004, 0.004], color="black", linewidth=1)
        ax.annotate("internal edge", (w["edge_x"], 0), textcoords="offset points", xytext=(4, -14), fontsize=8)
        ax.add_patch(common.plt.Circle((cx, cz), r, fill=False, color="#555555"))

        def arrow(x, z, fx, fz, colour, label, width=0.0015):
            ax.arrow(x, z, fx * scale, fz * scale, width=width, color=colour, length_includes_head=True,
                     label=label)

        for i, c in enumerate(m["contacts"]):
            (px, pz), (fx, fz) = c["point"], c["force"]
            name = f"F{i + 1} ({c['region']}{', ' + c['zone'] if mode == 'smoothed' else ''})"
            arrow(px, pz, fx, fz, ["#1f77b4", "#ff7f0e", "#8c564b"][i % 3], name)
        arrow(cx - 0.12 * r, cz, *m["gravity"], "#2ca02c", "gravity Fg (drawn beside the centre)")
        arrow(cx, cz, *m["resultant"], "black", f"resultant FΣ (x: {m['resultant'][0]:+.3g} N)", 0.0025)
        ax.arrow(cx - 0.5 * r, cz + 1.2 * r, 0.6 * r, 0, width=0.0008, color="#777777")
        ax.annotate("v", (cx + 0.15 * r, cz + 1.25 * r), fontsize=9, color="#777777")
        ax.set_aspect("equal")
        ax.set_xlim(cx - 1.6 * r, cx + 1.6 * r)
        ax.set_ylim(-0.6 * r, cz + 1.6 * r)
        ax.set_xlabel("x (m)")
        ax.set_title(mode)
        ax.legend(fontsize=7, loc="lower left")
    axes[0].set_ylabel("z (m)")
    name = common.save_figure(fig, out_dir, f"{SCENARIO}_woo_picture")
    rx = w["raw"]["resultant"][0]
    sx = w["smoothed"]["resultant"][0]
    return common.figure_html(
        name, f"(a) Woo's picture from computed forces: raw, the edge contact F2 tilts the resultant "
              f"against v (x-component {rx:+.3g} N); smoothed, F2 is re-pointed to the facet normal "
              f"(x-component {sx:+.3g} N)")


def fig_force(doc, out_dir):
    fig, ax = common.new_figure(8, 4)
    lo, hi = 0.25, 0.45
    edges = []
    for p in doc["plane"]:
        if p["surface"] not in ("grid", "ideal") or p["mode"] not in ("raw", "smoothed"):
            continue  # Woo's story; the PFC modes are compared in section dem_modes
        s = p["series"]
        pts = [(x, fx) for x, fx in zip(s["x"], s["fx"]) if lo <= x <= hi]
        label = "ideal plane" if p["surface"] == "ideal" else f"grid, {p['mode']}"
        colour = MODE_COLOURS["ideal" if p["surface"] == "ideal" else p["mode"]]
        ax.plot([q[0] for q in pts], [q[1] for q in pts], color=colour, linewidth=1, label=label)
        if p["surface"] == "grid":
            edges = [x for x in p.get("edges_x", []) if lo <= x <= hi]
    for x in sorted(set(edges)):
        ax.axvline(x, color="#bbbbbb", linewidth=0.8, linestyle="--", zorder=0)
    ax.set_xlabel("sphere centre x (m)   (dashed: internal edges crossed)")
    ax.set_ylabel("horizontal contact force Fx (N)")
    ax.legend(fontsize=8)
    ax.set_title("Horizontal contact force while rolling across internal edges (+x)")
    name = common.save_figure(fig, out_dir, f"{SCENARIO}_force")
    return common.figure_html(
        name, "(b) raw: the next facet's edge contact brakes the sphere before each internal edge "
              "(its damping acts on approach) and barely pushes after it; smoothed: Fx stays 0, as on "
              "the ideal plane")


def zone_boundaries(rows):
    """[(phi, left zone, right zone)] where the zone changes between neighbouring samples."""
    return [((a["phi"] + b["phi"]) / 2, a["zone"], b["zone"])
            for a, b in zip(rows, rows[1:]) if a["zone"] != b["zone"]]


def fig_zone_map(doc, out_dir):
    zm = doc["zone_map"]
    fig, axes = common.plt.subplots(1, 2, figsize=(10.5, 4.6), sharey=True)
    for ax, shape in zip(axes, ("convex", "concave")):
        rows = sorted(zm[shape], key=lambda r: r["phi"])
        ax.plot([r["phi"] for r in rows], [r["original"] for r in rows], color="black",
                linewidth=0.7, linestyle="--", zorder=4, label="original n (before smoothing)")
        for zone, colour in ZONE_COLOURS.items():
            pts = [r for r in rows if r["zone"] == zone]
            if pts:
                ax.scatter([r["phi"] for r in pts], [r["adjusted"] for r in pts], s=9, color=colour,
                           zorder=3, label=f"{zone} ({len(pts)})")
        for phi, left, right in zone_boundaries(rows):
            ax.axvline(phi, color="black", linestyle=":", linewidth=0.9, zorder=2)
            ax.annotate(f"{left}|{right}", (phi, 1.0), xycoords=("data", "axes fraction"),
                        xytext=(2, -10), textcoords="offset points", rotation=90, fontsize=6,
                        va="top")
        ax.set_xlim(-182, 182)
        ax.set_ylim(-185, 200)
        ax.set_xticks(range(-180, 181, 60))
        ax.set_xlabel("centre's direction φ around the edge (deg)")
        ax.set_title(f"{shape} edge, fold {zm['fold_deg']:g}° (n_lim = {zm['n_lim']:.3f})", fontsize=10)
        ax.legend(fontsize=7, loc="lower left")
    axes[0].set_ylabel("normal's angle from n1 (deg)")
    name = common.save_figure(fig, out_dir, f"{SCENARIO}_zone_map")
    return common.figure_html(
        name, "(c) zone map (centre swept around the edge, exact reference; φ = 0 along n1, φ < 0 "
              "over facet 1; dotted: zone boundaries): over facet 1 (grey, zone none) the face "
              "normal is kept, 0° in front and 180° behind; "
              "blue keeps n (on the dashed line), red snaps to n2 (±fold), green to −n1 (180°)")


def fig_trough(doc, out_dir):
    tr = doc["trough"]
    fig, (ax, bx) = common.plt.subplots(1, 2, figsize=(11, 4.2), gridspec_kw={"wspace": 0.35})
    res = sorted({t["resolution"] for t in tr})
    show = 32 if 32 in res else (res[len(res) // 2] if res else None)
    T = doc.get("trough_period_analytic")
    th0 = doc["params"].get("theta0", 0)
    for t in tr:
        if t["resolution"] == show:
            ax.plot(t["t"], t["theta"], color=MODE_COLOURS.get(t["mode"], "gray"), linewidth=1,
                    label=f"{t['mode']}, n = {show}")
    if is_number(T) and tr:
        ts = [i * 0.002 for i in range(int(max(max(t["t"]) for t in tr) / 0.002))]
        ax.plot(ts, [th0 * math.cos(2 * math.pi * x / T) for x in ts], color="black", linestyle="--",
                linewidth=1, label="analytic θ0 cos(2πt/T)")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("angle from the bottom θ (rad)")
    ax.legend(fontsize=8)
    series = {}
    for mode in [m for m in MODE_COLOURS if m != "ideal"]:
        pts = sorted((t["resolution"], t["period_error"]) for t in tr
                     if t["mode"] == mode and is_number(t.get("period_error")))
        if pts:
            series[mode] = pts
            bx.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", color=MODE_COLOURS[mode],
                    label=mode, linewidth=1.8 if mode == "raw" else 1)
    bx.axhline(0, color="black", linewidth=0.8)
    bx.set_xscale("log", base=2)
    bx.set_xticks(res)
    bx.set_xticklabels([str(n) for n in res])
    bx.minorticks_off()
    bx.set_yscale("symlog", linthresh=1e-4)
    bx.set_xlabel("facets around the half circle n")
    bx.set_ylabel("period error (T − T_analytic)/T_analytic\n(signed; symlog, linear within ±1e-4)")
    bx.grid(True, which="major", alpha=0.3)
    bx.legend(fontsize=8)
    name = common.save_figure(fig, out_dir, f"{SCENARIO}_trough")
    caption = ("(d) trough: angle against time at one resolution (left) and the period error against "
               "mesh resolution (right), signed because its sign changes; it falls as the half "
               "circle is refined")
    raw = series.get("raw", [])
    mags = [abs(e) for _, e in raw]
    turn = next((i for i in range(1, len(mags)) if mags[i] > mags[i - 1] and i >= 2), None)
    if turn is not None:
        caption += (f". The raw curve is not monotone: |error| falls to {mags[turn - 1]:.1e} at n = "
                    f"{raw[turn - 1][0]} and grows again to {raw[turn][1]:+.1e} at n = {raw[turn][0]}: "
                    "the raw contact brakes the sphere at every internal edge (figure b), and a "
                    "finer trough has more edges per swing")
    return common.figure_html(name, caption)


def render(results_dir, out_dir):
    doc, not_run = common.read_run(results_dir, SCENARIO, load)
    if not_run:
        return not_run
    out = fig_woo(doc, out_dir) + fig_force(doc, out_dir) + fig_zone_map(doc, out_dir) + fig_trough(doc, out_dir)
    rows = [[p["surface"], p["mode"], common.fmt_sci(p.get("speed_loss")),
             common.fmt_sci(p.get("speed_loss_vs_ideal")), str(p.get("crossings", "")),
             common.fmt_sci(p.get("loss_per_crossing")), common.fmt_sci(p.get("max_bump"))]
            for p in doc["plane"]]
    out += common.table(["surface", "mode", "speed loss (m/s)", "vs ideal (m/s)", "internal edges crossed",
                         "loss per edge (m/s)", "max vertical bump (m)"], rows)
    rows = [[str(t["resolution"]), t["mode"], common.fmt_sci(t.get("period")), common.fmt_sci(t.get("period_error"))]
            for t in sorted(doc["trough"], key=lambda t: (t["mode"], t["resolution"]))]
    out += common.table(["trough facets n", "mode", "period (s)", "error vs analytic"], rows)
    if doc["agreement"]:
        rows = [[a.get("case", ""), a.get("mode", ""), str(a.get("steps", "")),
                 common.fmt_sci(a.get("max_separation")), common.fmt_sci(a.get("bound")),
                 ("yes", None) if a.get("ok") else ("no", "bad")] for a in doc["agreement"]]
        out += common.table(["fast vs reference run", "mode", "steps", "max separation (m)", "bound (m)",
                             "within bound"], rows)
    else:
        out += common.paragraph("The fast vs reference agreement runs were not part of this run "
                                "(--variant fast or reference).")
    return out
