// Scenario ellipsoid_pour (issue 13; Vyatkin & Dolgovesov 2024, "Computer modeling of complex
// interactions of granular material distinct elements using functionally defined objects",
// ../shared/sources/vyatkin-ellipsoid-contact-dynamics-ru.txt): N ellipsoids released inside an
// inclined tube that empties onto a plane, simulated the paper's way — every body an
// independent system under velocity-level affine constraints from its contacts — templated on
// the kernel set, so the same pour runs with fast and with reference ellipsoid_contact kernels.
// `contactbench run ellipsoid_pour` writes <out_dir>/ellipsoid_pour.json.
//
// One step of size s (the paper's list, "Алгоритм вычислений"; our decisions where the text,
// whose equations were lost, is silent — all repeated in README text, notes/readme-i13.md):
//  1. precomputation: rotation R, shape matrix M = R diag(semi²) Rᵀ (support function
//     h(u) = sqrt(uᵀMu)), world inverse inertia; free velocities (eqs. 3-4): v += s g;
//     body-frame spin ω += −s I⁻¹(ω × Iω) (the Coriolis/gyroscopic term, explicit), then ω
//     rescaled to its energy before the update (the term does no work: without the rescale
//     the explicit step gains energy).
//  2. contact detection: uniform hash grid (cell = largest bounding diameter + largest
//     speculative margin) over the bounding spheres; per candidate pair a bounding-sphere test
//     and a separating-plane test along the centre line (support functions, exact rejection:
//     a pair rejected is farther apart than its margin); the survivors go through the pair
//     kernel K::ellipsoid_contact (state, F, point, normal). Affine distance of a pair:
//     g = (√F − 1)(h_A(n) + h_B(n)), the gap between the two bodies' support planes
//     normal to n (the scaled bodies touch there): ≤ the true distance when separated, minus
//     the overlap of the support intervals along n when overlapping. Plane and tube contacts in
//     closed form by support functions (plane: g = c·e_z − h(e_z); tube: the farthest point of
//     the body from the axis, max over unit u ⟂ axis of u·q + h(u), a 1D smooth maximum found by
//     8 samples and safeguarded Newton). A contact exists when g < margin (speculative: the
//     distance both bodies can close within the step, bounded by s(|v| + |ω| r_max) each, plus
//     `slop`); it is discarded when strictly satisfied already (relative normal velocity at the
//     point ≥ −max(g, 0)/s: the bodies cannot meet within the step).
//  3. contact resolution, per body (Jacobi: partners' velocities are those after step 1): the
//     momentum-conserving normal velocity at maximum compression v̄ = (m_A u_A + m_B u_B) /
//     (m_A + m_B) (eq. 8; m the effective masses along n at the point, u the contact-point
//     normal velocities) gives one affine constraint per contact and body,
//     d·(v + ω × r) ≥ ±v̄ − share · max(g, 0)/s (d the body's separating direction, share =
//     the partner's mass fraction, so the two bodies close the gap exactly when both meet it);
//     friction: the common tangential velocity at maximum compression (weighted by the
//     tangential effective masses), reached by a tangential impulse projected onto the regular
//     polygon spanned by `directions` uniformly sampled tangent directions (from n) of radius
//     μ_c λ_n (per-contact coefficient: pair, plane or tube wall). Each body solves its own
//     system by `sweeps` projected Gauss–Seidel sweeps over its contacts: linear in contacts.
//     Then the impulses are exchanged: each contact acts on both bodies with one equal and
//     opposite impulse (the smaller of the two bodies' normal impulses, capped by the
//     contact's own two-body impulse; friction their mean): momentum conserved per contact,
//     and no energy gained where a body's constraints conflict. `iterations` rounds, each
//     recomputing v̄ from the last round's velocities.
//  4. final computation: x += s v (+ a split-impulse push-out of penetration, not added to v,
//     so it adds no kinetic energy), q integrated with ω, ω back to the body frame.
#pragma once
#include "cases/common.hpp"
#include "cases/ellipsoid_contact.hpp"
#include "fast/ellipsoid_contact.hpp"
#include "harness/scenario.hpp"
#include "reference/ellipsoid_contact.hpp"

#include <Eigen/Geometry>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include <time.h>

namespace contactbench::harness {

int run_ellipsoid_pour(const ScenarioOptions& o);

namespace pour {

using cases::Vec3;
using Mat3 = Eigen::Matrix3d;

// Kernel sets: the ellipsoid_contact pair from the two namespaces. Plane and tube contacts
// are closed forms in double, the same in both runs.
struct FastKernels {
  static constexpr const char* name = "fast";
  static cases::EllipsoidContactResult ellipsoid_contact(const cases::EllipsoidContactQuery& q) {
    return fast::ellipsoid_contact(q);
  }
};
struct ReferenceKernels {
  static constexpr const char* name = "reference";
  static cases::EllipsoidContactResult ellipsoid_contact(const cases::EllipsoidContactQuery& q) {
    return reference::ellipsoid_contact(q);
  }
};

struct Body {
  int shape = 0;
  Vec3 semi_axes = Vec3::Ones();  // m
  Vec3 x = Vec3::Zero();          // centre, m
  Eigen::Quaterniond q = Eigen::Quaterniond::Identity();  // unit; semi-axes along R's columns
  Vec3 v = Vec3::Zero();          // m/s, world
  Vec3 w = Vec3::Zero();          // rad/s, BODY frame
  double mass = 1;                // kg
  Vec3 inertia = Vec3::Ones();    // principal moments, kg m²
  double reach() const { return semi_axes.maxCoeff(); }
};
// A solid ellipsoid of the given density (kg/m³).
Body make_body(int shape, const Vec3& semi_axes, double density, const Vec3& x,
               const Eigen::Quaterniond& q);

// The tube: the inside of a circular cylinder (radius, axis from `top` along unit `axis`,
// `length`), closed at the top by a cap (the plane through `top` normal to the axis), open at
// the bottom.
struct Tube {
  Vec3 top = Vec3::Zero(), axis = Vec3(1, 0, 0);
  double radius = 0.1, length = 1;
};

struct Scene {
  std::vector<Body> bodies;
  std::optional<double> plane;  // height of the plane z = plane, normal +z
  std::optional<Tube> tube;
  Vec3 gravity = Vec3(0, 0, -9.81);  // m/s²
  double dt = 1e-3;                  // s
  double mu_pair = 0.4, mu_plane = 0.5, mu_tube = 0.2;  // per-contact friction coefficients
  int directions = 8;  // sampled tangent directions (even: the polygon is symmetric)
  int sweeps = 4;      // projected Gauss–Seidel sweeps per body
  int iterations = 2;  // rounds of the per-body solves (targets from the last round)
  double slop = 1e-5;  // m: penetration left alone, added to every margin
  double push = 0.5;   // fraction of the penetration beyond slop removed per step (positions)
};

// The pour (defaults of `contactbench run ellipsoid_pour`).
struct PourParams {
  int n = 1000;
  std::uint64_t seed = 1;
  double dt = 1e-3;
  double tube_radius = 0.12, incline_deg = 35, outlet_height = 0.3, lead = 0.5;
  int iterations = 2;  // Scene::iterations
};
// The four shapes (semi-axes, m): generic, oblate, prolate, sphere; body k has shape k mod 4.
const std::array<Vec3, 4>& pour_shapes();
// N bodies at rest on a square lattice filling the tube from its top, random orientations
// (seeded), density 1000 kg/m³; the tube as long as the column plus `lead`, outlet centre at
// `outlet_height` above the plane z = 0.
Scene pour_scene(const PourParams& p);

// Support function h(u) = max over the body of u·(y − c) = sqrt(uᵀMu), M = R diag(semi²)Rᵀ.
inline double support(const Mat3& M, const Vec3& u) { return std::sqrt(u.dot(M * u)); }

// A contact's geometry: normal n (unit) from side a to side b, the point, the affine
// distance g (m, < 0 penetrating).
struct Geometry {
  Vec3 n, point;
  double g;
};
// Plane z = h (body above): n = +z (from the plane to the body).
Geometry plane_contact(const Vec3& c, const Mat3& M, double h);
// Tube wall: the body's farthest point from the axis (support functions); n points from the
// wall to the body (inward), g = radius − that distance. `inside` false when the point lies
// beyond the tube's ends (open: no wall there) or the centre is outside the tube.
struct TubeGeometry {
  Geometry geo;
  bool inside = false;
};
TubeGeometry tube_contact(const Tube& t, const Vec3& c, const Mat3& M);

// The query of the ellipsoid_contact pair for bodies a, b.
cases::EllipsoidContactQuery pair_query(const Body& a, const Body& b);
// A pair's affine distance from the kernel's result: (√F − 1)(h_A(n) + h_B(n)); n the
// result's normal (from a to b); coincident centres (n = 0): −(h_A + h_B) along +z.
Geometry pair_geometry(const cases::EllipsoidContactResult& r, const Vec3& ca, const Mat3& Ma,
                       const Vec3& cb, const Mat3& Mb);

// Per step: counts and the time of each phase (ns).
struct StepStats {
  int candidates = 0;    // broad-phase pairs (sharing grid neighbourhoods)
  int narrow = 0;        // pair-kernel calls (past the sphere and separating-plane tests)
  int contacts = 0;      // contacts detected (g < margin), pairs + plane + tube
  int pair_contacts = 0, plane_contacts = 0, tube_contacts = 0;
  int active = 0;        // contacts not already satisfied (constraints solved)
  int colliding = 0;     // bodies with at least one contact
  double penetration = 0;  // largest −g over the contacts, m (0 if none)
  double pair_penetration = 0, plane_penetration = 0, tube_penetration = 0;  // the same per kind
  std::array<std::int64_t, 4> phase_ns{};  // precomputation, detection, resolution, final
};

// One narrow-phase decision of the last step: bodies i < j, the pair's query and the kernel's
// result that the step used.
struct PairDecision {
  int i, j;
  cases::EllipsoidContactQuery query;
  cases::EllipsoidContactResult result;
};

inline std::int64_t clock_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch()).count();
}
// CPU time of the calling thread (ns): the cost of serial work, far less disturbed by other
// processes on a shared machine than the wall clock.
inline std::int64_t thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

template <class K>
class Simulator {
 public:
  // parallel: the narrow phase and the per-body phases on TBB's threads, phases timed by the
  // wall clock; serial: one thread, phases timed in that thread's CPU time.
  explicit Simulator(Scene s, bool parallel = false) : s_(std::move(s)), parallel_(parallel) {
    if (!(s_.dt > 0)) throw cases::InputError("ellipsoid_pour: dt must be > 0");
    if (s_.directions < 2 || s_.directions % 2)
      throw cases::InputError("ellipsoid_pour: directions must be even and >= 2");
    for (int k = 0; k <= s_.directions; ++k)  // the sampled tangent directions (and the first again)
      polygon_.emplace_back(std::cos(2 * M_PI * k / s_.directions), std::sin(2 * M_PI * k / s_.directions));
  }

  const Scene& scene() const { return s_; }
  const std::vector<Body>& bodies() const { return s_.bodies; }
  const std::vector<PairDecision>& decisions() const { return decisions_; }
  double time() const { return t_; }

  double kinetic_energy() const {
    double e = 0;
    for (const auto& b : s_.bodies)
      e += 0.5 * b.mass * b.v.squaredNorm() + 0.5 * b.w.dot(b.inertia.cwiseProduct(b.w));
    return e;
  }
  Vec3 momentum() const {
    Vec3 p = Vec3::Zero();
    for (const auto& b : s_.bodies) p += b.mass * b.v;
    return p;
  }

  StepStats step() {
    StepStats st;
    const int n = static_cast<int>(s_.bodies.size());
    // ---- 1. precomputation --------------------------------------------------------------
    const auto now = [&] { return parallel_ ? clock_ns() : thread_cpu_ns(); };
    std::int64_t t0 = now();
    pre_.resize(n);
    for_each(n, [&](int i) { precompute(i); });
    std::int64_t t1 = now();
    st.phase_ns[0] = t1 - t0;
    // ---- 2. contact detection ----------------------------------------------------------
    detect(st);
    std::int64_t t2 = now();
    st.phase_ns[1] = t2 - t1;
    // ---- 3. contact resolution ---------------------------------------------------------
    resolve(st);
    std::int64_t t3 = now();
    st.phase_ns[2] = t3 - t2;
    // ---- 4. final computation ----------------------------------------------------------
    for_each(n, [&](int i) { finish(i); });
    t_ += s_.dt;
    st.phase_ns[3] = now() - t3;
    return st;
  }

 private:
  struct Pre {
    Mat3 R, M, inv_inertia;  // world frame
    Vec3 w;                  // world spin after the free update
    double reach, speed;     // bounding radius; |v| + |ω| reach after the free update
    Vec3 push = Vec3::Zero();  // positional push-out (final phase)
    Vec3 v_free, w_free;       // velocities after phase 1 (world), each round starts there
  };
  // A contact: side a (−1: static) and b (a body), normal from a to b.
  struct Contact {
    int a, b;
    Geometry geo;
    double mu;
    char kind;  // 'e' ellipsoid pair, 'p' plane, 't' tube wall or cap
    // filled before resolution, from the velocities after phase 1:
    double vbar = 0;               // normal velocity at maximum compression along n
    Vec3 ubar = Vec3::Zero();      // common tangential velocity (in the tangent plane)
    double share_a = 0, share_b = 1;  // fraction of the gap each side closes
    bool active = false;
    double lambda_pair = 0;  // the normal impulse of this contact alone (free velocities)
    int row_a = -1, row_b = -1;  // its entries in the per-body lists (row_a: −1 when static)
  };

  template <class F>
  void for_each(int n, F f) {
    if (parallel_ && n > 64)
      tbb::parallel_for(0, n, [&](int i) { f(i); });
    else
      for (int i = 0; i < n; ++i) f(i);
  }

  void precompute(int i) {
    Body& b = s_.bodies[i];
    Pre& p = pre_[i];
    p.R = b.q.toRotationMatrix();
    p.M = p.R * b.semi_axes.cwiseAbs2().asDiagonal() * p.R.transpose();
    p.inv_inertia = p.R * b.inertia.cwiseInverse().asDiagonal() * p.R.transpose();
    b.v += s_.dt * s_.gravity;
    const double e0 = b.w.dot(b.inertia.cwiseProduct(b.w));
    Vec3 w = b.w - s_.dt * b.w.cross(b.inertia.cwiseProduct(b.w)).cwiseQuotient(b.inertia);
    const double e1 = w.dot(b.inertia.cwiseProduct(w));
    if (e1 > 0) w *= std::sqrt(e0 / e1);
    b.w = w;
    p.w = p.R * w;
    p.reach = b.reach();
    p.speed = b.v.norm() + p.w.norm() * p.reach;
    p.push = Vec3::Zero();
  }

  double margin(int a, int b) const {
    const double sa = a < 0 ? 0 : pre_[a].speed, sb = pre_[b].speed;
    return s_.dt * (sa + sb) + s_.slop;
  }

  Vec3 point_velocity(int i, const Vec3& p) const {
    if (i < 0) return Vec3::Zero();
    return s_.bodies[i].v + pre_[i].w.cross(p - s_.bodies[i].x);
  }
  // K = (1/m) I + [r]ᵀ I⁻¹ [r]: velocity change at the point per unit impulse there.
  Mat3 point_compliance(int i, const Vec3& p) const {
    if (i < 0) return Mat3::Zero();
    const Vec3 r = p - s_.bodies[i].x;
    Mat3 rx;
    rx << 0, -r.z(), r.y(), r.z(), 0, -r.x(), -r.y(), r.x(), 0;
    return Mat3::Identity() / s_.bodies[i].mass - rx * pre_[i].inv_inertia * rx;
  }

  // Broad phase (hash grid), narrow phase (pair kernel), plane and tube contacts.
  void detect(StepStats& st) {
    const int n = static_cast<int>(s_.bodies.size());
    double reach = 0, speed = 0;
    for (const auto& p : pre_) reach = std::max(reach, p.reach), speed = std::max(speed, p.speed);
    const double cell = 2 * reach + 2 * s_.dt * speed + s_.slop;
    // Counting sort of the bodies by hashed cell.
    std::size_t size = 1;
    while (size < 2 * static_cast<std::size_t>(n) + 1) size <<= 1;
    cell_of_.resize(n);
    keys_.resize(n);
    auto coord = [&](double x) { return static_cast<std::int64_t>(std::floor(x / cell)); };
    auto hash = [&](std::int64_t x, std::int64_t y, std::int64_t z) {
      const std::uint64_t h = static_cast<std::uint64_t>(x) * 73856093u ^
                              static_cast<std::uint64_t>(y) * 19349663u ^
                              static_cast<std::uint64_t>(z) * 83492791u;
      return static_cast<std::size_t>(h & (size - 1));
    };
    start_.assign(size + 1, 0);
    for (int i = 0; i < n; ++i) {
      const Vec3& x = s_.bodies[i].x;
      cell_of_[i] = {coord(x.x()), coord(x.y()), coord(x.z())};
      keys_[i] = hash(cell_of_[i][0], cell_of_[i][1], cell_of_[i][2]);
      ++start_[keys_[i] + 1];
    }
    for (std::size_t k = 0; k < size; ++k) start_[k + 1] += start_[k];
    order_.resize(n);
    {
      std::vector<int> fill(start_.begin(), start_.end() - 1);
      for (int i = 0; i < n; ++i) order_[fill[keys_[i]]++] = i;
    }
    // Candidate pairs: each body against the 27 neighbouring cells, j > i, no duplicates
    // (two neighbouring cells may share a hash slot: visited slots are skipped).
    candidates_.clear();
    std::array<std::size_t, 27> seen{};
    for (int i = 0; i < n; ++i) {
      int nseen = 0;
      for (int dx = -1; dx <= 1; ++dx)
        for (int dy = -1; dy <= 1; ++dy)
          for (int dz = -1; dz <= 1; ++dz) {
            const std::size_t k =
                hash(cell_of_[i][0] + dx, cell_of_[i][1] + dy, cell_of_[i][2] + dz);
            if (std::find(seen.begin(), seen.begin() + nseen, k) != seen.begin() + nseen) continue;
            seen[nseen++] = k;
            for (std::size_t m = start_[k]; m < start_[k + 1]; ++m) {
              const int j = order_[m];
              if (j <= i) continue;
              ++st.candidates;
              const Vec3 d = s_.bodies[j].x - s_.bodies[i].x;
              const double mg = margin(i, j), dist = d.norm();
              if (dist >= pre_[i].reach + pre_[j].reach + mg) continue;  // bounding spheres
              if (dist > 0) {  // separating plane normal to the centre line
                const Vec3 u = d / dist;
                if (dist - support(pre_[i].M, u) - support(pre_[j].M, u) >= mg) continue;
              }
              candidates_.push_back({i, j});
            }
          }
    }
    // Narrow phase: the pair kernel on every survivor (in parallel, one slot each).
    const int nc = static_cast<int>(candidates_.size());
    decisions_.resize(nc);
    pair_geo_.resize(nc);
    for_each(nc, [&](int k) {
      const auto [i, j] = candidates_[k];
      PairDecision& d = decisions_[k];
      d.i = i, d.j = j;
      d.query = pair_query(s_.bodies[i], s_.bodies[j]);
      d.result = K::ellipsoid_contact(d.query);
      pair_geo_[k] = pair_geometry(d.result, s_.bodies[i].x, pre_[i].M, s_.bodies[j].x, pre_[j].M);
    });
    st.narrow = nc;
    contacts_.clear();
    for (int k = 0; k < nc; ++k) {
      const auto [i, j] = candidates_[k];
      if (pair_geo_[k].g < margin(i, j)) {
        contacts_.push_back({i, j, pair_geo_[k], s_.mu_pair, 'e'});
        ++st.pair_contacts;
      }
    }
    for (int i = 0; i < n; ++i) {
      const Body& b = s_.bodies[i];
      const double mg = margin(-1, i);
      if (s_.plane && b.x.z() - pre_[i].reach < *s_.plane + mg) {
        const Geometry g = plane_contact(b.x, pre_[i].M, *s_.plane);
        if (g.g < mg) contacts_.push_back({-1, i, g, s_.mu_plane, 'p'}), ++st.plane_contacts;
      }
      if (s_.tube) {
        const Tube& t = *s_.tube;
        const Vec3 rel = b.x - t.top;
        const double xi = rel.dot(t.axis);
        const double radial = (rel - xi * t.axis).norm();
        if (xi > -pre_[i].reach && xi < t.length + pre_[i].reach && radial < t.radius &&
            radial + pre_[i].reach > t.radius - mg) {
          const TubeGeometry tg = tube_contact(t, b.x, pre_[i].M);
          if (tg.inside && tg.geo.g < mg) contacts_.push_back({-1, i, tg.geo, s_.mu_tube, 't'}), ++st.tube_contacts;
        }
        // the cap closing the top: a plane through `top` with normal `axis`
        if (radial < t.radius && xi < 0.5 * t.length && xi - pre_[i].reach < mg) {
          const double h = support(pre_[i].M, t.axis);
          const double g = xi - h;
          if (g < mg)
            contacts_.push_back({-1, i, {t.axis, b.x - pre_[i].M * t.axis / h, g}, s_.mu_tube, 't'}),
                ++st.tube_contacts;
        }
      }
    }
    st.contacts = static_cast<int>(contacts_.size());
    // Discard the constraints already satisfied at the velocities after phase 1 (the bodies
    // cannot meet within the step); counts; per-body contact lists.
    touched_.assign(n, 0);
    for (auto& c : contacts_) {
      const double rel = c.geo.n.dot(point_velocity(c.b, c.geo.point) - point_velocity(c.a, c.geo.point));
      c.active = rel < -std::max(c.geo.g, 0.0) / s_.dt;
      st.active += c.active;
      st.penetration = std::max(st.penetration, -c.geo.g);
      double& kind = c.kind == 'e' ? st.pair_penetration : c.kind == 'p' ? st.plane_penetration : st.tube_penetration;
      kind = std::max(kind, -c.geo.g);
      if (c.a >= 0) touched_[c.a] = 1;
      touched_[c.b] = 1;
    }
    for (char t : touched_) st.colliding += t;
    // CSR lists of contact indices per body.
    list_start_.assign(n + 1, 0);
    for (const auto& c : contacts_) {
      if (c.a >= 0) ++list_start_[c.a + 1];
      ++list_start_[c.b + 1];
    }
    for (int i = 0; i < n; ++i) list_start_[i + 1] += list_start_[i];
    list_.resize(list_start_[n]);
    std::vector<int> fill(list_start_.begin(), list_start_.end() - 1);
    for (int k = 0; k < static_cast<int>(contacts_.size()); ++k) {
      if (contacts_[k].a >= 0) contacts_[k].row_a = fill[contacts_[k].a], list_[fill[contacts_[k].a]++] = k;
      contacts_[k].row_b = fill[contacts_[k].b], list_[fill[contacts_[k].b]++] = k;
    }
  }

  static Eigen::Matrix<double, 3, 2> tangent_basis(const Vec3& n) {
    const Vec3 other = std::abs(n.x()) < 0.6 ? Vec3(1, 0, 0) : Vec3(0, 1, 0);
    const Vec3 t1 = n.cross(other).normalized(), t2 = n.cross(t1);
    Eigen::Matrix<double, 3, 2> T;
    T.col(0) = t1;
    T.col(1) = t2;
    return T;
  }

  // The nearest point to f in the regular polygon with `directions` vertices at angles
  // 2πk/directions (in the basis of tangent_basis) and circumradius rho.
  Eigen::Vector2d project_polygon(const Eigen::Vector2d& f, double rho) const {
    if (rho <= 0) return Eigen::Vector2d::Zero();
    const double step = 2 * M_PI / s_.directions;
    double ang = std::atan2(f.y(), f.x());
    if (ang < 0) ang += 2 * M_PI;
    const int k = std::min(static_cast<int>(ang / step), s_.directions - 1);
    const Eigen::Vector2d v0 = rho * polygon_[k], v1 = rho * polygon_[k + 1];
    const Eigen::Vector2d e = v1 - v0, outward(e.y(), -e.x());  // counter-clockwise polygon
    if ((f - v0).dot(outward) <= 0) return f;  // inside
    const double t = std::clamp((f - v0).dot(e) / e.squaredNorm(), 0.0, 1.0);
    return v0 + t * e;
  }

  // Targets at maximum compression of contact c from the bodies' current velocities: the
  // normal velocity v̄ (eq. 8, effective masses along n), each side's share of the gap, and the
  // common tangential velocity (weighted by the tangential compliances).
  void targets(Contact& c, bool first) const {
    const Vec3& n = c.geo.n;
    const Vec3 ua = point_velocity(c.a, c.geo.point), ub = point_velocity(c.b, c.geo.point);
    const Mat3 Ka = point_compliance(c.a, c.geo.point), Kb = point_compliance(c.b, c.geo.point);
    const double wa = n.dot(Ka * n), wb = n.dot(Kb * n);  // inverse effective masses
    c.vbar = (wb * n.dot(ua) + wa * n.dot(ub)) / (wa + wb);
    if (first)  // the two-body impulse that closes the gap exactly: n·(u_b − u_a) → −max(g, 0)/s
      c.lambda_pair = std::max(0.0, -(n.dot(ub - ua) + std::max(c.geo.g, 0.0) / s_.dt)) / (wa + wb);
    c.share_a = wa / (wa + wb);
    c.share_b = wb / (wa + wb);
    // tangential: (Ka⁻¹ + Kb⁻¹)⁻¹ (Ka⁻¹ ua + Kb⁻¹ ub) in the tangent plane
    const Eigen::Matrix<double, 3, 2> T = tangent_basis(n);
    const Eigen::Vector2d ta = T.transpose() * ua, tb = T.transpose() * ub;
    Eigen::Vector2d ubar = ta;  // static side a: its velocity, zero
    if (c.a >= 0) {
      const Eigen::Matrix2d ia = (T.transpose() * Ka * T).inverse(), ib = (T.transpose() * Kb * T).inverse();
      ubar = (ia + ib).inverse() * (ia * ta + ib * tb);
    }
    c.ubar = T * ubar;
  }

  // Each body its own system (PGS sweeps over its contacts, partners' velocities fixed), all
  // bodies at once; then the impulses are exchanged (exchange()); `iterations` rounds, each recomputing the targets from the velocities the
  // last round gave and solving every body again from its free velocity (round 1 is the
  // paper's single pass; later rounds let a body learn that its partner is held by others).
  void resolve(StepStats&) {
    const int n = static_cast<int>(s_.bodies.size());
    const int nc = static_cast<int>(contacts_.size());
    for (int i = 0; i < n; ++i) pre_[i].v_free = s_.bodies[i].v, pre_[i].w_free = pre_[i].w;
    rows_.resize(list_.size());
    for_each(n, [&](int i) { build_rows(i); });
    lambda_.assign(list_.size(), 0.0);
    friction_.assign(list_.size(), Vec3::Zero());
    for (int round = 0; round < s_.iterations; ++round) {
      for_each(nc, [&](int k) { targets(contacts_[k], round == 0); });
      for_each(n, [&](int i) { solve_body(i, round == s_.iterations - 1); });
      for_each(n, [&](int i) { exchange(i); });
    }
  }

  // One side of a contact as seen by its body (aligned with list_): fixed within the step.
  struct Row {
    int contact;
    double sign;         // +1: the body is side b, −1: side a
    Vec3 d, r;           // separating direction of this body (sign·n), lever arm
    double meff, share;  // effective mass along d; the body's share of the gap
    Eigen::Matrix<double, 3, 2> T;
    Eigen::Matrix2d Kt_inv;  // tangential effective mass
  };

  void build_rows(int i) {
    const Body& b = s_.bodies[i];
    for (int m = list_start_[i]; m < list_start_[i + 1]; ++m) {
      const Contact& c = contacts_[list_[m]];
      Row& r = rows_[m];
      r.contact = list_[m];
      r.sign = c.b == i ? 1 : -1;
      r.d = r.sign * c.geo.n;
      r.r = c.geo.point - b.x;
      const Mat3 C = point_compliance(i, c.geo.point);
      r.meff = 1 / r.d.dot(C * r.d);
      r.T = tangent_basis(c.geo.n);
      r.Kt_inv = (r.T.transpose() * C * r.T).inverse();
    }
  }

  void solve_body(int i, bool last) {
    const int begin = list_start_[i], end = list_start_[i + 1];
    if (begin == end) return;
    Body& b = s_.bodies[i];
    Pre& p = pre_[i];
    struct Acc {
      double target, lambda = 0, mu;
      Eigen::Vector2d ubar, friction = Eigen::Vector2d::Zero();
      bool active;
    };
    thread_local std::vector<Acc> acc;
    acc.clear();
    for (int m = begin; m < end; ++m) {
      const Row& r = rows_[m];
      const Contact& c = contacts_[r.contact];
      const double share = r.sign > 0 ? c.share_b : c.share_a;
      Acc a;
      a.target = r.sign * c.vbar - share * std::max(c.geo.g, 0.0) / s_.dt;
      a.ubar = r.T.transpose() * c.ubar;
      a.mu = c.mu;
      a.active = c.active;
      if (last && c.geo.g < -s_.slop) p.push += r.d * (share * s_.push * (-c.geo.g - s_.slop));
      acc.push_back(a);
    }
    Vec3 v = p.v_free, w = p.w_free;
    auto apply = [&](const Row& r, const Vec3& impulse) {
      v += impulse / b.mass;
      w += p.inv_inertia * r.r.cross(impulse);
    };
    for (int sweep = 0; sweep < s_.sweeps; ++sweep) {
      for (int m = begin; m < end; ++m) {
        Acc& a = acc[m - begin];
        if (!a.active) continue;
        const Row& r = rows_[m];
        const double un = r.d.dot(v + w.cross(r.r));
        const double lambda = std::max(0.0, a.lambda + r.meff * (a.target - un));
        apply(r, (lambda - a.lambda) * r.d);
        a.lambda = lambda;
        // friction at this contact: towards the common tangential velocity, inside the
        // sampled polygon of radius mu * lambda
        const Eigen::Vector2d ut = r.T.transpose() * (v + w.cross(r.r));
        const Eigen::Vector2d f = project_polygon(a.friction + r.Kt_inv * (a.ubar - ut), a.mu * a.lambda);
        apply(r, r.T * (f - a.friction));
        a.friction = f;
      }
    }
    for (int m = begin; m < end; ++m) {
      lambda_[m] = acc[m - begin].lambda;
      friction_[m] = rows_[m].T * acc[m - begin].friction;
    }
  }

  // The impulse of contact c on its side b, the same (negated) on side a: the normal impulse
  // both bodies' systems agree on (the smaller of the two; a static side: the body's own),
  // at most the contact's own two-body impulse (a body whose constraints conflict keeps
  // accumulating impulse over the sweeps),
  // the friction impulse their mean, inside the sampled polygon of that normal impulse.
  // Equal and opposite impulses conserve momentum at every contact, and a body is never
  // pushed harder than its partner's own system asked for (the per-body solves alone can
  // overshoot where a body's constraints conflict, e.g. squeezed between two others, and
  // gain energy).
  Vec3 exchanged_impulse(const Contact& c) const {
    const double lambda = std::min(c.lambda_pair, c.a < 0 ? lambda_[c.row_b] : std::min(lambda_[c.row_a], lambda_[c.row_b]));
    const Vec3 f = c.a < 0 ? friction_[c.row_b] : 0.5 * (friction_[c.row_b] - friction_[c.row_a]);
    const Eigen::Matrix<double, 3, 2> T = rows_[c.row_b].T;
    return lambda * c.geo.n + T * project_polygon(T.transpose() * f, c.mu * lambda);
  }

  void exchange(int i) {
    Body& b = s_.bodies[i];
    Pre& p = pre_[i];
    Vec3 v = p.v_free, w = p.w_free;
    for (int m = list_start_[i]; m < list_start_[i + 1]; ++m) {
      const Row& r = rows_[m];
      const Vec3 impulse = r.sign * exchanged_impulse(contacts_[r.contact]);
      v += impulse / b.mass;
      w += p.inv_inertia * r.r.cross(impulse);
    }
    b.v = v;
    p.w = w;
  }

  void finish(int i) {
    Body& b = s_.bodies[i];
    const Pre& p = pre_[i];
    b.x += s_.dt * b.v + p.push;
    b.w = p.R.transpose() * p.w;  // back to the body frame (R of this step)
    const Eigen::Quaterniond dq(0, 0.5 * s_.dt * p.w.x(), 0.5 * s_.dt * p.w.y(), 0.5 * s_.dt * p.w.z());
    Eigen::Quaterniond q = b.q;
    q.coeffs() += (dq * b.q).coeffs();
    b.q = q.normalized();
  }

  Scene s_;
  bool parallel_;
  std::vector<Eigen::Vector2d> polygon_;
  double t_ = 0;
  std::vector<Pre> pre_;
  std::vector<std::array<std::int64_t, 3>> cell_of_;
  std::vector<std::size_t> keys_, start_;
  std::vector<int> order_;
  std::vector<std::pair<int, int>> candidates_;
  std::vector<PairDecision> decisions_;
  std::vector<Geometry> pair_geo_;
  std::vector<Contact> contacts_;
  std::vector<char> touched_;
  std::vector<int> list_start_, list_;
  std::vector<Row> rows_;
  std::vector<double> lambda_;    // per row: the normal impulse its body's system asked for
  std::vector<Vec3> friction_;    // per row: the friction impulse on its body (world)
};

}  // namespace pour
}  // namespace contactbench::harness
