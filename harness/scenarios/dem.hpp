// A small DEM stepper: one sphere against a static triangle mesh. Linear normal spring with
// optional viscous damping, tangential spring (with the same damping ratio) and Coulomb
// friction (incremental shear displacement, projected onto the current tangent plane, the
// total tangential force capped at mu |Fn|), rotation,
// gravity, explicit (symplectic Euler) integration. Templated on the kernel set, so one
// scenario runs with the fast kernels and with the reference kernels and the trajectories
// can be compared (DESIGN.md, "Canonical cases and scenarios").
//
// Contact modes (Stepper::collect() maps the per-facet candidates to the contacts that act):
//   raw         every facet within reach acts with its own closest-point normal
//               n = (centre - closest point) / |...| and overlap radius - |...|;
//   smoothed    every facet contact goes through edge_smoothing (Woo): normal n', overlap
//               unchanged;
//   pfc_reduced pfc_resolution in reduced mode (associative logic): each active contact acts
//               with normal -n (n from the centre to its wall point) and overlap U;
//   pfc_full    full mode (plus the segment test) with contact-state continuity;
//   pfc_pc      full mode, and each proximity contact acts as one contact (its normal, its
//               mean overlap) instead of its members.
// Contact state (the shear displacement) lives with an acting contact and passes to the next
// step's acting contact that inherits it:
//   raw, smoothed, pfc_reduced  the contact on the same facet (a contact persists while it
//               acts; PFC propagates nothing between facets in reduced mode);
//   pfc_full    its own if its facet acted at the last step; else the previous contact that
//               pfc_resolution names (linked, within the cutoff angle and without a hole: the
//               text's rule);
//   pfc_pc      the same, per member: a proximity contact takes the state of the previous
//               acting contact (single or proximity) that its first inheriting member
//               (lowest facet) inherits from, so the group accumulates force as ONE contact
//               and hands it on when it dissolves into a single contact.
// A contact that inherits nothing starts with zero shear. Each step's active contacts (facet,
// wall point) are the next resolution's `previous`.
#pragma once
#include "cases/closest_feature.hpp"
#include "cases/edge_smoothing.hpp"
#include "cases/mesh.hpp"
#include "cases/pfc_resolution.hpp"
#include "fast/closest_feature.hpp"
#include "fast/edge_smoothing.hpp"
#include "fast/pfc_resolution.hpp"
#include "reference/closest_feature.hpp"
#include "reference/edge_smoothing.hpp"
#include "reference/pfc_resolution.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace contactbench::harness::dem {

using cases::Vec3;

enum class ContactMode { raw, smoothed, pfc_reduced, pfc_full, pfc_pc };
inline constexpr std::array<ContactMode, 5> all_modes = {
    ContactMode::raw, ContactMode::smoothed, ContactMode::pfc_reduced, ContactMode::pfc_full,
    ContactMode::pfc_pc};
inline const char* to_string(ContactMode m) {
  switch (m) {
    case ContactMode::raw: return "raw";
    case ContactMode::smoothed: return "smoothed";
    case ContactMode::pfc_reduced: return "pfc_reduced";
    case ContactMode::pfc_full: return "pfc_full";
    case ContactMode::pfc_pc: return "pfc_pc";
  }
  return "?";
}
inline bool is_pfc(ContactMode m) {
  return m == ContactMode::pfc_reduced || m == ContactMode::pfc_full || m == ContactMode::pfc_pc;
}

// Kernel sets: the same entry points from the two namespaces.
struct FastKernels {
  static constexpr const char* name = "fast";
  static cases::ClosestFeatureResult closest_feature(const cases::ClosestFeatureQuery& q) {
    return fast::closest_feature(q);
  }
  static cases::EdgeSmoothingResult edge_smoothing(const cases::EdgeSmoothingQuery& q) {
    return fast::edge_smoothing(q);
  }
  static cases::PfcResult pfc_resolution(const cases::PfcQuery& q) { return fast::pfc_resolution(q); }
};
struct ReferenceKernels {
  static constexpr const char* name = "reference";
  static cases::ClosestFeatureResult closest_feature(const cases::ClosestFeatureQuery& q) {
    return reference::closest_feature(q);
  }
  static cases::EdgeSmoothingResult edge_smoothing(const cases::EdgeSmoothingQuery& q) {
    return reference::edge_smoothing(q);
  }
  static cases::PfcResult pfc_resolution(const cases::PfcQuery& q) {
    return reference::pfc_resolution(q);
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
  double cos_cutoff = 0.5;   // cos of PFC's cutoff angle Theta (pfc_full, pfc_pc): 60 degrees
};

struct State {
  Vec3 x = Vec3::Zero(), v = Vec3::Zero(), w = Vec3::Zero();  // position, velocity, spin
  double t = 0;
};

// One contact that acts on the sphere.
struct Contact {
  int facet;               // the (first) facet
  cases::Region region;    // of the wall point on that facet (raw, smoothed, pfc)
  cases::Zone zone;        // none except in smoothed mode
  Vec3 normal;             // unit, towards the sphere
  double overlap;          // m, > 0 (a proximity contact: its members' mean)
  Vec3 force;              // total force of this contact on the sphere (normal + tangential), N
  std::vector<int> members = {};  // facets of a proximity contact (ascending); else {facet}
  int inherits = -1;       // index of the previous step's acting contact whose state it took
  cases::PfcInherit why = cases::PfcInherit::inactive;  // pfc modes: pfc_resolution's reason
};

template <class Kernels>
class Stepper {
 public:
  Stepper(std::shared_ptr<const cases::Mesh> mesh, Params p, State s)
      : mesh_(std::move(mesh)), p_(p), s_(s) {
    if (!(p_.radius > 0)) throw cases::InputError("dem: field radius: must be > 0");
    if (!(p_.dt > 0)) throw cases::InputError("dem: field dt: must be > 0");
    if (!(p_.cos_cutoff >= -1 && p_.cos_cutoff <= 1))
      throw cases::InputError("dem: field cos_cutoff: must be in [-1, 1]");
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
  // pfc modes: the last step's resolution query (wall: the broad phase's facets, renumbered
  // in ascending order; previous: the step before's active contacts) and its result, with
  // facet indices of the query's wall; `wall_facets` maps them back to the mesh's.
  const std::optional<cases::PfcQuery>& resolution_query() const { return last_query_; }
  const cases::PfcResult& resolution() const { return last_result_; }
  const std::vector<int>& wall_facets() const { return last_facets_; }

  // Contacts acting at the current state (no integration, no shear update): for figures.
  std::vector<Contact> probe() const {
    std::vector<Contact> out;
    Collected col = collect();
    for (auto& c : col.acting) {
      c.force = normal_force(c) * c.normal;
      out.push_back(std::move(c));
    }
    return out;
  }

  // One explicit step under gravity and the contact forces.
  void step() {
    const Vec3 F = mass_ * p_.gravity + apply_contacts(), T = torque_;
    s_.v += F / mass_ * p_.dt;
    s_.w += T / inertia_ * p_.dt;
    s_.x += s_.v * p_.dt;
    s_.t += p_.dt;
  }

  // One step of prescribed motion: the sphere translates at velocity v without spin; the
  // contacts are resolved and their forces (shear state included) computed as in step(),
  // but they do not move the sphere.
  void step_prescribed(const Vec3& v) {
    s_.v = v;
    s_.w = Vec3::Zero();
    apply_contacts();
    s_.x += v * p_.dt;
    s_.t += p_.dt;
  }

 private:
  // A contact of collect(): Contact without its force, `inherits` set.
  struct Collected {
    std::vector<Contact> acting;
    std::vector<cases::PfcPrevious> active;  // pfc: the resolution's active contacts...
    std::vector<int> owner;                  // ...and the acting contact each belongs to
  };
  // An acting contact of the last step with its shear displacement.
  struct Carried {
    std::vector<int> facets;
    Vec3 shear;
  };

  double normal_force(const Contact& c) const {
    const double vn = s_.v.dot(c.normal);  // spin does not move the contact point normally
    return std::max(0.0, p_.kn * c.overlap - cn_ * vn);
  }

  // Resolves the contacts at the current state, updates the shear state, stores the acting
  // contacts; returns the sum of their forces and leaves their torque in torque_.
  Vec3 apply_contacts() {
    Vec3 F = Vec3::Zero(), T = Vec3::Zero();
    contacts_.clear();
    std::vector<Carried> carried;
    Collected col = collect();
    for (auto& c : col.acting) {
      // Lever arm = radius along -n (a common DEM simplification): contacts that share a
      // normal share their contact-point velocity, so a smoothed edge contact on a flat plane
      // slips exactly like the face contact it duplicates (no spurious friction).
      const Vec3 b = -p_.radius * c.normal;
      const Vec3 vc = s_.v + s_.w.cross(b);               // contact point velocity (mesh static)
      const double fn = normal_force(c);
      // Incremental shear: carry the stored displacement into the current tangent plane.
      Vec3 us = c.inherits >= 0 ? carried_[c.inherits].shear : Vec3::Zero();
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
      carried.push_back({c.members, us});
      c.force = fn * c.normal + ft;
      F += c.force;
      T += b.cross(ft);
      contacts_.push_back(std::move(c));
    }
    carried_.swap(carried);
    previous_ = std::move(col.active);
    previous_owner_ = std::move(col.owner);
    torque_ = T;
    return F;
  }

  // The facets whose bounding sphere the ball reaches, ascending.
  std::vector<int> near() const {
    std::vector<int> out;
    for (int f = 0; f < mesh_->facet_count(); ++f)
      if ((s_.x - bound_centre_[f]).norm() <= bound_radius_[f] + p_.radius) out.push_back(f);
    return out;
  }

  // The acting contact of the last step that holds facet f, or -1.
  int carried_on(int f) const {
    for (std::size_t k = 0; k < carried_.size(); ++k)
      if (std::find(carried_[k].facets.begin(), carried_[k].facets.end(), f) != carried_[k].facets.end())
        return static_cast<int>(k);
    return -1;
  }

  Collected collect() const {
    if (is_pfc(p_.mode)) return collect_pfc();
    Collected out;
    const double r = p_.radius;
    for (int f : near()) {
      Contact c{f, cases::Region::face, cases::Zone::none, Vec3::Zero(), 0, Vec3::Zero()};
      if (p_.mode == ContactMode::raw) {
        const auto cf = Kernels::closest_feature(
            {s_.x, mesh_->vertex(f, 0), mesh_->vertex(f, 1), mesh_->vertex(f, 2)});
        const double d = std::sqrt(cf.squared_distance);
        if (d >= r || d == 0) continue;
        c.region = cf.region;
        c.normal = (s_.x - cf.point) / d;
        c.overlap = r - d;
      } else {
        cases::EdgeSmoothingQuery q;
        q.centre = s_.x;
        q.radius = r;
        q.mesh = mesh_;
        q.facet = f;
        const auto es = Kernels::edge_smoothing(q);
        if (!(es.overlap > 0)) continue;
        c.region = es.region;
        c.zone = es.zone;
        c.normal = es.normal;
        c.overlap = es.overlap;
      }
      c.members = {f};
      c.inherits = carried_on(f);
      out.acting.push_back(std::move(c));
    }
    return out;
  }

  // pfc modes: one pfc_resolution over the facets within reach (a sub-wall: links and the
  // hole check's paths only involve facets with contacts, all of them within reach, and the
  // ascending renumbering keeps the tie order by facet index).
  Collected collect_pfc() const {
    Collected out;
    const std::vector<int> facets = near();
    if (facets != last_facets_ || !sub_wall_) {
      std::vector<Vec3> verts;
      std::vector<std::array<int, 3>> tris;
      std::map<int, int> index;
      for (int f : facets) {
        std::array<int, 3> t{};
        for (int k = 0; k < 3; ++k) {
          const int v = mesh_->facets()[f][k];
          auto [it, fresh] = index.emplace(v, static_cast<int>(verts.size()));
          if (fresh) verts.push_back(mesh_->vertices()[v]);
          t[k] = it->second;
        }
        tris.push_back(t);
      }
      sub_wall_ = facets.empty() ? nullptr
                                 : std::make_shared<const cases::Mesh>(std::move(verts), std::move(tris));
      last_facets_ = facets;
    }
    last_query_.reset();
    last_result_ = {};
    if (!sub_wall_) return out;
    cases::PfcQuery q;
    q.centre = s_.x;
    q.radius = p_.radius;
    q.wall = sub_wall_;
    q.mode = p_.mode == ContactMode::pfc_reduced ? cases::PfcMode::reduced : cases::PfcMode::full;
    q.cos_cutoff = p_.cos_cutoff;
    std::vector<int> prev_of;  // q.previous[k] -> index in previous_
    for (std::size_t k = 0; k < previous_.size(); ++k) {
      const auto it = std::lower_bound(facets.begin(), facets.end(), previous_[k].facet);
      if (it == facets.end() || *it != previous_[k].facet) continue;  // out of reach: no contact
      q.previous.push_back({static_cast<int>(it - facets.begin()), previous_[k].wall_point});
      prev_of.push_back(static_cast<int>(k));
    }
    cases::PfcResult res = Kernels::pfc_resolution(q);
    // Which previous acting contact an active resolution contact takes its state from.
    // A contact already acting at the last step keeps its own state (it is the same contact,
    // in reduced mode too, where pfc_resolution names no inheritance); only a newly active
    // one takes what pfc_resolution names.
    auto inherited = [&](const cases::PfcContact& c) {
      if (const int own = carried_on(facets[c.facet]); own >= 0) return own;
      if (p_.mode == ContactMode::pfc_reduced) return -1;
      return c.inherits < 0 ? -1 : previous_owner_[prev_of[c.inherits]];
    };
    auto make = [&](const cases::PfcContact& c) {
      Contact a{facets[c.facet], c.region, cases::Zone::none, -c.normal, c.overlap, Vec3::Zero()};
      a.members = {facets[c.facet]};
      a.inherits = inherited(c);
      a.why = c.why;
      return a;
    };
    std::vector<int> slot(sub_wall_->facet_count(), -1);
    for (std::size_t i = 0; i < res.contacts.size(); ++i) slot[res.contacts[i].facet] = static_cast<int>(i);
    std::vector<int> grouped(sub_wall_->facet_count(), -1);
    if (p_.mode == ContactMode::pfc_pc)
      for (std::size_t g = 0; g < res.proximity.size(); ++g)
        for (int f : res.proximity[g].members) grouped[f] = static_cast<int>(g);
    std::vector<int> acting_of_group(res.proximity.size(), -1);
    for (const auto& c : res.contacts) {
      if (!c.active) continue;
      const int g = grouped[c.facet];
      if (g < 0) {
        out.owner.push_back(static_cast<int>(out.acting.size()));
        out.acting.push_back(make(c));
      } else {
        if (acting_of_group[g] < 0) {  // first (lowest) member: the proximity contact
          const auto& pc = res.proximity[g];
          Contact a = make(c);
          a.normal = -pc.normal;
          a.overlap = pc.overlap;
          a.members.clear();
          for (int f : pc.members) a.members.push_back(facets[f]);
          a.inherits = -1;
          a.why = cases::PfcInherit::inactive;
          for (int f : pc.members) {  // the first member that inherits gives the state
            const auto& m = res.contacts[slot[f]];
            if (m.why != cases::PfcInherit::inherited) continue;
            a.inherits = inherited(m);
            a.why = m.why;
            break;
          }
          if (a.why == cases::PfcInherit::inactive) a.why = res.contacts[slot[pc.members[0]]].why;
          acting_of_group[g] = static_cast<int>(out.acting.size());
          out.acting.push_back(std::move(a));
        }
        out.owner.push_back(acting_of_group[g]);
      }
      out.active.push_back({facets[c.facet], c.wall_point});
    }
    last_query_ = std::move(q);
    last_result_ = std::move(res);
    return out;
  }

  std::shared_ptr<const cases::Mesh> mesh_;
  Params p_;
  State s_;
  double mass_ = 0, inertia_ = 0, cn_ = 0, ct_ = 0;
  std::vector<Vec3> bound_centre_;
  std::vector<double> bound_radius_;
  std::vector<Carried> carried_;               // acting contacts of the last step
  std::vector<cases::PfcPrevious> previous_;   // pfc: last step's active contacts (mesh facets)
  std::vector<int> previous_owner_;            // ...and their acting contact in carried_
  std::vector<Contact> contacts_;
  Vec3 torque_ = Vec3::Zero();
  // pfc: the sub-wall of the facets within reach (rebuilt when that set changes) and the
  // last resolution (mutable: collect() is const so that probe() can share it).
  mutable std::shared_ptr<const cases::Mesh> sub_wall_;
  mutable std::vector<int> last_facets_;
  mutable std::optional<cases::PfcQuery> last_query_;
  mutable cases::PfcResult last_result_;
};

}  // namespace contactbench::harness::dem
