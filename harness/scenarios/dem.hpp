// A small DEM stepper: one sphere against a static triangle mesh. Linear normal spring with
// optional viscous damping, tangential spring (with the same damping ratio) and Coulomb
// friction (incremental shear displacement, projected onto the current tangent plane, the
// total tangential force capped at mu |Fn|), rotation,
// gravity, explicit (symplectic Euler) integration. Templated on the kernel set, so one
// scenario runs with the fast kernels and with the reference kernels and the trajectories
// can be compared (DESIGN.md, "Canonical cases and scenarios").
//
// Contact modes:
//   raw      every facet within reach acts with its own closest-point normal
//            n = (centre - closest point) / |...| and overlap radius - |...|;
//   smoothed every facet contact goes through edge_smoothing (Woo): normal n', overlap
//            unchanged.
// Seam for the PFC modes of a later issue: add an enumerator and a branch in
// Stepper::collect(), which maps the per-facet candidates to the contacts that act.
#pragma once
#include "cases/closest_feature.hpp"
#include "cases/edge_smoothing.hpp"
#include "cases/mesh.hpp"
#include "fast/closest_feature.hpp"
#include "fast/edge_smoothing.hpp"
#include "reference/closest_feature.hpp"
#include "reference/edge_smoothing.hpp"

#include <cmath>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace contactbench::harness::dem {

using cases::Vec3;

enum class ContactMode { raw, smoothed };
inline const char* to_string(ContactMode m) { return m == ContactMode::raw ? "raw" : "smoothed"; }

// Kernel sets: the same entry points from the two namespaces.
struct FastKernels {
  static constexpr const char* name = "fast";
  static cases::ClosestFeatureResult closest_feature(const cases::ClosestFeatureQuery& q) {
    return fast::closest_feature(q);
  }
  static cases::EdgeSmoothingResult edge_smoothing(const cases::EdgeSmoothingQuery& q) {
    return fast::edge_smoothing(q);
  }
};
struct ReferenceKernels {
  static constexpr const char* name = "reference";
  static cases::ClosestFeatureResult closest_feature(const cases::ClosestFeatureQuery& q) {
    return reference::closest_feature(q);
  }
  static cases::EdgeSmoothingResult edge_smoothing(const cases::EdgeSmoothingQuery& q) {
    return reference::edge_smoothing(q);
  }
};

struct Params {
  double radius = 0.05;      // m
  double density = 1000;     // kg/m^3
  double kn = 1e4;           // N/m, normal spring
  double damping_ratio = 0.3;  // viscous damping (normal and tangential), fraction of critical
  double kt_ratio = 0.5;     // kt = kt_ratio * kn
  double mu = 0.5;           // Coulomb friction coefficient
  Vec3 gravity = Vec3(0, 0, -9.81);  // m/s^2
  double dt = 1e-4;          // s
  ContactMode mode = ContactMode::smoothed;
};

struct State {
  Vec3 x = Vec3::Zero(), v = Vec3::Zero(), w = Vec3::Zero();  // position, velocity, spin
  double t = 0;
};

// One contact that acts on the sphere.
struct Contact {
  int facet;
  cases::Region region;
  cases::Zone zone;  // none in raw mode
  Vec3 normal;       // unit, towards the sphere
  double overlap;    // m, > 0
  Vec3 force;        // total force of this contact on the sphere (normal + tangential), N
};

template <class Kernels>
class Stepper {
 public:
  Stepper(std::shared_ptr<const cases::Mesh> mesh, Params p, State s)
      : mesh_(std::move(mesh)), p_(p), s_(s) {
    if (!(p_.radius > 0)) throw cases::InputError("dem: field radius: must be > 0");
    if (!(p_.dt > 0)) throw cases::InputError("dem: field dt: must be > 0");
    mass_ = p_.density * 4.0 / 3.0 * std::acos(-1.0) * std::pow(p_.radius, 3);
    inertia_ = 0.4 * mass_ * p_.radius * p_.radius;
    cn_ = 2 * p_.damping_ratio * std::sqrt(mass_ * p_.kn);
    ct_ = 2 * p_.damping_ratio * std::sqrt(mass_ * p_.kt_ratio * p_.kn);
    for (int f = 0; f < mesh_->facet_count(); ++f) {  // bounding spheres for the broad phase
      const Vec3 c = (mesh_->vertex(f, 0) + mesh_->vertex(f, 1) + mesh_->vertex(f, 2)) / 3;
      double r = 0;
      for (int k = 0; k < 3; ++k) r = std::max(r, (mesh_->vertex(f, k) - c).norm());
      bound_centre_.push_back(c);
      bound_radius_.push_back(r);
    }
  }

  double mass() const { return mass_; }
  double inertia() const { return inertia_; }
  const State& state() const { return s_; }
  const Params& params() const { return p_; }
  const std::vector<Contact>& contacts() const { return contacts_; }
  Vec3 contact_force() const {  // sum over contacts, N
    Vec3 f = Vec3::Zero();
    for (const auto& c : contacts_) f += c.force;
    return f;
  }

  // Contacts acting at the current state (no integration, no shear update): for figures.
  std::vector<Contact> probe() const {
    std::vector<Contact> out;
    for (const auto& c : collect()) out.push_back({c.facet, c.region, c.zone, c.normal, c.overlap,
                                                   normal_force(c) * c.normal});
    return out;
  }

  void step() {
    Vec3 F = mass_ * p_.gravity, T = Vec3::Zero();
    contacts_.clear();
    std::map<int, Vec3> shear_next;
    for (const auto& c : collect()) {
      // Lever arm = radius along -n (a common DEM simplification): contacts that share a
      // normal share their contact-point velocity, so a smoothed edge contact on a flat plane
      // slips exactly like the face contact it duplicates (no spurious friction).
      const Vec3 b = -p_.radius * c.normal;
      const Vec3 vc = s_.v + s_.w.cross(b);               // contact point velocity (mesh static)
      const double fn = normal_force(c);
      // Incremental shear: carry the stored displacement into the current tangent plane.
      Vec3 us = Vec3::Zero();
      if (auto it = shear_.find(c.facet); it != shear_.end()) us = it->second;
      us -= us.dot(c.normal) * c.normal;
      const Vec3 vt = vc - vc.dot(c.normal) * c.normal;
      us += vt * p_.dt;
      const double kt = p_.kt_ratio * p_.kn;
      Vec3 ft = -kt * us - ct_ * vt;
      const double cap = p_.mu * fn;
      if (ft.norm() > cap) {  // Coulomb: slide, the spring alone holds the capped force
        ft *= cap / ft.norm();
        us = -ft / kt;
      }
      shear_next[c.facet] = us;
      const Vec3 fc = fn * c.normal + ft;
      F += fc;
      T += b.cross(ft);
      contacts_.push_back({c.facet, c.region, c.zone, c.normal, c.overlap, fc});
    }
    shear_.swap(shear_next);
    s_.v += F / mass_ * p_.dt;
    s_.w += T / inertia_ * p_.dt;
    s_.x += s_.v * p_.dt;
    s_.t += p_.dt;
  }

 private:
  struct Candidate {
    int facet;
    cases::Region region;
    cases::Zone zone;
    Vec3 normal;
    double overlap;
  };

  double normal_force(const Candidate& c) const {
    const double vn = s_.v.dot(c.normal);  // spin does not move the contact point normally
    return std::max(0.0, p_.kn * c.overlap - cn_ * vn);
  }

  std::vector<Candidate> collect() const {
    std::vector<Candidate> out;
    const double r = p_.radius;
    for (int f = 0; f < mesh_->facet_count(); ++f) {
      if ((s_.x - bound_centre_[f]).norm() > bound_radius_[f] + r) continue;
      if (p_.mode == ContactMode::raw) {
        const auto cf = Kernels::closest_feature(
            {s_.x, mesh_->vertex(f, 0), mesh_->vertex(f, 1), mesh_->vertex(f, 2)});
        const double d = std::sqrt(cf.squared_distance);
        if (d >= r || d == 0) continue;
        out.push_back({f, cf.region, cases::Zone::none, (s_.x - cf.point) / d, r - d});
      } else {
        cases::EdgeSmoothingQuery q;
        q.centre = s_.x;
        q.radius = r;
        q.mesh = mesh_;
        q.facet = f;
        const auto es = Kernels::edge_smoothing(q);
        if (!(es.overlap > 0)) continue;
        out.push_back({f, es.region, es.zone, es.normal, es.overlap});
      }
    }
    return out;
  }

  std::shared_ptr<const cases::Mesh> mesh_;
  Params p_;
  State s_;
  double mass_ = 0, inertia_ = 0, cn_ = 0, ct_ = 0;
  std::vector<Vec3> bound_centre_;
  std::vector<double> bound_radius_;
  std::map<int, Vec3> shear_;
  std::vector<Contact> contacts_;
};

}  // namespace contactbench::harness::dem
