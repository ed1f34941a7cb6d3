"""Section ellipsoid_pour: Vyatkin & Dolgovesov's pour — N ellipsoids through an inclined tube
onto a plane, each body an independent system under velocity-level affine constraints.

Reads results/run/ellipsoid_pour.json (schema "contactbench.run/1", scenario "ellipsoid_pour",
written by `contactbench run ellipsoid_pour`): params, geometry {shapes, tube, plane_z},
series {t, colliding, contacts, active, narrow, precomputation_ns, detection_ns,
resolution_ns, final_ns, ...} (one entry per step), table (the paper's statistics at six
moments), cost {ns_per_contact, intercept_ns, mean_ms_per_step}, scaling {rows [{N,
ms_per_step, contacts}], ms_per_body}, key_frames [{step, t, x, q, shape}], certification
(optional: agree/boundary/wrong of the reference re-deciding the narrow phase) and trajectory
(optional: reference-kernel run against the fast one).
"""
import math

import numpy as np

import common
from common import is_number

SCENARIO = "ellipsoid_pour"
SERIES_KEYS = ("t", "colliding", "contacts", "active", "narrow", "precomputation_ns",
               "detection_ns", "resolution_ns", "final_ns")
PHASES = (("precomputation_ns", "precomputation"), ("detection_ns", "contact detection"),
          ("resolution_ns", "contact resolution"), ("final_ns", "final computation"))
TABLE_KEYS = ("step", "t", "colliding", "contacts", "active", "ms_per_step")


def load(path):
    doc, bad = common.load_run(path, "scenario", SCENARIO)
    for key in ("params", "geometry", "series", "cost", "scaling"):
        if not isinstance(doc.get(key), dict):
            bad(key, "expected an object")
    series = doc["series"]
    n = None
    for k in SERIES_KEYS:
        v = series.get(k)
        if not isinstance(v, list) or not all(is_number(x) for x in v):
            bad(f"series.{k}", "expected a list of numbers")
        if n is None:
            n = len(v)
        elif len(v) != n:
            bad(f"series.{k}", f"expected {n} numbers, got {len(v)}")
    if not n:
        bad("series.t", "expected at least one step")
    table = doc.get("table")
    if not isinstance(table, list) or not table:
        bad("table", "expected a non-empty list")
    for i, r in enumerate(table):
        if not isinstance(r, dict) or not all(is_number(r.get(k)) for k in TABLE_KEYS):
            bad(f"table[{i}]", f"expected numbers {', '.join(TABLE_KEYS)}")
    rows = doc["scaling"].get("rows")
    if not isinstance(rows, list):
        bad("scaling.rows", "expected a list")
    for i, r in enumerate(rows):
        if not isinstance(r, dict) or not all(is_number(r.get(k)) for k in ("N", "ms_per_step", "contacts")):
            bad(f"scaling.rows[{i}]", "expected numbers N, ms_per_step, contacts")
    frames = doc.get("key_frames", [])
    if not isinstance(frames, list):
        bad("key_frames", "expected a list")
    for i, f in enumerate(frames):
        if not isinstance(f, dict) or not all(isinstance(f.get(k), list) for k in ("x", "q", "shape")):
            bad(f"key_frames[{i}]", "expected lists x, q, shape")
        if not (len(f["x"]) == len(f["q"]) == len(f["shape"])):
            bad(f"key_frames[{i}]", "x, q and shape differ in length")
    return doc


def step_ms(series):
    return [sum(series[k][i] for k, _ in PHASES) / 1e6 for i in range(len(series["t"]))]


def fig_phases(doc, out_dir):
    s = doc["series"]
    steps = np.arange(1, len(s["t"]) + 1)
    fig, ax = common.new_figure(8, 4.6)
    below = np.zeros(len(steps))
    for key, label in PHASES:
        ms = np.asarray(s[key], dtype=float) / 1e6
        ax.fill_between(steps, below, below + ms, step="mid", alpha=0.8, label=label, linewidth=0)
        below = below + ms
    ax.set_xlabel("step (s = %g s)" % doc["params"].get("dt", float("nan")))
    ax.set_ylabel("time per step (ms), phases stacked")
    ax.set_title(f"Time per phase against step, N = {doc['params'].get('N')} (paper's Fig. 6 analog)")
    ax.set_ylim(0, max(float(np.percentile(below, 99.5)) * 1.3, 1e-3))
    ax2 = ax.twinx()
    ax2.plot(steps, s["contacts"], color="black", linewidth=1, label="contacts")
    ax2.set_ylabel("contacts per step")
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, fontsize=7, loc="upper left")
    name = common.save_figure(fig, out_dir, f"{SCENARIO}_phases")
    return common.figure_html(
        name, "Time per phase against step: detection (narrow phase through the pair kernel) and "
              "resolution grow with the number of contacts (black); precomputation and final "
              "computation stay flat (a fixed amount per body)")


def fig_counts(doc, out_dir):
    s = doc["series"]
    fig, ax = common.new_figure(8, 4.0)
    for key, label in (("colliding", "colliding ellipsoids"), ("contacts", "contacts detected"),
                       ("active", "contacts not already satisfied (solved)")):
        ax.plot(s["t"], s[key], label=label, linewidth=1.2)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("count")
    ax.set_title("Colliding ellipsoids and contacts during the pour")
    ax.legend(fontsize=7)
    name = common.save_figure(fig, out_dir, f"{SCENARIO}_counts")
    return common.figure_html(
        name, "Colliding ellipsoids saturate once the released column has collapsed onto the tube "
              "floor, while contacts keep growing as the bodies pack together (the paper's remark on "
              "its table); contacts fall again when the column leaves the tube and spreads on the plane")


def fig_cost(doc, out_dir):
    s = doc["series"]
    ms = step_ms(s)
    fig, (a1, a2) = common.plt.subplots(1, 2, figsize=(10, 4.2))
    a1.plot(s["contacts"][1:], ms[1:], ".", markersize=2, alpha=0.5, color="#1f77b4", label="one step")
    cost = doc["cost"]
    if is_number(cost.get("ns_per_contact")) and not math.isnan(cost["ns_per_contact"]):
        xs = np.linspace(0, max(s["contacts"]), 50)
        a1.plot(xs, (cost["intercept_ns"] + cost["ns_per_contact"] * xs) / 1e6, color="black",
                label=f"fit: {cost['intercept_ns'] / 1e6:.3f} ms + {cost['ns_per_contact'] / 1e3:.3f} µs × contacts")
    a1.set_xlabel("contacts in the step")
    a1.set_ylabel("time per step (ms)")
    a1.set_title(f"Cost against contacts (N = {doc['params'].get('N')})")
    a1.legend(fontsize=7)
    rows = sorted(doc["scaling"]["rows"], key=lambda r: r["N"])
    if rows:
        ns = [r["N"] for r in rows]
        a2.loglog(ns, [r["ms_per_step"] for r in rows], "o-", label="measured (mean time per step)")
        if len(rows) >= 2:
            k = rows[-1]["ms_per_step"] / rows[-1]["N"]
            a2.loglog([ns[0], ns[-1]], [k * ns[0], k * ns[-1]], "--", color="gray",
                      label="slope 1 (linear in N) through the largest N")
        a2.set_xlabel("N (ellipsoids)")
        a2.set_ylabel("time per step (ms)")
        b = doc["scaling"].get("ms_per_body")
        a2.set_title("Cost against N" + (f" (fit: {b * 1e3:.2f} µs per body)" if is_number(b) else ""))
        a2.legend(fontsize=7)
    fig.tight_layout()
    name = common.save_figure(fig, out_dir, f"{SCENARIO}_cost")
    return common.figure_html(
        name, "Cost per step is linear in the number of contacts (left: every step of the run, "
              "least-squares line) and in N (right: log–log, the points follow slope 1)")


def ellipsoid_mesh(semi, q, centre, nu=8, nv=5):
    w, x, y, z = q
    n = w * w + x * x + y * y + z * z
    R = np.array([[w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y)],
                  [2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x)],
                  [2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z]]) / n
    u = np.linspace(0, 2 * np.pi, nu + 1)
    v = np.linspace(0, np.pi, nv + 1)
    pts = np.stack([np.outer(np.cos(u), np.sin(v)), np.outer(np.sin(u), np.sin(v)),
                    np.outer(np.ones_like(u), np.cos(v))], axis=-1) * np.asarray(semi)
    pts = pts @ R.T + np.asarray(centre)
    quads = []
    for i in range(nu):
        for j in range(nv):
            quads.append([pts[i, j], pts[i + 1, j], pts[i + 1, j + 1], pts[i, j + 1]])
    return quads


def fig_frames(doc, out_dir):
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection
    frames = doc.get("key_frames", [])
    if not frames:
        return common.paragraph("No key frames in this run.", "missing")
    shapes = doc["geometry"]["shapes"]
    tube = doc["geometry"]["tube"]
    colours = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728"]
    top, axis = np.asarray(tube["top"]), np.asarray(tube["axis"])
    e1 = np.cross(axis, [0.0, 1.0, 0.0])
    e1 /= np.linalg.norm(e1)
    e2 = np.cross(axis, e1)
    th = np.linspace(0, 2 * np.pi, 40)
    everything = np.concatenate([np.asarray(f["x"]) for f in frames] + [top[None, :], (top + tube["length"] * axis)[None, :]])
    lo, hi = everything.min(axis=0) - 0.05, everything.max(axis=0) + 0.05
    lo[2] = 0
    fig = common.plt.figure(figsize=(12, 9))
    for k, f in enumerate(frames[:4]):
        ax = fig.add_subplot(2, 2, k + 1, projection="3d")
        polys, cols = [], []
        for x, q, s in zip(f["x"], f["q"], f["shape"]):
            quads = ellipsoid_mesh(shapes[s], q, x)
            polys += quads
            cols += [colours[s % 4]] * len(quads)
        ax.add_collection3d(Poly3DCollection(polys, facecolors=cols, edgecolors="none", linewidths=0))
        for t in np.linspace(0, tube["length"], 2):
            ring = top + t * axis + tube["radius"] * (np.outer(np.cos(th), e1) + np.outer(np.sin(th), e2))
            ax.plot(ring[:, 0], ring[:, 1], ring[:, 2], color="gray", linewidth=0.8)
        for a in np.linspace(0, 2 * np.pi, 9)[:-1]:
            line = np.array([top, top + tube["length"] * axis]) + tube["radius"] * (np.cos(a) * e1 + np.sin(a) * e2)
            ax.plot(line[:, 0], line[:, 1], line[:, 2], color="gray", linewidth=0.5)
        gx, gy = np.meshgrid(np.linspace(lo[0], hi[0], 2), np.linspace(lo[1], hi[1], 2))
        ax.plot_surface(gx, gy, np.zeros_like(gx) + doc["geometry"].get("plane_z", 0), color="#dddddd", alpha=0.3)
        ax.set_xlim(lo[0], hi[0])
        ax.set_ylim(lo[1], hi[1])
        ax.set_zlim(lo[2], hi[2])
        ax.set_box_aspect(hi - lo)
        ax.view_init(elev=20, azim=-60)
        ax.set_xlabel("x (m)", fontsize=7)
        ax.set_ylabel("y (m)", fontsize=7)
        ax.set_zlabel("z (m)", fontsize=7)
        ax.tick_params(labelsize=6)
        ax.set_title(f"step {f['step']}, t = {f['t']:.3f} s", fontsize=9)
    fig.suptitle(f"Key frames of the pour, N = {doc['params'].get('N')} (colour: shape)")
    fig.tight_layout()
    name = common.save_figure(fig, out_dir, f"{SCENARIO}_frames")
    return common.figure_html(
        name, "Key frames: the column released in the tube (grey rings: its ends) slides down, leaves "
              "the open lower end and spreads into a pile on the plane")


def fig_trajectory(doc, out_dir):
    tr = doc.get("trajectory")
    if not isinstance(tr, dict) or not tr.get("position_difference"):
        return ""
    d = tr["position_difference"]
    fig, ax = common.new_figure(8, 3.8)
    steps = np.arange(1, len(d) + 1)
    ax.semilogy(steps, [max(x, 1e-20) for x in d], color="#1f77b4", label="largest |x_fast − x_reference|")
    first = tr.get("first_differing_step", -1)
    if is_number(first) and first > 0:
        ax.axvline(first, color="#d62728", linestyle="--", label=f"first step a narrow-phase decision differs ({first})")
    ax.set_xlabel("step")
    ax.set_ylabel("position difference (m)")
    ax.set_title(f"Reference-kernel trajectory against the fast one, N = {tr.get('N')} (1e-20: identical)")
    ax.legend(fontsize=7)
    name = common.save_figure(fig, out_dir, f"{SCENARIO}_trajectory")
    return common.figure_html(
        name, "The two runs differ only through the kernels' last-bit differences in F, point and "
              "normal, which the granular dynamics amplifies step by step")


def render(results_dir, out_dir):
    doc, not_run = common.read_run(results_dir, SCENARIO, load)
    if not_run:
        return not_run
    p, s, cost = doc["params"], doc["series"], doc["cost"]
    tube = doc["geometry"]["tube"]
    out = common.paragraph(
        f"{p.get('N')} ellipsoids (four shapes, density {p.get('density')} kg/m³) released at rest on a "
        f"lattice inside a tube of radius {tube['radius']} m and length {tube['length']:.3f} m inclined "
        f"{tube.get('incline_deg')}° (analytic cylinder, closed at the top, open at the bottom), "
        f"emptying onto the plane z = 0; {p.get('steps')} steps of {p.get('dt')} s with the "
        f"{p.get('kernels')} ellipsoid_contact kernel; friction {p.get('mu_pair')} between bodies, "
        f"{p.get('mu_plane')} on the plane, {p.get('mu_tube')} on the tube, {p.get('directions')} sampled "
        f"tangent directions, {p.get('sweeps')} sweeps per body; threads: {p.get('threads')}.")
    mean = cost.get("mean_ms_per_step")
    if is_number(mean):
        out += common.paragraph(
            f"Mean time per step {mean:.3f} ms; fitted cost {cost['ns_per_contact'] / 1e3:.3f} µs per "
            f"contact + {cost['intercept_ns'] / 1e6:.3f} ms per step (timings from the run itself, "
            "on a possibly shared machine).")
    rows = [[r["step"], f"{r['t']:.3f}", r["colliding"], r["contacts"], r["active"], f"{r['ms_per_step']:.3f}"]
            for r in doc["table"]]
    out += common.paragraph("The paper's table from our run: statistics at six moments of the pour "
                            "(time per step: mean over the 21 steps around the moment).")
    out += common.table(["step", "t (s)", "colliding ellipsoids", "contacts", "contacts solved",
                         "time per step (ms)"], rows)
    out += fig_phases(doc, out_dir)
    out += fig_counts(doc, out_dir)
    out += fig_cost(doc, out_dir)
    srows = [[r["N"], f"{r['contacts']:.0f}", f"{r['ms_per_step']:.3f}"]
             for r in sorted(doc["scaling"]["rows"], key=lambda r: r["N"])]
    if srows:
        out += common.paragraph(f"Scaling series ({doc['scaling'].get('window', '')}; each N its own "
                                "pour, the same geometry with a longer tube):")
        out += common.table(["N", "contacts per step", "time per step (ms)"], srows)
    c = doc.get("certification")
    if isinstance(c, dict):
        out += common.paragraph(
            f"Certified decisions: {c.get('sampled')} re-decided by the reference kernel on the same "
            "state and judged by the ellipsoid_contact family's rule.")
        out += common.table(["steps", "queries", "agree", "boundary", "wrong", "out of domain"],
                            [[c["steps"], c["queries"], c["agree"], c["boundary"],
                              (c["wrong"], "bad" if c["wrong"] else None), c["out_of_domain"]]])
    else:
        out += common.paragraph("No certification in this run (--variant fast or reference).", "missing")
    tr = doc.get("trajectory")
    if isinstance(tr, dict):
        first = tr.get("first_differing_step", -1)
        together = (f"the narrow-phase decisions agree in all {tr.get('steps')} steps" if first is None or first < 0
                    else f"the first narrow-phase difference is at step {first} ({tr.get('difference')})")
        out += common.paragraph(
            f"Reference-kernel trajectory (N = {tr.get('N')}, {tr.get('steps')} steps): {together}; the "
            f"largest position difference before it is {common.fmt_sci(tr.get('max_position_difference_before'))} m.")
        out += fig_trajectory(doc, out_dir)
    out += fig_frames(doc, out_dir)
    return out
