// The square drop's vocabulary (ipc-square-drop.txt; the book's program
// phys-sim-book/solid-sim-tutorial, folder 3_contact, as specified in
// ../shared/sources/README.md, section "Square drop"): a mass-spring square dropped on a
// horizontal ground with the IPC barrier, advanced by projected Newton on the incremental
// potential with a CCD-bounded filter line search. The book's program is the problem
// statement both sides run, so it lives here, generic in the kernels: the fast run
// (harness/scenarios/square_drop.hpp) and the reference run (reference/square_drop.hpp)
// each supply a kernel set and share the parameters and the per-state record.
//
// The simulator is a template on a kernel set K, so the same code runs once in double with
// the fast kernels and once in MPFR with the reference kernels:
//   using K::Scalar;
//   static Scalar constant(const char* decimal);          // the book's constants, parsed
//                                                          // at the scalar's precision
//   static Scalar barrier_value(d, dhat, kappa, area);    // BarrierEnergy.val, one node
//   static void barrier_terms(d, dhat, kappa, area, value&, grad&, hess&);
//   static Scalar ground_ccd(const Vec& x, const Vec& p, const Scalar& y_ground);
//                                                          // BarrierEnergy.init_step_size
//   static void spring_hessian(dx, dy, l2, k, Mat4& local); // make_PSD of the 4x4 block
//   static double to_double(const Scalar&);
// This header includes Eigen only; no kernel, fast or reference.
#pragma once
#include <Eigen/Core>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace contactbench::cases::square_drop {

// The book's constants (simulator.py, BarrierEnergy.py, time_integrator.py), as decimal
// strings so that a multi-precision run parses them at its own precision.
struct Book {
  static constexpr const char* side = "1";       // side_len, m
  static constexpr const char* rho = "1000";     // density, kg/m²
  static constexpr const char* k = "2e4";        // spring stiffness
  static constexpr const char* h = "0.01";       // time step, s
  static constexpr const char* tol = "1e-2";     // Newton tolerance on ||p||/h, m/s
  static constexpr const char* y_ground = "-1";  // ground height, m
  static constexpr const char* dhat = "0.01";    // barrier activation distance, m
  static constexpr const char* kappa = "1e5";    // barrier stiffness
  static constexpr const char* gravity = "9.81"; // |g|, m/s², g = (0, -9.81)
};

struct Params {
  int n_seg = 4;     // segments per side: (n_seg+1)² nodes
  int steps = 600;   // time steps of h = 0.01 s
};

// square_mesh.generate: node i*(n+1)+j at (-side/2 + i*step, -side/2 + j*step); springs
// x-neighbours, then y-neighbours, then per cell the two diagonals (README "Square drop").
std::vector<std::array<int, 2>> square_springs(int n_seg);

// Nested dissection of the (n_seg+1)² node grid: the nodes in elimination order. A
// rectangle of nodes is split across its longer side by the middle grid line, the two
// halves are ordered first (recursively) and the line last. Springs join only neighbours
// and the diagonals of a cell, so a whole grid line separates the halves. Its factor costs
// fewer operations than AMD's at n_seg = 16, 32, 64, more at 4 and 8 (README "square_drop").
std::vector<int> dissection_order(int n_seg);

// numpy's LA.norm(p, inf) of p viewed as an N x 2 array (time_integrator.py): the largest
// row sum |p_x| + |p_y| over nodes, not the largest entry (README "Square drop", step 3).
template <class Vec>
typename Vec::Scalar node_inf_norm(const Vec& p) {
  using S = typename Vec::Scalar;
  S best(0);
  for (Eigen::Index i = 0; i + 1 < p.size(); i += 2) {
    using std::abs;
    const S r = abs(p[i]) + abs(p[i + 1]);
    if (r > best) best = r;
  }
  return best;
}

// A safety net the book does not have: a Newton loop that never converges throws rather
// than hanging the harness. The book's runs take at most a handful of iterations.
inline constexpr int max_newton_iterations = 1000;

// Where a run's time goes, by phase, summed over the steps taken while it is attached
// (Simulator::attach_profile; harness/bench/square_drop.cpp). Without one no clock is read.
struct Profile {
  double assembly_ns = 0;       // gradient and projected Hessian values into the fixed pattern
  double factorization_ns = 0;  // numeric LDLᵀ (the symbolic part is done once: symbolic_ns)
  double solve_ns = 0;          // permute, two triangular solves, permute back
  double ccd_ns = 0;            // line search: the ground CCD bound
  double energy_ns = 0;         // line search: IP evaluations (the step's first one included)
  long newton = 0, factorizations = 0, energy_evaluations = 0;
};

template <class K>
class Simulator {
 public:
  using S = typename K::Scalar;
  using Vec = Eigen::Matrix<S, Eigen::Dynamic, 1>;
  using Mat4 = Eigen::Matrix<S, 4, 4>;
  using SpMat = Eigen::SparseMatrix<S, Eigen::ColMajor, int>;

  explicit Simulator(int n_seg) : n_seg_(n_seg) {
    if (n_seg < 1) throw std::invalid_argument("square_drop: n_seg must be >= 1");
    side_ = K::constant(Book::side);
    k_ = K::constant(Book::k);
    h_ = K::constant(Book::h);
    h2_ = h_ * h_;
    tol_ = K::constant(Book::tol);
    y_ground_ = K::constant(Book::y_ground);
    dhat_ = K::constant(Book::dhat);
    kappa_ = K::constant(Book::kappa);
    gy_ = -K::constant(Book::gravity);
    const int n1 = n_seg + 1;
    nodes_ = n1 * n1;
    const int ndof = 2 * nodes_;
    x_.resize(ndof);
    const S step = side_ / S(n_seg);
    for (int i = 0; i < n1; ++i)
      for (int j = 0; j < n1; ++j) {
        x_[2 * (i * n1 + j)] = -side_ / 2 + S(i) * step;
        x_[2 * (i * n1 + j) + 1] = -side_ / 2 + S(j) * step;
      }
    v_ = Vec::Zero(ndof);  // simulator.py: starts at rest
    // m = rho * side² / (n_seg+1)², lumped evenly (simulator.py); 40 kg for n_seg = 4.
    m_ = K::constant(Book::rho) * side_ * side_ / S(n1 * n1);
    area_ = side_ / S(n_seg);  // contact_area = side_len / n_seg for every node
    springs_ = square_springs(n_seg);
    for (const auto& e : springs_) {  // rest length squared from the initial mesh
      const S dx = x_[2 * e[0]] - x_[2 * e[1]], dy = x_[2 * e[0] + 1] - x_[2 * e[1] + 1];
      l2_.push_back(dx * dx + dy * dy);
    }
    xn_ = x_; xtilde_ = x_; trial_ = x_; p_ = Vec::Zero(ndof); grad_ = Vec::Zero(ndof);
    rhs_ = Vec::Zero(ndof); spring_grad_ = Vec::Zero(ndof);
    build_pattern();
  }

  int nodes() const { return nodes_; }
  int n_seg() const { return n_seg_; }
  const Vec& x() const { return x_; }
  const Vec& v() const { return v_; }
  S mass() const { return m_; }
  S contact_area() const { return area_; }
  const std::vector<std::array<int, 2>>& springs() const { return springs_; }
  const std::vector<S>& rest_length2() const { return l2_; }
  const S& y_ground() const { return y_ground_; }
  const S& dhat() const { return dhat_; }
  // The one-off symbolic work of the constructor (ordering, pattern, slots, elimination
  // tree), ns; and the profile that step() adds its phases to (nullptr: none).
  double symbolic_ns() const { return symbolic_ns_; }
  void attach_profile(Profile* p) { profile_ = p; }

  // time_integrator.step_forward: one implicit-Euler step. Returns the number of Newton
  // updates taken (0 when the stopping test holds at x_n already).
  int step() {
    xtilde_ = x_ + v_ * h_;  // x + v * h
    xn_ = x_;
    start_lap();
    S e_last = ip_value(x_);
    lap(&Profile::energy_ns);
    search_direction();
    int iter = 0;
    while (node_inf_norm(p_) / h_ > tol_) {
      if (iter == max_newton_iterations)
        throw std::runtime_error("square_drop: Newton did not converge");
      // Filter line search: CCD bound, then halve while the energy went up (equality accepted).
      S alpha = K::ground_ccd(x_, p_, y_ground_);
      lap(&Profile::ccd_ns);
      S e;
      for (;;) {
        trial_ = x_ + alpha * p_;
        e = ip_value(trial_);
        if (!(e > e_last)) break;
        alpha /= 2;
      }
      lap(&Profile::energy_ns);
      x_.swap(trial_);  // x += alpha * p (the same rounded values as the trial point)
      factorized_at_x_ = false;
      e_last = e;       // the book recomputes IP_val(x): the same number
      search_direction();
      ++iter;
    }
    v_ = (x_ - xn_) / h_;
    if (profile_) profile_->newton += iter;
    return iter;
  }

  // Energies of the current state (in the scalar type): ½Σm|v|², springs, gravity, barrier.
  struct Energies {
    S kinetic, spring, gravity, barrier;
  };
  Energies energies() const {
    Energies en{S(0), spring_energy(x_), gravity_energy(x_), barrier_energy(x_)};
    for (int i = 0; i < 2 * nodes_; ++i) en.kinetic += m_ * v_[i] * v_[i] / 2;
    return en;
  }
  // Smallest node height above the ground, m.
  S min_height() const {
    S best = x_[1] - y_ground_;
    for (int i = 1; i < nodes_; ++i) {
      const S d = x_[2 * i + 1] - y_ground_;
      if (d < best) best = d;
    }
    return best;
  }

 private:
  // MassSpringEnergy.val: Σ l2 * 0.5 * k * (|d|²/l2 - 1)².
  S spring_energy(const Vec& x) const {
    S sum(0);
    for (std::size_t s = 0; s < springs_.size(); ++s) {
      const auto& e = springs_[s];
      const S dx = x[2 * e[0]] - x[2 * e[1]], dy = x[2 * e[0] + 1] - x[2 * e[1] + 1];
      const S r = (dx * dx + dy * dy) / l2_[s] - 1;
      sum += l2_[s] * S(0.5) * k_ * (r * r);
    }
    return sum;
  }
  // GravityEnergy.val: -Σ m g·x with g = (0, -9.81).
  S gravity_energy(const Vec& x) const {
    S sum(0);
    for (int i = 0; i < nodes_; ++i) sum += -m_ * (x[2 * i + 1] * gy_);
    return sum;
  }
  // BarrierEnergy.val: nodes with d = y - y_ground < d̂.
  S barrier_energy(const Vec& x) const {
    S sum(0);
    for (int i = 0; i < nodes_; ++i) {
      const S d = x[2 * i + 1] - y_ground_;
      if (d < dhat_) sum += K::barrier_value(d, dhat_, kappa_, area_);
    }
    return sum;
  }
  // Profiling: start_lap() marks now; lap(&Profile::field) adds the time since the last
  // mark to that field and marks again. Both do nothing without an attached profile.
  void start_lap() {
    if (profile_) lap_start_ = std::chrono::steady_clock::now();
  }
  void lap(double Profile::*field) {
    if (!profile_) return;
    const auto now = std::chrono::steady_clock::now();
    profile_->*field += std::chrono::duration<double, std::nano>(now - lap_start_).count();
    lap_start_ = now;
  }

  // time_integrator.IP_val: inertia + h² (springs + gravity + barrier).
  S ip_value(const Vec& x) const {
    if (profile_) ++profile_->energy_evaluations;
    S inertia(0);
    for (int i = 0; i < nodes_; ++i) {
      const S dx = x[2 * i] - xtilde_[2 * i], dy = x[2 * i + 1] - xtilde_[2 * i + 1];
      inertia += S(0.5) * m_ * (dx * dx + dy * dy);
    }
    return inertia + h2_ * (spring_energy(x) + gravity_energy(x) + barrier_energy(x));
  }

  // The Hessian's sparsity pattern never changes (diagonal + the 4x4 block of every
  // spring), so everything symbolic is done once here: a fill-reducing ordering, the
  // upper triangle of the permuted matrix P H Pᵀ, the value slot of every entry each spring
  // and node contributes to, and the elimination tree. The Newton loop then only writes
  // values into those slots and refactorizes: no permutation copy, no allocation.
  // Two orderings are analysed, AMD and the grid's nested dissection, and the one whose
  // factorization costs fewer operations (Σ over columns of L of nnz², from the symbolic
  // analysis) is kept (measured: AMD at n_seg = 4 and 8, dissection at 16, 32, 64).
  void build_pattern() {
    const auto t0 = std::chrono::steady_clock::now();
    const int ndof = 2 * nodes_;
    std::vector<Eigen::Triplet<S, int>> trips;
    for (int i = 0; i < ndof; ++i) trips.emplace_back(i, i, S(1));
    for (const auto& e : springs_)
      for (int r : spring_dofs(e))
        for (int c : spring_dofs(e)) trips.emplace_back(r, c, S(1));
    SpMat full(ndof, ndof);
    full.setFromTriplets(trips.begin(), trips.end());
    Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> pinv;
    Eigen::AMDOrdering<int>()(full, pinv);
    const Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> perm = pinv.inverse();
    const std::vector<int> amd(perm.indices().data(), perm.indices().data() + ndof);
    std::vector<int> dissection(ndof);  // node k of the order takes rows 2k, 2k+1
    const std::vector<int> order = dissection_order(n_seg_);
    for (int k = 0; k < nodes_; ++k) {
      dissection[2 * order[k]] = 2 * k;
      dissection[2 * order[k] + 1] = 2 * k + 1;
    }
    const double amd_cost = analyse(amd);
    if (analyse(dissection) >= amd_cost) analyse(amd);
    sol_ = Vec::Zero(ndof);
    symbolic_ns_ = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
  }

  static std::array<int, 4> spring_dofs(const std::array<int, 2>& e) {
    return {2 * e[0], 2 * e[0] + 1, 2 * e[1], 2 * e[1] + 1};
  }

  // Makes dof i row/column index[i] of P H Pᵀ: the pattern, the slots and the symbolic
  // factorization. Returns the factorization's operation count, Σ nnz(L column)².
  double analyse(const std::vector<int>& index) {
    const int ndof = 2 * nodes_;
    new_index_ = index;
    // Upper triangle of the permuted matrix: entry (r, c) of H lands at (min, max) of the
    // new indices.
    auto upper = [&](int r, int c) {
      const int a = new_index_[r], b = new_index_[c];
      return std::pair<int, int>(std::min(a, b), std::max(a, b));
    };
    std::vector<Eigen::Triplet<S, int>> trips;
    for (int i = 0; i < ndof; ++i) trips.emplace_back(new_index_[i], new_index_[i], S(0));
    for (const auto& e : springs_)
      for (int r : spring_dofs(e))
        for (int c : spring_dofs(e)) {
          const auto [ur, uc] = upper(r, c);
          trips.emplace_back(ur, uc, S(0));
        }
    H_.resize(ndof, ndof);
    H_.setFromTriplets(trips.begin(), trips.end());
    H_.makeCompressed();
    auto slot = [&](int r, int c) {
      const auto [ur, uc] = upper(r, c);
      const int* inner = H_.innerIndexPtr();
      const int* begin = inner + H_.outerIndexPtr()[uc];
      const int* end = inner + H_.outerIndexPtr()[uc + 1];
      return static_cast<int>(std::lower_bound(begin, end, ur) - inner);
    };
    diag_slot_.resize(ndof);
    for (int i = 0; i < ndof; ++i) diag_slot_[i] = slot(i, i);
    spring_slots_.clear();
    for (const auto& e : springs_) {  // local (r, c), c <= r, in the order search_direction uses
      const auto dof = spring_dofs(e);
      std::array<int, 10> sl{};
      int k = 0;
      for (int r = 0; r < 4; ++r)
        for (int c = 0; c <= r; ++c) sl[k++] = slot(dof[r], dof[c]);
      spring_slots_.push_back(sl);
    }
    solver_.analyzePattern(H_);
    return solver_.operations();
  }

  // time_integrator.search_dir: assemble ∇IP and the projected Hessian at x, solve H p = -∇IP.
  // The Hessian depends on x alone (m, springs, barrier; not on x̃), and a step's first
  // direction is taken at the previous step's last iterate, where H was just factorized:
  // that factorization is reused (the same values, so the same bits), and a step costs
  // one factorization per Newton update, not one more.
  void search_direction() {
    const int ndof = 2 * nodes_;
    const bool assemble = !factorized_at_x_;
    S* hv = H_.valuePtr();
    if (assemble) {
      std::fill(hv, hv + H_.nonZeros(), S(0));
      // Inertia: m on the diagonal (InertiaEnergy.hess).
      for (int i = 0; i < ndof; ++i) hv[diag_slot_[i]] += m_;
    }
    for (int i = 0; i < ndof; ++i) spring_grad_[i] = S(0);
    // Springs (MassSpringEnergy.grad / hess), Hessian entries scaled by h² one by one.
    Mat4 local;
    for (std::size_t s = 0; s < springs_.size(); ++s) {
      const auto& e = springs_[s];
      const S dx = x_[2 * e[0]] - x_[2 * e[1]], dy = x_[2 * e[0] + 1] - x_[2 * e[1] + 1];
      const S f = 2 * k_ * ((dx * dx + dy * dy) / l2_[s] - 1);
      const S gx = f * dx, gy = f * dy;
      spring_grad_[2 * e[0]] += gx; spring_grad_[2 * e[0] + 1] += gy;
      spring_grad_[2 * e[1]] -= gx; spring_grad_[2 * e[1] + 1] -= gy;
      if (!assemble) continue;
      K::spring_hessian(dx, dy, l2_[s], k_, local);
      const auto& sl = spring_slots_[s];
      int kk = 0;
      for (int r = 0; r < 4; ++r)
        for (int c = 0; c <= r; ++c) hv[sl[kk++]] += h2_ * local(r, c);
    }
    // IP_grad = inertia + h² (springs + gravity + barrier); barrier Hessian h² b'' on (y, y).
    const S grav_y = -m_ * gy_;  // GravityEnergy.grad: -m g
    for (int i = 0; i < nodes_; ++i) {
      const S d = x_[2 * i + 1] - y_ground_;
      S bg(0);
      if (d < dhat_) {
        S bv, bh;
        K::barrier_terms(d, dhat_, kappa_, area_, bv, bg, bh);
        if (assemble) hv[diag_slot_[2 * i + 1]] += h2_ * bh;
      }
      // x: gravity and barrier have no x component.
      grad_[2 * i] = m_ * (x_[2 * i] - xtilde_[2 * i]) + h2_ * spring_grad_[2 * i];
      grad_[2 * i + 1] =
          m_ * (x_[2 * i + 1] - xtilde_[2 * i + 1]) + h2_ * (spring_grad_[2 * i + 1] + grav_y + bg);
    }
    lap(&Profile::assembly_ns);
    if (assemble) {
      solver_.refactorize(H_);
      if (solver_.info() != Eigen::Success)
        throw std::runtime_error("square_drop: Hessian factorization failed");
      factorized_at_x_ = true;
      if (profile_) ++profile_->factorizations;
    }
    lap(&Profile::factorization_ns);
    for (int i = 0; i < ndof; ++i) rhs_[new_index_[i]] = -grad_[i];
    sol_ = solver_.solve(rhs_);
    for (int i = 0; i < ndof; ++i) p_[i] = sol_[new_index_[i]];
    lap(&Profile::solve_ns);
  }

  int n_seg_, nodes_ = 0;
  S side_, k_, h_, h2_, tol_, y_ground_, dhat_, kappa_, gy_, m_, area_;
  std::vector<std::array<int, 2>> springs_;
  std::vector<S> l2_;
  Vec x_, v_, xn_, xtilde_, trial_, p_, grad_, rhs_, sol_, spring_grad_;
  SpMat H_;                     // upper triangle of P H Pᵀ
  std::vector<int> new_index_;  // dof i is row/column new_index_[i] of P H Pᵀ
  std::vector<int> diag_slot_;
  std::vector<std::array<int, 10>> spring_slots_;
  double symbolic_ns_ = 0;
  bool factorized_at_x_ = false;  // solver_ holds the factorization of H at the present x_
  Profile* profile_ = nullptr;
  std::chrono::steady_clock::time_point lap_start_;
  // H is symmetric positive definite (mass diagonal + PSD-projected springs + positive
  // barrier), so an LDLᵀ factorization solves the same system as the book's general
  // sparse LU (scipy spsolve) in half the work and without pivoting; its symbolic part
  // is reused for every Newton iteration.
  // The ordering is applied in analyse, so the solver sees a pre-ordered matrix;
  // refactorize() calls Eigen's numeric factorization directly, skipping the wrapper's
  // temporary matrix header (its one heap allocation per iteration).
  struct Ldlt : Eigen::SimplicialLDLT<SpMat, Eigen::Upper, Eigen::NaturalOrdering<int>> {
    void refactorize(const SpMat& a) { this->template factorize_preordered<true>(a); }
    double operations() const {
      double sum = 0;
      for (Eigen::Index k = 0; k < this->m_nonZerosPerCol.size(); ++k)
        sum += static_cast<double>(this->m_nonZerosPerCol[k]) * this->m_nonZerosPerCol[k];
      return sum;
    }
  };
  Ldlt solver_;
};

// One run's time series, in doubles whatever the scalar: index 0 is the initial state,
// index k the state after k steps.
struct Trajectory {
  std::string variant;           // "fast" or "reference"
  int n_seg = 0, nodes = 0, steps = 0, precision_bits = 53;
  std::vector<double> x;         // (steps+1) x nodes x 2, node-major (x, y) per state
  std::vector<int> iterations;   // Newton updates taken by the step ending in state k (0 at k = 0)
  std::vector<double> min_height, kinetic, spring, gravity, barrier;  // per state, m and J
  std::vector<double> step_ns;   // wall time of the step ending in state k (0 at k = 0)
  double position(int k, int node, int comp) const {
    return x[(static_cast<std::size_t>(k) * nodes + node) * 2 + comp];
  }
};

// Runs the simulator for p.steps steps and records every state. progress(k) after step k.
template <class K>
Trajectory simulate(const Params& p, const std::string& variant, int precision_bits,
                    const std::function<void(int)>& progress = {}) {
  Simulator<K> sim(p.n_seg);
  Trajectory t;
  t.variant = variant;
  t.n_seg = p.n_seg;
  t.nodes = sim.nodes();
  t.steps = p.steps;
  t.precision_bits = precision_bits;
  const std::size_t states = static_cast<std::size_t>(p.steps) + 1;
  t.x.reserve(states * 2 * t.nodes);
  auto record = [&](int iters, double ns) {
    for (int i = 0; i < 2 * t.nodes; ++i) t.x.push_back(K::to_double(sim.x()[i]));
    t.iterations.push_back(iters);
    t.min_height.push_back(K::to_double(sim.min_height()));
    const auto e = sim.energies();
    t.kinetic.push_back(K::to_double(e.kinetic));
    t.spring.push_back(K::to_double(e.spring));
    t.gravity.push_back(K::to_double(e.gravity));
    t.barrier.push_back(K::to_double(e.barrier));
    t.step_ns.push_back(ns);
  };
  record(0, 0);
  for (int k = 1; k <= p.steps; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    const int iters = sim.step();
    const auto t1 = std::chrono::steady_clock::now();
    record(iters, std::chrono::duration<double, std::nano>(t1 - t0).count());
    if (progress) progress(k);
  }
  return t;
}

}  // namespace contactbench::cases::square_drop
