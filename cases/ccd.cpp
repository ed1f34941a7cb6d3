#include "cases/ccd.hpp"

#include "cases/json_input.hpp"
#include "cases/strict_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <random>

namespace contactbench::cases {

const char* to_string(CcdKind k) {
  return k == CcdKind::vertex_face ? "vertex-face" : "edge-edge";
}

const char* to_string(CcdFeature f) {
  switch (f) {
    case CcdFeature::none: return "none";
    case CcdFeature::vf_face: return "vf_face";
    case CcdFeature::vf_edge: return "vf_edge";
    case CcdFeature::vf_vertex: return "vf_vertex";
    case CcdFeature::ee_interior: return "ee_interior";
    case CcdFeature::ee_edge_vertex: return "ee_edge_vertex";
    case CcdFeature::ee_vertex_vertex: return "ee_vertex_vertex";
  }
  return "?";
}

double ccd_scale(const CcdQuery& q) {
  double s = std::numeric_limits<double>::denorm_min();
  for (const auto& v : q.x) s = std::max(s, v.cwiseAbs().maxCoeff());
  return s;
}

namespace {

// Arbitrary-length unsigned integer from decimal digits, little-endian 32-bit limbs: the
// public denominators reach 2^111 and nothing here may round.
struct BigUint {
  std::vector<std::uint32_t> limb;
  void mul10_add(std::uint32_t d) {
    std::uint64_t carry = d;
    for (auto& l : limb) {
      const std::uint64_t v = static_cast<std::uint64_t>(l) * 10 + carry;
      l = static_cast<std::uint32_t>(v);
      carry = v >> 32;
    }
    if (carry) limb.push_back(static_cast<std::uint32_t>(carry));
  }
  bool zero() const {
    return std::all_of(limb.begin(), limb.end(), [](std::uint32_t l) { return l == 0; });
  }
  // Number of trailing zero bits (value must be non-zero).
  int trailing_zeros() const {
    int n = 0;
    for (auto l : limb) {
      if (l) return n + std::countr_zero(l);
      n += 32;
    }
    return n;
  }
  int bit_length() const {
    for (int i = static_cast<int>(limb.size()) - 1; i >= 0; --i)
      if (limb[i]) return 32 * i + 32 - std::countl_zero(limb[i]);
    return 0;
  }
  // Bits [from, from + 64) as an integer.
  std::uint64_t bits(int from) const {
    std::uint64_t r = 0;
    for (int b = 0; b < 64; ++b) {
      const int k = from + b;
      const int li = k / 32;
      if (li >= static_cast<int>(limb.size())) break;
      if ((limb[li] >> (k % 32)) & 1u) r |= std::uint64_t{1} << b;
    }
    return r;
  }
};

// Longest numerator or denominator read: 2^6000 has 1807 digits, far beyond any double's
// numerator over a power-of-two denominator in the public set; it bounds the quadratic
// decimal-to-binary conversion.
constexpr std::size_t max_csv_digits = 2000;

// Decimal integer with optional sign, at most max_csv_digits digits; false on anything else
// (empty, spaces, '+'-only, ...).
bool parse_decimal(const std::string& s, bool allow_sign, bool& negative, BigUint& out) {
  std::size_t i = 0;
  negative = false;
  if (allow_sign && i < s.size() && (s[i] == '-' || s[i] == '+')) {
    negative = s[i] == '-';
    ++i;
  }
  if (i == s.size() || s.size() - i > max_csv_digits) return false;
  out.limb.clear();
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    out.mul10_add(static_cast<std::uint32_t>(s[i] - '0'));
  }
  return true;
}

std::vector<std::string> split_commas(const std::string& line) {
  std::vector<std::string> out(1);
  for (char c : line) {
    if (c == ',') out.emplace_back();
    else out.back().push_back(c);
  }
  return out;
}

}  // namespace

double parse_exact_rational(const std::string& num, const std::string& den, const Where& where,
                            const std::string& field) {
  bool neg = false, dneg = false;
  BigUint n, d;
  if (!parse_decimal(num, true, neg, n))
    where.fail(field + " numerator", fmt::format("not an integer of at most {} digits: {}", max_csv_digits, quote(num)));
  if (!parse_decimal(den, false, dneg, d))
    where.fail(field + " denominator", fmt::format("not a positive integer of at most {} digits: {}", max_csv_digits, quote(den)));
  if (d.zero()) where.fail(field + " denominator", "zero denominator");
  const int dz = d.trailing_zeros();
  if (d.bit_length() != dz + 1)
    where.fail(field + " denominator",
               fmt::format("{} is not a power of two: the value is not an exact double", quote(den)));
  if (n.zero()) return neg ? -0.0 : 0.0;
  // value = odd * 2^(nz - dz); the odd part must fit a double's 53-bit significand.
  const int nz = n.trailing_zeros();
  const int odd_bits = n.bit_length() - nz;
  if (odd_bits > 53)
    where.fail(field, fmt::format("{}/{} is not an exact double ({} significant bits)", quote(num), quote(den),
                                  odd_bits));
  const double odd = static_cast<double>(n.bits(nz));  // < 2^53: exact
  const int exp = nz - dz;
  const double v = std::ldexp(odd, exp);
  // ldexp is exact unless the result overflows or falls below the subnormal grid.
  if (!std::isfinite(v) || std::ldexp(v, -exp) != odd)
    where.fail(field, fmt::format("{}/{} is outside the exact double range", quote(num), quote(den)));
  return neg ? -v : v;
}

std::vector<CcdQuery> read_ccd_csv(const std::string& path, CcdKind kind) {
  LineReader in(path);
  static constexpr const char* coord[] = {"x", "y", "z"};
  std::vector<CcdQuery> out;
  CcdQuery q;
  q.kind = kind;
  std::string line;
  std::uint64_t lineno = 0;
  int vertex = 0;
  std::uint64_t first_line = 0;
  while (in.next(line)) {
    lineno = in.line_number();
    const Where where{path, fmt::format("line {}", lineno)};
    if (line.empty()) where.fail("", "empty line inside the query list (8 lines per query)");
    const auto cols = split_commas(line);
    if (cols.size() != 7)
      where.fail("", fmt::format("{} columns, expected 7 (xnum,xden,ynum,yden,znum,zden,gt)",
                                 cols.size()));
    for (int k = 0; k < 3; ++k)
      q.x[vertex][k] = parse_exact_rational(cols[2 * k], cols[2 * k + 1], where, coord[k]);
    int gt;
    if (cols[6] == "0") gt = 0;
    else if (cols[6] == "1") gt = 1;
    else where.fail("gt", fmt::format("ground truth must be 0 or 1, got {}", quote(cols[6])));
    if (vertex == 0) {
      q.ground_truth = gt;
      first_line = lineno;
    } else if (gt != q.ground_truth) {
      where.fail("gt", fmt::format("ground truth {} differs from {} on line {} of the same query",
                                   gt, q.ground_truth, first_line));
    }
    if (++vertex == 8) {
      out.push_back(q);
      vertex = 0;
    }
  }
  if (vertex != 0)
    Where{path, fmt::format("line {}", lineno)}.fail(
        "", fmt::format("truncated query: {} of 8 lines after line {}", vertex, first_line - 1));
  return out;
}

CcdQuery Ccd::from_json(const nlohmann::json& j, const Where& where) {
  if (!j.is_object()) where.fail("", "expected a JSON object");
  reject_unknown_keys(j, {"kind", "x", "ground_truth"}, where);
  CcdQuery q;
  const auto& kj = require(j, "kind", where);
  if (!kj.is_string()) where.fail("kind", "expected \"vertex-face\" or \"edge-edge\"");
  const auto kind = kj.get<std::string>();
  if (kind == "vertex-face") q.kind = CcdKind::vertex_face;
  else if (kind == "edge-edge") q.kind = CcdKind::edge_edge;
  else where.fail("kind", fmt::format("{} is neither vertex-face nor edge-edge", quote(kind)));
  const auto& xs = require(j, "x", where);
  if (!xs.is_array() || xs.size() != 8) where.fail("x", "expected an array of 8 points [x,y,z]");
  for (int i = 0; i < 8; ++i) {
    // read_vec3 reads a keyed member: wrap the i-th point so its fields are named x[i][k].
    const std::string key = fmt::format("x[{}]", i);
    q.x[i] = read_vec3(nlohmann::json{{key, xs[i]}}, key, where);
  }
  if (j.contains("ground_truth")) {
    const auto& g = j["ground_truth"];
    if (g.is_boolean()) q.ground_truth = g.get<bool>() ? 1 : 0;
    else if (g == 0 || g == 1) q.ground_truth = g == 1;  // compared as JSON values: 2^32 is not 0
    else where.fail("ground_truth", "expected 0, 1, true or false, got " + brief(g));
  }
  return q;
}

nlohmann::json Ccd::to_json(const Query& q) {
  nlohmann::json x = nlohmann::json::array();
  // Hex floats: exact round trip through `eval`.
  for (const auto& v : q.x)
    x.push_back({fmt::format("{:a}", v[0]), fmt::format("{:a}", v[1]), fmt::format("{:a}", v[2])});
  nlohmann::json j{{"kind", to_string(q.kind)}, {"x", x}};
  if (q.ground_truth >= 0) j["ground_truth"] = q.ground_truth;
  return j;
}

nlohmann::json Ccd::to_json(const Result& r) {
  nlohmann::json j{{"hit", r.hit}, {"toi", r.toi}};
  if (!std::isnan(r.toi_up)) j["toi_up"] = r.toi_up;
  if (r.cut_short) j["cut_short"] = true;
  if (r.feature != CcdFeature::none) {
    j["feature"] = to_string(r.feature);
    j["feature_margin"] = r.feature_margin;
  }
  return j;
}

const std::vector<CcdPublicCount>& ccd_public_counts() {
  // The counts table of ../shared/data/ccd-queries/README.md (queries, true collisions).
  static const std::vector<CcdPublicCount> counts = {
      {"erleben-cube-cliff-edges/vertex-face", 250, 22},   {"erleben-cube-cliff-edges/edge-edge", 250, 38},
      {"erleben-cube-internal-edges/vertex-face", 250, 21}, {"erleben-cube-internal-edges/edge-edge", 250, 35},
      {"erleben-sliding-spike/vertex-face", 250, 4},       {"erleben-sliding-spike/edge-edge", 250, 0},
      {"erleben-sliding-wedge/vertex-face", 250, 1},       {"erleben-sliding-wedge/edge-edge", 250, 0},
      {"erleben-spike-crack/vertex-face", 250, 6},         {"erleben-spike-crack/edge-edge", 250, 0},
      {"erleben-spike-hole/vertex-face", 585, 9},          {"erleben-spike-hole/edge-edge", 1870, 0},
      {"erleben-spike-wedge/vertex-face", 250, 14},        {"erleben-spike-wedge/edge-edge", 250, 36},
      {"erleben-spikes/vertex-face", 250, 22},             {"erleben-spikes/edge-edge", 250, 16},
      {"erleben-wedge-crack/vertex-face", 250, 11},        {"erleben-wedge-crack/edge-edge", 250, 6},
      {"erleben-wedges/vertex-face", 250, 14},             {"erleben-wedges/edge-edge", 250, 20},
      {"unit-tests/vertex-face", 250, 124},                {"unit-tests/edge-edge", 74, 36},
  };
  return counts;
}

std::vector<Named<CcdQuery>> Ccd::public_queries(const std::string& given_dir) {
  const std::string shared_dir = cases::shared_dir(given_dir);
  namespace fs = std::filesystem;
  const fs::path root = fs::path(shared_dir) / "data" / "ccd-queries";
  const auto incomplete = [&](const std::string& what) {
    Where{root.string(), ""}.fail(
        "", fmt::format("public CCD query set incomplete: {} (expected the {} queries of its "
                        "README in 22 <scene>/<kind> folders; set --shared or CONTACTBENCH_SHARED)",
                        what, ccd_public_total));
  };
  if (!fs::is_directory(root))
    Where{root.string(), ""}.fail("", "public CCD query folder not found (set --shared or "
                                      "CONTACTBENCH_SHARED)");
  std::vector<fs::path> scenes;
  for (const auto& e : fs::directory_iterator(root))
    if (e.is_directory()) scenes.push_back(e.path());
  std::sort(scenes.begin(), scenes.end());
  std::vector<Named<CcdQuery>> out;
  std::map<std::string, std::pair<int, int>> found;  // source -> (queries, collisions)
  for (const auto& scene : scenes) {
    for (const CcdKind kind : {CcdKind::vertex_face, CcdKind::edge_edge}) {
      const fs::path dir = scene / to_string(kind);
      if (!fs::is_directory(dir)) continue;
      std::vector<fs::path> files;
      for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".csv") files.push_back(e.path());
      std::sort(files.begin(), files.end());
      const std::string source = scene.filename().string() + "/" + to_string(kind);
      auto& [nq, nt] = found[source];
      for (const auto& f : files) {
        const auto qs = read_ccd_csv(f.string(), kind);
        for (std::size_t i = 0; i < qs.size(); ++i) {
          out.push_back({fmt::format("{}/{}:{}", source, f.filename().string(), 8 * i + 1), qs[i],
                         source});
          ++nq;
          nt += qs[i].ground_truth == 1;
        }
      }
    }
  }
  // Completeness against the documented counts: an empty, truncated or missing file, or a
  // missing folder, must not pass silently as a smaller set.
  for (const auto& c : ccd_public_counts()) {
    const auto it = found.find(c.source);
    if (it == found.end()) incomplete(fmt::format("folder {} missing", c.source));
    if (it->second.first != c.queries || it->second.second != c.collisions)
      incomplete(fmt::format("{} holds {} queries ({} collisions), expected {} ({})", c.source,
                             it->second.first, it->second.second, c.queries, c.collisions));
  }
  if (found.size() != ccd_public_counts().size()) {
    for (const auto& [src, n] : found) {
      bool known = false;
      for (const auto& c : ccd_public_counts()) known = known || src == c.source;
      if (!known) incomplete(fmt::format("unexpected folder {} ({} queries)", src, n.first));
    }
  }
  return out;
}

namespace {

CcdQuery make(CcdKind kind, std::array<Vec3, 4> t0, std::array<Vec3, 4> t1) {
  CcdQuery q;
  q.kind = kind;
  for (int i = 0; i < 4; ++i) {
    q.x[i] = t0[i];
    q.x[i + 4] = t1[i];
  }
  return q;
}

}  // namespace

std::vector<CcdCase> Ccd::cases() {
  const auto VF = CcdKind::vertex_face;
  const auto EE = CcdKind::edge_edge;
  const Vec3 a(0, 0, 0), b(4, 0, 0), c(0, 4, 0);  // static triangle in z = 0
  std::vector<CcdCase> v;
  // p falls straight through the face: z = 1 - 2t, zero at t = 1/2.
  v.push_back({"vf_face_half", make(VF, {Vec3(1, 1, 1), a, b, c}, {Vec3(1, 1, -1), a, b, c}), true, 0.5});
  // p starts on the face and leaves: contact at t = 0.
  v.push_back({"vf_touch_t0", make(VF, {Vec3(1, 1, 0), a, b, c}, {Vec3(1, 1, 2), a, b, c}), true, 0.0});
  // p arrives on the face exactly at the end of the step.
  v.push_back({"vf_touch_t1", make(VF, {Vec3(1, 1, 2), a, b, c}, {Vec3(1, 1, 0), a, b, c}), true, 1.0});
  // p stops 2^-30 above the face: a miss by a hair.
  v.push_back({"vf_stop_short", make(VF, {Vec3(1, 1, 2), a, b, c}, {Vec3(1, 1, 0x1p-30), a, b, c}), false, 1.0});
  // p goes down through vertex a: z = 3 - 4t, zero at t = 3/4.
  v.push_back({"vf_vertex", make(VF, {Vec3(0, 0, 3), a, b, c}, {Vec3(0, 0, -1), a, b, c}), true, 0.75});
  // p crosses the plane just outside edge bc (x + y = 4.0000001...): a miss.
  v.push_back({"vf_outside_edge", make(VF, {Vec3(2, 2 + 0x1p-40, 1), a, b, c}, {Vec3(2, 2 + 0x1p-40, -1), a, b, c}), false, 1.0});
  // ... and exactly on edge bc: contact at t = 1/2.
  v.push_back({"vf_on_edge", make(VF, {Vec3(2, 2, 1), a, b, c}, {Vec3(2, 2, -1), a, b, c}), true, 0.5});
  // Coplanar sliding (the coplanarity cubic vanishes identically): p moves in z = 0 from
  // x = -4 to x = 4 at y = 1 and enters the triangle at x = 0, i.e. t = 1/2.
  v.push_back({"vf_coplanar_slide", make(VF, {Vec3(-4, 1, 0), a, b, c}, {Vec3(4, 1, 0), a, b, c}), true, 0.5});
  // Coplanar sliding that passes beside the triangle (y = -1 all the time).
  v.push_back({"vf_coplanar_miss", make(VF, {Vec3(-4, -1, 0), a, b, c}, {Vec3(4, -1, 0), a, b, c}), false, 1.0});
  // The triangle moves onto the static point: triangle z = -1 + 2t, p at z = 0 => t = 1/2.
  v.push_back({"vf_moving_face", make(VF, {Vec3(1, 1, 0), Vec3(0, 0, -1), Vec3(4, 0, -1), Vec3(0, 4, -1)},
                                      {Vec3(1, 1, 0), Vec3(0, 0, 1), Vec3(4, 0, 1), Vec3(0, 4, 1)}), true, 0.5});
  // Degenerate triangle (collinear a, b, c on the x axis) all the time: p crosses the
  // segment [0, 4] x {0} x {0} at t = 1/4 (y = 1 - 4t, z = 0).
  v.push_back({"vf_degenerate_triangle", make(VF, {Vec3(2, 1, 0), a, Vec3(2, 0, 0), b}, {Vec3(2, -3, 0), a, Vec3(2, 0, 0), b}), true, 0.25});
  // Same degenerate triangle, p passes beyond its end (x = 5): a miss.
  v.push_back({"vf_degenerate_miss", make(VF, {Vec3(5, 1, 0), a, Vec3(2, 0, 0), b}, {Vec3(5, -3, 0), a, Vec3(2, 0, 0), b}), false, 1.0});
  // The triangle collapses to a segment at t = 1/2 (c moves from y = 4 to y = -4) while p
  // sits at (1, 0, 0) on edge ab: contact from t = 0 (p on the closed edge ab).
  v.push_back({"vf_collapsing_on_edge", make(VF, {Vec3(1, 0, 0), a, b, c}, {Vec3(1, 0, 0), a, b, Vec3(0, -4, 0)}), true, 0.0});
  // p at (1, -1, 0) below edge ab in the plane; c sweeps from y = 4 to y = -4 so the
  // triangle flips through a segment at t = 1/2 and its vertex c reaches y = -4: edge ca
  // passes p when the line from a=(0,0,0) to c=(0, 4 - 8t, 0)... never at x = 1; edge bc from
  // (4,0,0) to (0, 4 - 8t, 0) passes (1, -1, 0) when 4 - 8t = -4/3, t = 2/3.
  v.push_back({"vf_flipping_triangle", make(VF, {Vec3(1, -1, 0), a, b, c}, {Vec3(1, -1, 0), a, b, Vec3(0, -4, 0)}), true, 2.0 / 3.0});

  const Vec3 e0(0, 0, 0), e1(4, 0, 0);  // static edge on the x axis
  // Edge b along y at x = 2 falls through edge a: z = 1 - 2t.
  v.push_back({"ee_cross_half", make(EE, {e0, e1, Vec3(2, -1, 1), Vec3(2, 1, 1)}, {e0, e1, Vec3(2, -1, -1), Vec3(2, 1, -1)}), true, 0.5});
  // Same motion but edge b is at x = 5, beyond e1: a miss (the lines cross, the segments do not).
  v.push_back({"ee_cross_beyond", make(EE, {e0, e1, Vec3(5, -1, 1), Vec3(5, 1, 1)}, {e0, e1, Vec3(5, -1, -1), Vec3(5, 1, -1)}), false, 1.0});
  // Endpoint contact: edge b's endpoint (4, 0, z) hits e1 when z = 1 - 4t = 0, t = 1/4.
  v.push_back({"ee_endpoints", make(EE, {e0, e1, Vec3(4, 0, 1), Vec3(4, 3, 1)}, {e0, e1, Vec3(4, 0, -3), Vec3(4, 3, -3)}), true, 0.25});
  // Parallel edges sliding in the plane z = 0: b = [1, 3] x {1 - 2t}: overlap from t = 1/2.
  v.push_back({"ee_parallel_slide", make(EE, {e0, e1, Vec3(1, 1, 0), Vec3(3, 1, 0)}, {e0, e1, Vec3(1, -1, 0), Vec3(3, -1, 0)}), true, 0.5});
  // Parallel edges, b = [5, 7] beyond the end of a: a miss.
  v.push_back({"ee_parallel_miss", make(EE, {e0, e1, Vec3(5, 1, 0), Vec3(7, 1, 0)}, {e0, e1, Vec3(5, -1, 0), Vec3(7, -1, 0)}), false, 1.0});
  // Collinear edges moving along their line: b = [6 - 4t, 8 - 4t] touches e1 = 4 at t = 1/2.
  v.push_back({"ee_collinear_approach", make(EE, {e0, e1, Vec3(6, 0, 0), Vec3(8, 0, 0)}, {e0, e1, Vec3(2, 0, 0), Vec3(4, 0, 0)}), true, 0.5});
  // Edge b degenerate (both endpoints equal) falling onto the interior of a at t = 3/4.
  v.push_back({"ee_point_edge", make(EE, {e0, e1, Vec3(1, 0, 3), Vec3(1, 0, 3)}, {e0, e1, Vec3(1, 0, -1), Vec3(1, 0, -1)}), true, 0.75});
  // Edges that touch at t = 0 (crossing at (2, 0, 0)) and separate.
  v.push_back({"ee_touch_t0", make(EE, {e0, e1, Vec3(2, -1, 0), Vec3(2, 1, 0)}, {e0, e1, Vec3(2, -1, 2), Vec3(2, 1, 2)}), true, 0.0});
  // Edges that meet exactly at t = 1.
  v.push_back({"ee_touch_t1", make(EE, {e0, e1, Vec3(2, -1, 2), Vec3(2, 1, 2)}, {e0, e1, Vec3(2, -1, 0), Vec3(2, 1, 0)}), true, 1.0});
  // Skew edges that stop 2^-40 short.
  v.push_back({"ee_stop_short", make(EE, {e0, e1, Vec3(2, -1, 2), Vec3(2, 1, 2)}, {e0, e1, Vec3(2, -1, 0x1p-40), Vec3(2, 1, 0x1p-40)}), false, 1.0});
  // Rotating edge (the coplanarity condition has an irrational root): b from
  // (2,-1,1)-(2,1,1) to (2,-1,-1)-(2,1,1)... endpoint b0 descends, b1 stays up; b crosses
  // the x axis at x = 2 when its z at y = 0, (z0 + z1)/2 = (1 - 2t + 1)/2 = 1 - t, is 0: t = 1.
  v.push_back({"ee_tilting", make(EE, {e0, e1, Vec3(2, -1, 1), Vec3(2, 1, 1)}, {e0, e1, Vec3(2, -1, -1), Vec3(2, 1, 1)}), true, 1.0});
  return v;
}

std::vector<Named<CcdQuery>> Ccd::canonical() {
  std::vector<Named<Query>> out;
  for (const auto& c : cases()) {
    Query q = c.query;
    q.ground_truth = c.hit ? 1 : 0;  // the reference is held to the hand-derived answer
    out.push_back({c.name, q});
  }
  return out;
}


// ---------------------------------------------------------------------------------------
// Generators: regimes x shapes x scales. Every query is built from a contact configuration
// C (positions at the contact time tc) and velocities v as x(0) = C - tc v, x(1) = C +
// (1 - tc) v, so the primitives touch at tc (in exact arithmetic; the random generator rounds,
// the degenerate one stays on a dyadic grid and checks that every operation was exact).
//   kind   point_triangle | edge_edge
//   shape  point_triangle: equilateral, generic, needle (one tiny angle, short opposite
//          edge), cap (one angle near 180 degrees, apex mid-edge), sliver (cap with its apex
//          near a vertex: two tiny angles and a short edge), collapsing (degenerate at tc);
//          smallest angles down to ~1e-4 degrees (random) / 2^-20 rad (degenerate).
//          edge_edge: crossing, near_parallel (angle down to the same), parallel, collapsing
//          (edge b shrinks to a point at tc).
//   config interior (contact at interior points), edge, vertex (contact on the boundary of
//          the face / at endpoints), touch_t0 (touching at t = 0, separating), touch_t1
//          (first touch exactly at t = 1), graze (tangential: the coplanarity cubic has a
//          double root at tc), coplanar (everything moves in one plane), near_miss (the
//          contact pushed away by 2^-52 .. 2^-20 of the size: around the fast bound), miss_far,
//          rotation (one primitive spins about a vertex), degenerating (a primitive is
//          degenerate at tc).
//   place  origin | far (translated by 2^10 .. 2^30 times the size)
//   scale  the size: ~1e-3, 1, ~1e3; extremes 2^-190 and 2^190 (inside the fast domain);
//          1e-300, 1e300 and subnormal coordinates (outside it: reference only).
namespace {

// Operations of the dyadic generator, exactness checked (ok turns false when one rounds).
struct Exact {
  bool ok = true;
  double add(double a, double b) {
    const double s = a + b, bb = s - a;
    if ((a - (s - bb)) + (b - bb) != 0 || !std::isfinite(s)) ok = false;
    return s;
  }
  double mul(double a, double b) {  // products of normal grid values, far from underflow
    const double p = a * b;
    if (std::fma(a, b, -p) != 0 || !std::isfinite(p)) ok = false;
    return p;
  }
  Vec3 add(const Vec3& a, const Vec3& b) { return {add(a[0], b[0]), add(a[1], b[1]), add(a[2], b[2])}; }
  Vec3 mul(double k, const Vec3& a) { return {mul(k, a[0]), mul(k, a[1]), mul(k, a[2])}; }
  Vec3 cross(const Vec3& a, const Vec3& b) {
    return {add(mul(a[1], b[2]), -mul(a[2], b[1])), add(mul(a[2], b[0]), -mul(a[0], b[2])),
            add(mul(a[0], b[1]), -mul(a[1], b[0]))};
  }
};

// Numbers: uniform in the random generator, multiples of 1/8 in the degenerate one.
struct Draw {
  Rng& rng;
  bool exact;
  Exact ex;
  double num(double lo, double hi) {
    if (!exact) return uniform(rng, lo, hi);
    return static_cast<double>(uniform_int(rng, static_cast<long>(std::ceil(lo * 8)),
                                           static_cast<long>(std::floor(hi * 8)))) / 8;
  }
  double sign() { return uniform_int(rng, 0, 1) ? 1.0 : -1.0; }
  // tan of a small angle, ~1.7e-6 (1e-4 degrees) .. 0.1 rad; degenerate: 2^-20 .. 2^-4.
  double tiny() {
    if (exact) return std::ldexp(1.0, -static_cast<int>(uniform_int(rng, 4, 20)));
    return std::tan(log_uniform(rng, 1.75e-6, 0.1));
  }
  // A length 2^-52 .. 2^-20 (near miss) or 1/8 .. 1/2 (far) of the unit size.
  double gap(bool near) {
    if (near)
      return exact ? std::ldexp(1.0, -static_cast<int>(uniform_int(rng, 20, 52)))
                   : std::exp2(-uniform(rng, 20, 52));
    return num(0.125, 0.5);
  }
  double time() { return exact ? static_cast<double>(uniform_int(rng, 1, 7)) / 8 : uniform(rng, 0.02, 0.98); }
  Vec3 vec(double r) { return {num(-r, r), num(-r, r), num(-r, r)}; }
  Vec3 in_plane(double r) { return {num(-r, r), num(-r, r), 0}; }
  // A velocity with a normal (z) component of magnitude >= 1/4: a transversal approach.
  Vec3 transversal() { return {num(-1, 1), num(-1, 1), sign() * num(0.25, 1)}; }
  // Barycentric weights: nz of them non-zero (multiples of 1/8 when exact).
  std::array<double, 3> weights(int nz) {
    std::array<double, 3> w{0, 0, 0};
    const int first = static_cast<int>(uniform_int(rng, 0, 2));
    if (nz == 1) {
      w[first] = 1;
    } else if (nz == 2) {
      const double a = num(0.125, 0.875);
      w[first] = a;
      w[(first + 1) % 3] = exact ? 1 - a : 1 - a;
    } else if (exact) {
      const long i = uniform_int(rng, 1, 6), j = uniform_int(rng, 1, 7 - i);
      w = {i / 8.0, j / 8.0, (8 - i - j) / 8.0};
    } else {
      const double a = uniform(rng, 0.02, 1), b = uniform(rng, 0.02, 1), c = uniform(rng, 0.02, 1);
      w = {a / (a + b + c), b / (a + b + c), 0};
      w[2] = 1 - w[0] - w[1];
    }
    return w;
  }
  Vec3 combo(const std::array<double, 3>& w, const Vec3& a, const Vec3& b, const Vec3& c) {
    if (!exact) return w[0] * a + w[1] * b + w[2] * c;
    return ex.add(ex.add(ex.mul(w[0], a), ex.mul(w[1], b)), ex.mul(w[2], c));
  }
  Vec3 add(const Vec3& a, const Vec3& b) { return exact ? ex.add(a, b) : Vec3(a + b); }
  Vec3 mul(double k, const Vec3& a) { return exact ? ex.mul(k, a) : Vec3(k * a); }
  Vec3 cross(const Vec3& a, const Vec3& b) { return exact ? ex.cross(a, b) : Vec3(a.cross(b)); }
};

template <class T>
const T& pick(Rng& rng, std::initializer_list<std::pair<T, int>> table) {
  int total = 0;
  for (const auto& [v, w] : table) total += w;
  long k = uniform_int(rng, 0, total - 1);
  for (const auto& e : table) {
    if (k < e.second) return e.first;
    k -= e.second;
  }
  return table.begin()->first;
}

// Contact configuration C at time tc, velocities v, labels.
struct Local {
  std::array<Vec3, 4> C, v;
  double tc = 0.5;
  std::string shape, config;
};

void point_triangle(Draw& d, Local& L) {
  auto& rng = d.rng;
  L.shape = pick<std::string>(rng, {{"equilateral", 1}, {"generic", 2}, {"needle", 2}, {"cap", 2}, {"sliver", 2}});
  L.config = pick<std::string>(rng, {{"interior", 3}, {"edge", 2}, {"vertex", 1}, {"touch_t0", 1},
                                     {"touch_t1", 1}, {"graze", 1}, {"coplanar", 1}, {"near_miss", 3},
                                     {"miss_far", 1}, {"rotation", 1}, {"degenerating", 1}});
  Vec3 a(0, 0, 0), b(1, 0, 0), c;
  if (L.shape == "equilateral") {
    c = {0.5, d.exact ? 0.875 : std::sqrt(3.0) / 2, 0};
  } else if (L.shape == "generic") {
    b = {d.num(0.625, 1), d.num(-0.25, 0.25), 0};
    c = {d.num(-0.25, 0.75), d.num(0.5, 1), 0};
  } else if (L.shape == "needle") {  // angle at a: atan(h) or theta; short edge bc
    const double h = d.tiny();
    c = d.exact ? Vec3(1, h, 0) : Vec3(uniform(rng, 0.95, 1.05) * Vec3(1, h, 0) / std::sqrt(1 + h * h));
  } else if (L.shape == "cap") {
    const double s = d.num(0.25, 0.75);
    c = {s, d.exact ? d.tiny() : d.tiny() * std::min(s, 1 - s), 0};
  } else {  // sliver: apex near a
    const double s = d.exact ? std::ldexp(1.0, -static_cast<int>(uniform_int(rng, 3, 6))) : uniform(rng, 1.0 / 64, 1.0 / 8);
    c = {s, d.exact ? std::ldexp(s, -static_cast<int>(uniform_int(rng, 4, 20))) : s * d.tiny(), 0};
  }
  L.C = {Vec3::Zero(), a, b, c};
  const Vec3 T = d.vec(1);
  L.v = {T, T, T, T};
  L.tc = d.time();
  const auto& cfg = L.config;
  Vec3 P;
  if (cfg == "edge" || cfg == "coplanar") P = d.combo(d.weights(2), a, b, c);
  else if (cfg == "vertex") P = d.combo(d.weights(1), a, b, c);
  else P = d.combo(d.weights(3), a, b, c);
  if (cfg == "touch_t0") L.tc = 0;
  if (cfg == "touch_t1") L.tc = 1;
  Vec3 w = d.transversal();
  if (cfg == "graze") {
    // Linearised rotation of everything about P plus an in-plane slide of p: the first-order
    // change of the coplanarity cubic cancels (double root at tc).
    const Vec3 om = d.vec(1);
    for (int i = 1; i < 4; ++i) L.v[i] = d.add(T, d.cross(om, d.add(L.C[i], d.mul(-1, P))));
    w = d.in_plane(1);
  } else if (cfg == "coplanar") {
    // Everything moves in z = 0; p enters the triangle through the edge P lies on, towards
    // the centroid side (any point of the open triangle: a vertex-weighted interior point).
    for (auto& v : L.v) v.z() = 0;
    const Vec3 inside = d.combo(d.exact ? std::array<double, 3>{0.25, 0.25, 0.5} : std::array<double, 3>{1 / 3.0, 1 / 3.0, 1 / 3.0}, a, b, c);
    w = d.mul(d.num(0.5, 2), d.add(inside, d.mul(-1, P)));
  } else if (cfg == "near_miss" || cfg == "miss_far") {
    const double g = d.gap(cfg == "near_miss");
    if (uniform_int(rng, 0, 1)) {
      // Stops short: the step ends g above the face, on the side p comes from.
      L.tc = 1;
      P = d.add(P, Vec3(0, 0, -(w.z() > 0 ? 1 : -1) * g));
    } else {
      // Passes beside a vertex: P pushed outward along (vertex - other vertex mid) by ~g.
      const int k = static_cast<int>(uniform_int(rng, 1, 3));
      const Vec3 out = d.add(d.mul(2, L.C[k]), d.mul(-1, d.add(L.C[1 + k % 3], L.C[1 + (k + 1) % 3])));
      const double len = std::max({std::abs(out.x()), std::abs(out.y()), 0x1p-60});
      const double k2 = std::ldexp(1.0, -std::ilogb(len));  // power of two: |out| k2 in [1, 2)
      P = d.add(L.C[k], d.mul(g * k2, out));
    }
  } else if (cfg == "rotation") {
    const Vec3 om = d.mul(d.num(1, 3), d.vec(1));
    for (int i = 1; i < 4; ++i) L.v[i] = d.add(T, d.cross(om, d.add(L.C[i], d.mul(-1, a))));
  } else if (cfg == "degenerating") {
    // The triangle is degenerate at tc: c on the line ab (or on a vertex), moving across it;
    // p reaches the segment ab there.
    const double lam = d.num(0, 1.25);
    L.C[3] = d.mul(lam, b);
    L.v[3] = d.add(T, Vec3(d.num(-1, 1), d.sign() * d.num(0.25, 1), d.num(-0.5, 0.5)));
    P = d.mul(d.num(0, 1), b);
    L.shape = "collapsing";
  }
  L.C[0] = P;
  L.v[0] = d.add(T, w);
  // Random order of the triangle's vertices (the thin features not always at a).
  std::array<int, 3> perm{1, 2, 3};
  std::shuffle(perm.begin(), perm.end(), rng);
  const auto C = L.C, v = L.v;
  for (int i = 0; i < 3; ++i) {
    L.C[1 + i] = C[perm[i]];
    L.v[1 + i] = v[perm[i]];
  }
}

void edge_edge(Draw& d, Local& L) {
  auto& rng = d.rng;
  L.shape = pick<std::string>(rng, {{"crossing", 3}, {"near_parallel", 3}, {"parallel", 1}});
  L.config = pick<std::string>(rng, {{"interior", 3}, {"edge", 2}, {"vertex", 1}, {"touch_t0", 1},
                                     {"touch_t1", 1}, {"graze", 1}, {"coplanar", 1}, {"near_miss", 3},
                                     {"miss_far", 1}, {"rotation", 1}, {"degenerating", 1}});
  const auto& cfg = L.config;
  Vec3 dir;
  if (L.shape == "crossing") {
    if (d.exact) dir = {d.num(-1, 1), d.num(0.25, 1), 0};
    else {
      const double phi = uniform(rng, 0.2, 3.0);
      dir = {std::cos(phi), std::sin(phi), 0};
    }
  } else if (L.shape == "near_parallel") {
    const double h = d.sign() * d.tiny();
    dir = d.exact ? Vec3(1, h, 0) : Vec3(Vec3(1, h, 0) / std::sqrt(1 + h * h));
  } else {
    dir = {1, 0, 0};
  }
  // Parameters of the contact point P = origin on a (sa) and on b (sb).
  auto param = [&](bool end) { return end ? static_cast<double>(uniform_int(rng, 0, 1)) : d.num(0.125, 0.875); };
  bool end_a = false, end_b = false;
  if (cfg == "edge") (uniform_int(rng, 0, 1) ? end_a : end_b) = true;
  if (cfg == "vertex") end_a = end_b = true;
  if (cfg == "coplanar") end_b = true;
  double sa = param(end_a), sb = param(end_b);
  if (cfg == "coplanar" && L.shape != "parallel") sb = 0;  // b hangs on the side dir points to
  const double la = d.num(0.5, 1), lb = d.num(0.5, 1);
  const Vec3 ea(la, 0, 0), eb = d.mul(lb, dir);
  L.C = {d.mul(-sa, ea), d.mul(1 - sa, ea), d.mul(-sb, eb), d.mul(1 - sb, eb)};
  const Vec3 T = d.vec(1);
  L.v = {T, T, T, T};
  L.tc = d.time();
  if (cfg == "touch_t0") L.tc = 0;
  if (cfg == "touch_t1") L.tc = 1;
  Vec3 w = d.transversal();
  if (cfg == "graze") {
    const Vec3 om = d.vec(1);
    for (int i = 0; i < 4; ++i) L.v[i] = d.add(T, d.cross(om, L.C[i]));  // about P = 0
    w = d.in_plane(1);
  } else if (cfg == "coplanar") {
    for (auto& v : L.v) v.z() = 0;
    w = {d.num(-1, 1), -d.num(0.25, 1), 0};  // b comes down from y > 0 (dir.y >= 0)
    if (dir.y() < 0) w.y() = -w.y();
  } else if (cfg == "near_miss" || cfg == "miss_far") {
    const double g = d.gap(cfg == "near_miss");
    if (uniform_int(rng, 0, 1)) {
      L.tc = 1;  // stops g short of a, on the side it comes from
      const Vec3 off(0, 0, -(w.z() > 0 ? 1 : -1) * g);
      L.C[2] = d.add(L.C[2], off);
      L.C[3] = d.add(L.C[3], off);
    } else {
      w.z() = 0;  // passes at height g over a
      L.C[2].z() = L.C[3].z() = g;
    }
  } else if (cfg == "rotation") {
    const Vec3 om = d.mul(d.num(1, 3), d.vec(1));
    for (int i = 0; i < 2; ++i) L.v[i] = d.add(T, d.cross(om, d.add(L.C[i], d.mul(-1, L.C[0]))));
  } else if (cfg == "degenerating") {
    if (uniform_int(rng, 0, 1)) {
      L.C[2] = L.C[3] = Vec3::Zero();  // b is a point at tc, on a
      L.v[3] = d.add(T, d.vec(1));
      L.shape = "collapsing";
    } else {
      // b turns through parallel to a at tc (collinear overlap at the contact).
      L.C[2] = d.mul(-sb, Vec3(lb, 0, 0));
      L.C[3] = d.mul(1 - sb, Vec3(lb, 0, 0));
      L.v[3] = d.add(L.v[2], Vec3(0, d.sign() * d.num(0.25, 1), d.num(-0.5, 0.5)));
      L.shape = "parallel";
    }
  }
  L.v[2] = d.add(L.v[2], w);
  L.v[3] = d.add(L.v[3], w);
  if (uniform_int(rng, 0, 1)) {  // either edge may be the moving one
    std::swap(L.C[0], L.C[2]), std::swap(L.C[1], L.C[3]);
    std::swap(L.v[0], L.v[2]), std::swap(L.v[1], L.v[3]);
  }
}

// An exact similarity (degenerate generator): a signed axis permutation, possibly times the
// integer matrix 3Q (Q orthogonal), so angles, incidences and coplanarity stay exact.
Eigen::Matrix3d grid_similarity(Rng& rng) {
  Eigen::Matrix3d m = Eigen::Matrix3d::Zero();
  std::array<int, 3> p{0, 1, 2};
  std::shuffle(p.begin(), p.end(), rng);
  for (int i = 0; i < 3; ++i) m(i, p[i]) = uniform_int(rng, 0, 1) ? 1 : -1;
  if (uniform_int(rng, 0, 2) == 0) {
    Eigen::Matrix3d q;
    q << 2, -1, 2, 2, 2, -1, -1, 2, 2;
    m = q * m;
  }
  return m;
}

Generated<CcdQuery> generate(Rng& rng, bool exact) {
  Draw d{rng, exact};
  Local L;
  const bool ee = uniform_int(rng, 0, 1) == 1;
  if (ee) edge_edge(d, L);
  else point_triangle(d, L);
  // Size, placement and rotation.
  const int sc = static_cast<int>(pick<int>(rng, {{0, 30}, {1, 30}, {2, 30}, {3, 3}, {4, 3}, {5, 1}, {6, 1}, {7, 2}}));
  // scales: ~1e-3, 1, ~1e3, 2^-190, 2^190 (fast domain ends), 1e-300, 1e300, subnormal
  static constexpr int exps[] = {-10, 0, 10, -190, 190, -997, 996, -1040};
  const int e = exps[sc];
  std::string scale = sc == 7 ? "subnormal" : scale_tag(std::ldexp(1.0, e));
  if (sc == 3) scale = "2^-190";
  if (sc == 4) scale = "2^190";
  const bool far = uniform_int(rng, 0, 3) == 0;
  const int far_bits = static_cast<int>(uniform_int(rng, 10, 30));
  CcdQuery q;
  q.kind = ee ? CcdKind::edge_edge : CcdKind::vertex_face;
  // place_mode 2: far, 1: a small offset, 0: none.
  auto build = [&](int place_mode, bool with_rotation, bool with_scale) -> bool {
    Exact ex;
    const Eigen::Matrix3d R = with_rotation ? (exact ? grid_similarity(rng) : random_rotation(rng)) : Eigen::Matrix3d::Identity();
    Vec3 off = Vec3::Zero();
    if (place_mode == 2)
      off = {std::ldexp(d.num(0.5, 1), far_bits), std::ldexp(d.num(-1, 1), far_bits), std::ldexp(d.num(-1, 1), far_bits)};
    if (place_mode == 1) off = d.vec(1);
    for (int i = 0; i < 4; ++i)
      for (int k = 0; k < 2; ++k) {
        const double dt = k == 0 ? -L.tc : 1 - L.tc;
        Vec3 x = exact ? ex.add(L.C[i], ex.mul(dt, L.v[i])) : Vec3(L.C[i] + dt * L.v[i]);
        if (exact) {
          Vec3 y;
          for (int r = 0; r < 3; ++r)
            y[r] = ex.add(ex.add(ex.mul(R(r, 0), x[0]), ex.mul(R(r, 1), x[1])), ex.mul(R(r, 2), x[2]));
          x = ex.add(y, off);
        } else {
          x = R * x + off;
        }
        for (int r = 0; r < 3; ++r) {
          const double s = with_scale ? std::ldexp(x[r], e) : x[r];
          if (exact && with_scale && std::ldexp(s, -e) != x[r]) ex.ok = false;  // underflow
          if (!std::isfinite(s)) ex.ok = false;  // overflow (1e300 placed far)
          x[r] = s;
        }
        q.x[i + 4 * k] = x;
      }
    return ex.ok && (!exact || d.ex.ok);
  };
  // The dyadic generator falls back to fewer transforms when one would round.
  std::string place = far ? "far" : "origin";
  if (!build(far ? 2 : 1, true, true)) {
    place = "origin";
    if (!build(1, true, true) && !build(0, true, true) && !build(0, false, true)) {
      scale = "1";
      build(0, false, false);
    }
  }
  return {q, regime({{"kind", ee ? "edge_edge" : "point_triangle"},
                     {"shape", L.shape},
                     {"config", L.config},
                     {"place", place},
                     {"scale", scale}})};
}

}  // namespace

Generated<CcdQuery> Ccd::random(Rng& rng) { return generate(rng, false); }
Generated<CcdQuery> Ccd::degenerate(Rng& rng) { return generate(rng, true); }

}  // namespace contactbench::cases
