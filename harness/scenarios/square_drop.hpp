// The square-drop canonical scenario (README.md, section "square_drop"): the fast run
// (double, fast kernels) of the simulator in cases/square_drop.hpp, the reference run
// (reference/square_drop.hpp), their stated agreement, and `contactbench run square_drop`.
#pragma once
#include "cases/square_drop.hpp"
#include "fast/barrier.hpp"
#include "fast/ground_ccd.hpp"
#include "harness/scenario.hpp"

#include <Eigen/Core>

#include <cstdlib>
#include <functional>
#include <vector>

namespace contactbench::harness::square_drop {

using cases::square_drop::Book;
using cases::square_drop::Params;
using cases::square_drop::Simulator;
using cases::square_drop::Trajectory;

// The fast kernel set: double, the fast barrier and CCD kernels, and the closed-form PSD
// projection of the spring block.
struct FastKernels {
  using Scalar = double;
  using Vec = Eigen::VectorXd;
  static double constant(const char* decimal) { return std::strtod(decimal, nullptr); }
  static double barrier_value(double d, double dhat, double kappa, double area) {
    return fast::barrier_terms(d, dhat, kappa, area).value;
  }
  static void barrier_terms(double d, double dhat, double kappa, double area, double& v,
                            double& g, double& h) {
    const auto t = fast::barrier_terms(d, dhat, kappa, area);
    v = t.value; g = t.gradient; h = t.hessian;
  }
  static double ground_ccd(const Vec& x, const Vec& p, double y_ground) {
    return fast::ground_ccd_step(x.data() + 1, p.data() + 1, static_cast<std::size_t>(x.size() / 2),
                                 2, y_ground).alpha;
  }
  // MassSpringEnergy.hess then make_PSD, in closed form. The block is [[H, -H], [-H, H]]
  // = [[1,-1],[-1,1]] ⊗ H with H = (2k/l2)(2 d dᵀ + (|d|² - l2) I), whose eigenvalues are
  // (2k/l2)(3|d|² - l2) along d and (2k/l2)(|d|² - l2) across it; the 4x4 eigenvalues are
  // twice those and 0, 0. Clamping them at 0 (the book's eigendecomposition) therefore
  // gives [[P,-P],[-P,P]] with P = H when |d|² >= l2, P = (2k/l2)(3 - l2/|d|²) d dᵀ when
  // l2/3 < |d|² < l2, and P = 0 below. Checked against the eigendecomposition in
  // harness/tests/square_drop.cpp; the reference run uses the eigendecomposition itself.
  static void spring_hessian(double dx, double dy, double l2, double k, Eigen::Matrix4d& local) {
    const double c = 2 * k / l2, q = dx * dx + dy * dy;
    double pxx, pxy, pyy;
    if (q >= l2) {
      const double off = q - l2;
      pxx = c * (2 * dx * dx + off); pxy = c * (2 * dx * dy); pyy = c * (2 * dy * dy + off);
    } else if (const double lam = 3 * q - l2; lam > 0) {
      const double f = c * lam / q;
      pxx = f * dx * dx; pxy = f * dx * dy; pyy = f * dy * dy;
    } else {
      pxx = pxy = pyy = 0;
    }
    local << pxx, pxy, -pxx, -pxy,
             pxy, pyy, -pxy, -pyy,
             -pxx, -pxy, pxx, pxy,
             -pxy, -pyy, pxy, pyy;
  }
  static double to_double(double v) { return v; }
};

Trajectory simulate_fast(const Params& p, const std::function<void(int)>& progress = {});

// The four key frames of the book's Figure 8.3.1, as state indices (-1 when absent):
// just dropped (0); first state with a node within d̂ of the ground; maximum compression
// (smallest bounding-box height max y − min y over the nodes, first on ties: the most
// deformed square; the largest spring energy comes one step later, state 44 against 43 at
// n_seg = 4); at rest (first state after which positions never change again within the
// run; -1 if the last step still moved).
struct KeyFrames {
  int dropped = 0, first_within_dhat = -1, max_compression = -1, at_rest = -1;
};
KeyFrames key_frames(const Trajectory& t, double dhat);

// The stated agreement of the two runs: identical Newton iteration counts in every step,
// and every coordinate of every state within position_bound metres (measured: see
// README.md, section "square_drop").
inline constexpr double position_bound = 1e-12;
struct TrajectoryComparison {
  int states = 0;
  std::vector<int> iteration_mismatches;  // steps whose iteration counts differ
  double max_position_difference = 0;     // max over states, nodes, components, m
  int max_position_difference_state = 0;
  bool within_bound = false;
};
TrajectoryComparison compare(const Trajectory& fast, const Trajectory& reference);

}  // namespace contactbench::harness::square_drop

namespace contactbench::harness {

// `contactbench run square_drop`: params n_seg (default 4), steps (600), precision (128).
// Returns the exit status: 0 when the fast and reference runs agree as stated (identical
// iteration counts, positions within position_bound) or only one variant ran, 1 otherwise.
// Throws InputError on bad parameters.
int run_square_drop(const ScenarioOptions& o);

}  // namespace contactbench::harness
