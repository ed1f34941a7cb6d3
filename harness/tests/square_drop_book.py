#!/usr/bin/python3
"""Cross-check of the square drop against an independent transcription of the book's
program as ../shared/sources/README.md ("Square drop") specifies it, in numpy/scipy like
the book (numpy eigh for make_PSD, scipy's general sparse LU spsolve for the solve, Python
floats in the book's order of operations). Needs python3-numpy and python3-scipy.

    /usr/bin/python3 harness/tests/square_drop_book.py [n_seg] [steps] [results/run/square_drop.json]

Simulates, then compares Newton iteration counts and positions with the fast run in the
given scenario output (written by `contactbench run square_drop` with the same n_seg and
steps); exit status 1 if the file's n_seg or step count differ, any iteration count
differs, or a position differs by more than BOUND = 1e-12 m (the bound the scenario states
for fast vs reference; measured here: 2.2e-14 m over 600 steps). Without a file it writes
its own trajectory as JSON to stdout. ctest `square_drop_book` runs it on 100 steps."""
import json, math, sys
import numpy as np
import scipy.sparse as sparse
from scipy.sparse.linalg import spsolve

BOUND = 1e-12
n_seg = int(sys.argv[1]) if len(sys.argv) > 1 else 4
steps = int(sys.argv[2]) if len(sys.argv) > 2 else 600
side, rho, k, h, yg, dhat, kappa, tol = 1.0, 1000.0, 2e4, 0.01, -1.0, 0.01, 1e5, 1e-2
gvec = np.array([0.0, -9.81])
n1 = n_seg + 1
x = np.zeros((n1 * n1, 2))
step = side / n_seg
for i in range(n1):
    for j in range(n1):
        x[i * n1 + j] = [-side / 2 + i * step, -side / 2 + j * step]
E = []
for i in range(n_seg):
    for j in range(n1):
        E.append((i * n1 + j, (i + 1) * n1 + j))
for i in range(n1):
    for j in range(n_seg):
        E.append((i * n1 + j, i * n1 + j + 1))
for i in range(n_seg):
    for j in range(n_seg):
        E.append((i * n1 + j, (i + 1) * n1 + j + 1))
        E.append(((i + 1) * n1 + j, i * n1 + j + 1))
N = len(x)
m = rho * side * side / (n1 * n1)
A = side / n_seg
l2 = [float((x[a] - x[b]) @ (x[a] - x[b])) for a, b in E]
v = np.zeros_like(x)


def energy(x, xt):
    inert = sum(0.5 * m * float((x[i] - xt[i]) @ (x[i] - xt[i])) for i in range(N))
    spring = sum(l2[s] * 0.5 * k * (float((x[a] - x[b]) @ (x[a] - x[b])) / l2[s] - 1) ** 2 for s, (a, b) in enumerate(E))
    grav = sum(-m * float(x[i] @ gvec) for i in range(N))
    bar = 0.0
    for i in range(N):
        d = x[i][1] - yg
        if d < dhat:
            s = d / dhat
            bar += A * dhat * kappa / 2 * (s - 1) * math.log(s)
    return inert + h * h * (spring + grav + bar)


def direction(x, xt):
    g = np.zeros((N, 2))
    rows, cols, vals = [], [], []
    for i in range(N):
        g[i] += m * (x[i] - xt[i])
        for c in range(2):
            rows.append(2 * i + c); cols.append(2 * i + c); vals.append(m)
    gp = np.zeros((N, 2))
    for s, (a, b) in enumerate(E):
        d = x[a] - x[b]
        q = float(d @ d)
        gd = 2 * k * (q / l2[s] - 1) * d
        gp[a] += gd; gp[b] -= gd
        Hd = 2 * k / l2[s] * (2 * np.outer(d, d) + (q - l2[s]) * np.identity(2))
        blk = np.block([[Hd, -Hd], [-Hd, Hd]])
        lam, V = np.linalg.eigh(blk)
        lam = np.maximum(lam, 0)
        blk = V @ np.diag(lam) @ V.T
        idx = [2 * a, 2 * a + 1, 2 * b, 2 * b + 1]
        for r in range(4):
            for c in range(4):
                rows.append(idx[r]); cols.append(idx[c]); vals.append(h * h * blk[r, c])
    for i in range(N):
        gp[i] += -m * gvec
        d = x[i][1] - yg
        if d < dhat:
            s = d / dhat
            gp[i][1] += A * dhat * (kappa / 2 * (math.log(s) / dhat + (s - 1) / d))
            rows.append(2 * i + 1); cols.append(2 * i + 1)
            vals.append(h * h * A * dhat * kappa / (2 * d * d * dhat) * (d + dhat))
    g = g + h * h * gp
    H = sparse.coo_matrix((vals, (rows, cols)), shape=(2 * N, 2 * N)).tocsr()
    return spsolve(H, -g.reshape(2 * N)).reshape(N, 2)


def ccd(x, p):
    alpha = 1
    for i in range(N):
        if p[i][1] < 0:
            alpha = min(alpha, 0.9 * (yg - x[i][1]) / p[i][1])
    return alpha


out = {"iterations": [0], "x": [x.reshape(-1).tolist()]}
for t in range(steps):
    xt = x + v * h
    xn = x.copy()
    it = 0
    e_last = energy(x, xt)
    p = direction(x, xt)
    while np.linalg.norm(p, np.inf) / h > tol:
        alpha = ccd(x, p)
        while energy(x + alpha * p, xt) > e_last:
            alpha /= 2
        x = x + alpha * p
        e_last = energy(x, xt)
        p = direction(x, xt)
        it += 1
    v = (x - xn) / h
    out["iterations"].append(it)
    out["x"].append(x.reshape(-1).tolist())
if len(sys.argv) > 3:
    doc = json.load(open(sys.argv[3]))
    if doc["params"]["n_seg"] != n_seg:
        sys.exit(f"{sys.argv[3]}: n_seg {doc['params']['n_seg']}, expected {n_seg}")
    if "fast" not in doc["runs"]:
        sys.exit(f"{sys.argv[3]}: no fast run")
    ours = doc["runs"]["fast"]
    if len(ours["iterations"]) != len(out["iterations"]):
        sys.exit(f"{sys.argv[3]}: {len(ours['iterations']) - 1} steps, expected {steps}")
    differ = [k for k, (a, b) in enumerate(zip(out["iterations"], ours["iterations"])) if a != b]
    worst = max(max(abs(p - q) for p, q in zip(a, b)) for a, b in zip(out["x"], ours["x"]))
    print(f"book transcription vs contactbench fast, n_seg={n_seg}, {steps} steps: "
          f"Newton iterations {sum(out['iterations'])} vs {sum(ours['iterations'])}, "
          f"steps differing {differ[:10]}{'...' if len(differ) > 10 else ''}, "
          f"largest position difference {worst:.3g} m (bound {BOUND:g} m)")
    agree = not differ and worst <= BOUND  # NaN fails
    print("agree" if agree else "DISAGREE")
    sys.exit(0 if agree else 1)
json.dump(out, sys.stdout)
