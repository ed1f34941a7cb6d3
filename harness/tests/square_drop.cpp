// Suite `square_drop`: the book's square drop (ipc-square-drop.txt; README "Square drop").
#include "harness/scenarios/square_drop.hpp"
#include "reference/square_drop.hpp"

#include <boost/test/unit_test.hpp>
#include <Eigen/Eigenvalues>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include <unistd.h>

using namespace contactbench;
using namespace contactbench::cases::square_drop;
using namespace contactbench::harness::square_drop;

namespace {

// Both runs, computed once for the whole suite (the MPFR run takes a few seconds).
struct Runs {
  Trajectory fast, reference;
  Runs() {
    Params p;  // n_seg 4, 600 steps
    fast = simulate_fast(p);
    reference = reference::simulate_square_drop(p, 128);
  }
};
const Runs& runs() {
  static const Runs r;
  return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(square_drop)

// Node 5i + j at (-0.5 + 0.25 i, -0.5 + 0.25 j); springs x-neighbours, y-neighbours, then
// the two diagonals of each cell; mass 40, contact area 0.25, rest lengths from the mesh.
BOOST_AUTO_TEST_CASE(mesh_as_the_book) {
  Simulator<FastKernels> sim(4);
  BOOST_TEST(sim.nodes() == 25);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) {
      BOOST_TEST(sim.x()[2 * (5 * i + j)] == -0.5 + 0.25 * i);
      BOOST_TEST(sim.x()[2 * (5 * i + j) + 1] == -0.5 + 0.25 * j);
    }
  const auto& e = sim.springs();
  BOOST_REQUIRE(e.size() == 72u);
  std::size_t s = 0;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 5; ++j, ++s) {
      BOOST_TEST(e[s][0] == 5 * i + j);
      BOOST_TEST(e[s][1] == 5 * (i + 1) + j);
      BOOST_TEST(sim.rest_length2()[s] == 0.0625);
    }
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 4; ++j, ++s) {
      BOOST_TEST(e[s][0] == 5 * i + j);
      BOOST_TEST(e[s][1] == 5 * i + j + 1);
    }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j, s += 2) {
      BOOST_TEST(e[s][0] == 5 * i + j);
      BOOST_TEST(e[s][1] == 5 * (i + 1) + j + 1);
      BOOST_TEST(e[s + 1][0] == 5 * (i + 1) + j);
      BOOST_TEST(e[s + 1][1] == 5 * i + j + 1);
      BOOST_TEST(sim.rest_length2()[s] == 0.125);
    }
  BOOST_TEST(sim.mass() == 40.0);
  BOOST_TEST(sim.contact_area() == 0.25);
  BOOST_TEST(square_springs(8).size() == 2u * 8 * 9 + 2u * 8 * 8);
}

// t = 0: at rest, springs at rest length, Σy = 0 so gravity energy 0, no node within d̂.
// After step 1 (free fall, uniform translation: springs stay at rest): implicit Euler
// gives y1 = y0 - h² g, v1 = -h g; kinetic ½·1000·(hg)², gravity 1000·g·(-h² g).
BOOST_AUTO_TEST_CASE(energies_by_hand) {
  const auto& f = runs().fast;
  BOOST_TEST(f.kinetic[0] == 0.0);
  BOOST_TEST(f.spring[0] == 0.0);
  BOOST_TEST(std::abs(f.gravity[0]) < 1e-12);  // Σ m g y = 0 up to rounding of 25 terms ~ 1e3
  BOOST_TEST(f.barrier[0] == 0.0);
  BOOST_TEST(f.min_height[0] == 0.5);
  const double h = 0.01, g = 9.81, M = 1000;
  BOOST_TEST(f.iterations[1] == 1);
  for (int i = 0; i < 25; ++i) {
    BOOST_TEST(std::abs(f.position(1, i, 0) - f.position(0, i, 0)) < 1e-15);  // solve rounding only
    BOOST_TEST(f.position(1, i, 1) == f.position(0, i, 1) - h * h * g,
               boost::test_tools::tolerance(1e-13));
  }
  BOOST_TEST(f.kinetic[1] == 0.5 * M * (h * g) * (h * g), boost::test_tools::tolerance(1e-12));
  BOOST_TEST(f.gravity[1] == -M * g * h * h * g, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(std::abs(f.spring[1]) < 1e-20);
}

// numpy's matrix infinity norm of p as N x 2: the largest |p_x| + |p_y|, not max |entry|.
BOOST_AUTO_TEST_CASE(stopping_norm_is_row_sum) {
  Eigen::VectorXd p(4);
  p << 3, -4, 1, 1;
  BOOST_TEST(node_inf_norm(p) == 7.0);
}

// The closed-form projection of the fast kernels equals the book's make_PSD (symmetric
// eigendecomposition, negative eigenvalues set to 0) on stretched, compressed and
// collapsed springs.
BOOST_AUTO_TEST_CASE(closed_form_psd_matches_eigendecomposition) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int t = 0; t < 2000; ++t) {
    const double l2 = 0.0625 * (1 + u(rng) * 0.5), k = 2e4;
    const double scale = std::sqrt(l2) * (t % 4 == 0 ? 0.3 : 1 + 0.6 * u(rng));
    const double ang = 3.2 * u(rng), dx = scale * std::cos(ang), dy = scale * std::sin(ang);
    Eigen::Matrix4d closed;
    FastKernels::spring_hessian(dx, dy, l2, k, closed);
    const double c = 2 * k / l2, off = dx * dx + dy * dy - l2;
    Eigen::Matrix2d hd;
    hd << c * (2 * dx * dx + off), c * 2 * dx * dy, c * 2 * dx * dy, c * (2 * dy * dy + off);
    Eigen::Matrix4d block;
    block << hd, -hd, -hd, hd;
    Eigen::SelfAdjointEigenSolver<Eigen::Matrix4d> es(block);
    Eigen::Vector4d lam = es.eigenvalues().cwiseMax(0.0);
    const Eigen::Matrix4d book = es.eigenvectors() * lam.asDiagonal() * es.eigenvectors().transpose();
    BOOST_TEST((closed - book).norm() <= 1e-12 * (block.norm() + 1), "trial " << t);
    BOOST_TEST(Eigen::SelfAdjointEigenSolver<Eigen::Matrix4d>(closed).eigenvalues().minCoeff() >=
               -1e-12 * block.norm());
  }
}

// Nested dissection of the 3 x 3 grid (node 3i + j), by hand: the middle line i = 1 goes
// last; each side line i = 0, i = 2 is split at j = 1 (its two ends, then its middle).
// The 2 x 2 grid: split at i = 0, so the line i = 1 (split at j = 0: node 3, then 2) comes
// first and the line i = 0 (nodes 0, 1) last. Larger grids: a permutation of all nodes, ending with the middle line i = n/2.
BOOST_AUTO_TEST_CASE(dissection_order_by_hand) {
  BOOST_TEST(dissection_order(2) == (std::vector<int>{0, 2, 1, 6, 8, 7, 3, 4, 5}),
             boost::test_tools::per_element());
  BOOST_TEST(dissection_order(1) == (std::vector<int>{3, 2, 0, 1}), boost::test_tools::per_element());
  for (int n = 1; n <= 12; ++n) {
    const auto order = dissection_order(n);
    const int n1 = n + 1;
    BOOST_REQUIRE(order.size() == static_cast<std::size_t>(n1 * n1));
    auto sorted = order;
    std::sort(sorted.begin(), sorted.end());
    for (int k = 0; k < n1 * n1; ++k) BOOST_TEST_REQUIRE(sorted[k] == k);
    for (int j = 0; j < n1; ++j) BOOST_TEST(order[n1 * n1 - n1 + j] == (n / 2) * n1 + j);
  }
}

// A profile only reads clocks: the same bits with and without one. Its counts follow from
// the algorithm: H depends on x only, so one factorization at the initial state and one
// per Newton update (a step starts where the last one factorized); one energy before each
// step's loop and at least one per update.
BOOST_AUTO_TEST_CASE(profile_counts_and_leaves_results_alone) {
  Simulator<FastKernels> plain(4), profiled(4);
  Profile prof;
  profiled.attach_profile(&prof);
  long newton = 0;
  const int steps = 80;  // through the impact at step 32
  for (int k = 0; k < steps; ++k) {
    newton += plain.step();
    profiled.step();
  }
  BOOST_TEST(std::memcmp(plain.x().data(), profiled.x().data(), plain.x().size() * sizeof(double)) == 0);
  BOOST_TEST(prof.newton == newton);
  BOOST_TEST(prof.factorizations == newton + 1);
  BOOST_TEST(prof.energy_evaluations >= newton + steps);
  BOOST_TEST(prof.factorization_ns > 0.0);
  BOOST_TEST(prof.assembly_ns > 0.0);
}

// Both runs: every node strictly above the ground in every state, identical Newton
// iteration counts in every step, positions within the stated bound, same key frames.
BOOST_AUTO_TEST_CASE(fast_and_reference_agree) {
  const auto& r = runs();
  BOOST_REQUIRE(r.fast.iterations.size() == 601u);
  BOOST_REQUIRE(r.reference.iterations.size() == 601u);
  for (const auto* t : {&r.fast, &r.reference})
    for (std::size_t k = 0; k < t->min_height.size(); ++k)
      BOOST_TEST_REQUIRE(t->min_height[k] > 0.0, t->variant << " state " << k);
  const auto c = compare(r.fast, r.reference);
  BOOST_TEST(c.iteration_mismatches.empty());
  BOOST_TEST_MESSAGE("square_drop: max |x_fast - x_reference| = "
                     << c.max_position_difference << " m at state "
                     << c.max_position_difference_state);
  BOOST_TEST(c.max_position_difference <= position_bound);
  const auto kf = key_frames(r.fast, 0.01), kr = key_frames(r.reference, 0.01);
  BOOST_TEST(kf.first_within_dhat == kr.first_within_dhat);
  BOOST_TEST(kf.max_compression == kr.max_compression);
  BOOST_TEST(kf.at_rest == kr.at_rest);
  // The drop hits: a node comes within d̂, and the square comes to rest within 600 steps,
  // after which every step takes zero Newton updates.
  BOOST_TEST(kf.first_within_dhat > 0);
  BOOST_TEST(kf.at_rest > kf.max_compression);
  // Maximum compression is a deformation, not the first contact: it comes after the square
  // enters d̂, and the other measure of deformation, the spring energy, peaks within one
  // step of it.
  BOOST_TEST(kf.max_compression > kf.first_within_dhat);
  const auto peak = std::max_element(r.fast.spring.begin(), r.fast.spring.end()) - r.fast.spring.begin();
  BOOST_TEST(std::abs(peak - kf.max_compression) <= 1);
  for (std::size_t k = static_cast<std::size_t>(kf.at_rest) + 1; k < r.fast.iterations.size(); ++k)
    BOOST_TEST_REQUIRE(r.fast.iterations[k] == 0);
  BOOST_TEST(r.fast.iterations[static_cast<std::size_t>(kf.at_rest)] > 0);
}

// Run twice, same bits: no uninitialised state, no dependence on allocation addresses.
BOOST_AUTO_TEST_CASE(run_twice_deterministic) {
  Params p;
  p.steps = 80;  // through the impact at step 32
  const auto a = simulate_fast(p), b = simulate_fast(p);
  BOOST_TEST(a.iterations == b.iterations, boost::test_tools::per_element());
  BOOST_TEST(std::memcmp(a.x.data(), b.x.data(), a.x.size() * sizeof(double)) == 0);
}

// `contactbench run square_drop`: output files and their format (bad parameters: suite
// scenario).
BOOST_AUTO_TEST_CASE(scenario_output) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("contactbench_square_drop_" + std::to_string(::getpid()));
  harness::ScenarioOptions o;
  o.out_dir = dir.string();
  o.params = {{"steps", "40"}};
  BOOST_TEST(harness::run_square_drop(o) == 0);  // both runs, agreeing: exit status 0
  std::ifstream in(dir / "square_drop.json");
  const auto j = nlohmann::json::parse(in);
  BOOST_TEST(j.at("schema") == "contactbench.run/1");
  BOOST_TEST(j.at("scenario") == "square_drop");
  BOOST_TEST(j.at("context").contains("commit"));
  for (const char* v : {"fast", "reference"}) {
    const auto& run = j.at("runs").at(v);
    BOOST_TEST(run.at("iterations").size() == 41u);
    BOOST_TEST(run.at("x").size() == 41u);
    BOOST_TEST(run.at("x")[0].size() == 50u);
    BOOST_TEST(run.at("energy").at("barrier").size() == 41u);
    // Free fall under implicit Euler: y_k = y_0 - h² g k(k+1)/2, so the bottom row is
    // 0.5 - 0.000981·496 = 13.4 mm above the ground at k = 31 and would pass it at k = 32.
    BOOST_TEST(run.at("key_frames").at("first_within_dhat") == 32);
  }
  BOOST_TEST(j.at("comparison").at("within_bound") == true);
  BOOST_TEST(j.at("mesh").at("springs").size() == 72u);
  std::ifstream csv(dir / "square_drop.csv");
  std::string line;
  int lines = 0;
  while (std::getline(csv, line)) ++lines;
  BOOST_TEST(lines == 1 + 2 * 41);
  std::filesystem::remove_all(dir);
}

// What makes run_square_drop return 1: the comparison of the two runs fails on a changed
// iteration count or on a position beyond the bound.
BOOST_AUTO_TEST_CASE(disagreement_is_detected) {
  Params p;
  p.steps = 40;
  const auto f = simulate_fast(p);
  BOOST_TEST(compare(f, f).within_bound);
  auto moved = f;
  moved.x[moved.x.size() - 1] += 10 * position_bound;
  const auto c = compare(f, moved);
  BOOST_TEST(!c.within_bound);
  BOOST_TEST(c.max_position_difference_state == 40);
  auto counted = f;
  counted.iterations[33] += 1;
  const auto d = compare(f, counted);
  BOOST_TEST(!d.within_bound);
  BOOST_TEST(d.iteration_mismatches == std::vector<int>{33}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
