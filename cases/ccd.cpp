#include "cases/ccd.hpp"

#include "cases/json_input.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>

namespace contactbench::cases {

const char* to_string(CcdKind k) {
  return k == CcdKind::vertex_face ? "vertex-face" : "edge-edge";
}

double ccd_scale(const CcdQuery& q) {
  double s = 1e-300;
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

// Decimal integer with optional sign; false on anything else (empty, spaces, '+'-only, ...).
bool parse_decimal(const std::string& s, bool allow_sign, bool& negative, BigUint& out) {
  std::size_t i = 0;
  negative = false;
  if (allow_sign && i < s.size() && (s[i] == '-' || s[i] == '+')) {
    negative = s[i] == '-';
    ++i;
  }
  if (i == s.size()) return false;
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
    where.fail(field + " numerator", fmt::format("not an integer: \"{}\"", num));
  if (!parse_decimal(den, false, dneg, d))
    where.fail(field + " denominator", fmt::format("not a positive integer: \"{}\"", den));
  if (d.zero()) where.fail(field + " denominator", "zero denominator");
  const int dz = d.trailing_zeros();
  if (d.bit_length() != dz + 1)
    where.fail(field + " denominator",
               fmt::format("{} is not a power of two: the value is not an exact double", den));
  if (n.zero()) return neg ? -0.0 : 0.0;
  // value = odd * 2^(nz - dz); the odd part must fit a double's 53-bit significand.
  const int nz = n.trailing_zeros();
  const int odd_bits = n.bit_length() - nz;
  if (odd_bits > 53)
    where.fail(field, fmt::format("{}/{} is not an exact double ({} significant bits)", num, den,
                                  odd_bits));
  const double odd = static_cast<double>(n.bits(nz));  // < 2^53: exact
  const int exp = nz - dz;
  const double v = std::ldexp(odd, exp);
  // ldexp is exact unless the result overflows or falls below the subnormal grid.
  if (!std::isfinite(v) || std::ldexp(v, -exp) != odd)
    where.fail(field, fmt::format("{}/{} is outside the exact double range", num, den));
  return neg ? -v : v;
}

std::vector<CcdQuery> read_ccd_csv(const std::string& path, CcdKind kind) {
  std::ifstream in(path);
  if (!in) Where{path, ""}.fail("", "cannot open file");
  static constexpr const char* coord[] = {"x", "y", "z"};
  std::vector<CcdQuery> out;
  CcdQuery q;
  q.kind = kind;
  std::string line;
  std::uint64_t lineno = 0;
  int vertex = 0;
  std::uint64_t first_line = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.pop_back();
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
    else where.fail("gt", fmt::format("ground truth must be 0 or 1, got \"{}\"", cols[6]));
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

CcdQuery ccd_query_from_json(const nlohmann::json& j, const Where& where) {
  if (!j.is_object()) where.fail("", "expected a JSON object");
  reject_unknown_keys(j, {"kind", "x", "ground_truth"}, where);
  CcdQuery q;
  const auto& kj = require(j, "kind", where);
  if (!kj.is_string()) where.fail("kind", "expected \"vertex-face\" or \"edge-edge\"");
  const auto kind = kj.get<std::string>();
  if (kind == "vertex-face") q.kind = CcdKind::vertex_face;
  else if (kind == "edge-edge") q.kind = CcdKind::edge_edge;
  else where.fail("kind", fmt::format("\"{}\" is neither vertex-face nor edge-edge", kind));
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
    else if (g.is_number_integer() && (g.get<int>() == 0 || g.get<int>() == 1)) q.ground_truth = g.get<int>();
    else where.fail("ground_truth", "expected 0, 1, true or false");
  }
  return q;
}

nlohmann::json to_json(const CcdQuery& q) {
  nlohmann::json x = nlohmann::json::array();
  // Hex floats: exact round trip through `eval`.
  for (const auto& v : q.x)
    x.push_back({fmt::format("{:a}", v[0]), fmt::format("{:a}", v[1]), fmt::format("{:a}", v[2])});
  nlohmann::json j{{"kind", to_string(q.kind)}, {"x", x}};
  if (q.ground_truth >= 0) j["ground_truth"] = q.ground_truth;
  return j;
}

nlohmann::json to_json(const CcdResult& r) {
  nlohmann::json j{{"hit", r.hit}, {"toi", r.toi}};
  if (!std::isnan(r.toi_up)) j["toi_up"] = r.toi_up;
  if (r.cut_short) j["cut_short"] = true;
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

std::vector<CcdDataQuery> load_ccd_public(const std::string& shared_dir) {
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
  std::vector<CcdDataQuery> out;
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
          out.push_back({source, fmt::format("{}/{}:{}", source, f.filename().string(), 8 * i + 1),
                         qs[i]});
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

std::vector<CcdCase> ccd_canonical_cases() {
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

// ---------------------------------------------------------------------------------------
// Generators. Every coordinate is k * 2^-bits * scale with small |k|, and every motion is
// built from a contact configuration C at a dyadic time tc and a dyadic velocity v as
// x(0) = C - tc v, x(1) = C + (1 - tc) v, so all inputs are exact doubles and the contact
// really happens at tc (in exact arithmetic).
namespace {

Vec3 grid_point(Rng& rng, int bits, long range) {
  return {dyadic(rng, bits, range, 1), dyadic(rng, bits, range, 1), dyadic(rng, bits, range, 1)};
}

// Dyadic convex weights (w0, w1, w2) summing to 1, in multiples of 1/8, some possibly 0.
std::array<double, 3> weights(Rng& rng, bool allow_zero) {
  for (;;) {
    const long i = uniform_int(rng, allow_zero ? 0 : 1, 8);
    const long j = uniform_int(rng, allow_zero ? 0 : 1, 8);
    if (i + j > 8 || (!allow_zero && i + j == 8)) continue;
    return {i / 8.0, j / 8.0, (8 - i - j) / 8.0};
  }
}

CcdQuery scaled(CcdQuery q, double s, const Vec3& shift) {
  for (auto& v : q.x) v = (v + shift) * s;
  return q;
}

}  // namespace

CcdQuery random_ccd(Rng& rng) {
  CcdQuery q;
  q.kind = uniform_int(rng, 0, 1) ? CcdKind::edge_edge : CcdKind::vertex_face;
  // Points in a unit box moving by up to the box size: a fair share of hits and misses.
  for (int i = 0; i < 4; ++i) {
    q.x[i] = grid_point(rng, 20, 1 << 20);
    q.x[i + 4] = q.x[i] + grid_point(rng, 20, 1 << 20);
  }
  return scaled(q, pick_scale(rng), Vec3::Zero());
}

CcdQuery degenerate_ccd(Rng& rng) {
  CcdQuery q;
  const bool ee = uniform_int(rng, 0, 1) == 1;
  q.kind = ee ? CcdKind::edge_edge : CcdKind::vertex_face;
  const int mode = static_cast<int>(uniform_int(rng, 0, 7));
  // Contact time: 0, 1 or a dyadic time inside.
  const double tcs[] = {0.0, 1.0, 0.5, 0.25, 0.75, 0.125};
  const double tc = tcs[uniform_int(rng, 0, 5)];
  std::array<Vec3, 4> C;  // configuration at tc
  std::array<Vec3, 4> v;  // velocities
  for (int i = 0; i < 4; ++i) {
    C[i] = grid_point(rng, 3, 16);
    v[i] = grid_point(rng, 3, 16);
  }
  const bool planar = mode == 2 || mode == 3;
  if (planar)
    for (int i = 0; i < 4; ++i) C[i].z() = v[i].z() = 0;  // everything slides in z = 0
  if (mode == 4) {
    // Parallel edges (or a triangle with two parallel sides) moving rigidly.
    C[3] = C[2] + (C[1] - C[0]) * 0.5;
    v[3] = v[2];
    v[1] = v[0];
  }
  if (mode == 5) {
    // Degenerate triangle / edge: collinear or coincident vertices all the time.
    C[3] = C[1] + (C[2] - C[1]) * 0.5;
    v[3] = v[1] + (v[2] - v[1]) * 0.5;
    if (ee) { C[1] = C[0]; v[1] = v[0]; }
  }
  // Put the contact in: vertex-face p = weighted point of the triangle; edge-edge the two
  // edges share a point with weights on each.
  if (mode != 7) {
    const auto w = weights(rng, true);
    if (!ee) {
      C[0] = w[0] * C[1] + w[1] * C[2] + w[2] * C[3];
    } else {
      // Move edge b so that its point at weight s coincides with edge a's point at weight r.
      const double r = static_cast<double>(uniform_int(rng, 0, 8)) / 8.0;
      const double s = static_cast<double>(uniform_int(rng, 0, 8)) / 8.0;
      const Vec3 pa = (1 - r) * C[0] + r * C[1];
      const Vec3 pb = (1 - s) * C[2] + s * C[3];
      C[2] += pa - pb;
      C[3] += pa - pb;
    }
  }
  if (mode == 6) {
    // Grazing: one primitive translates rigidly and the other moves with it plus a
    // tangential slip along an edge direction, so the contact is tangential (vertex-face: p
    // slides along the line of edge f0 f1 through the contact point; edge-edge: b slides
    // along a's direction).
    v[1] = v[2] = v[3] = v[0];
    v[0] = v[1] + (ee ? Vec3::Zero() : Vec3(C[2] - C[1]));
    if (ee) { v[0] = v[1] = v[3]; v[2] = v[3] + (C[1] - C[0]); v[3] = v[2]; }
  }
  std::array<Vec3, 4> x0, x1;
  for (int i = 0; i < 4; ++i) {
    x0[i] = C[i] - tc * v[i];
    x1[i] = C[i] + (1 - tc) * v[i];
  }
  q.x = {x0[0], x0[1], x0[2], x0[3], x1[0], x1[1], x1[2], x1[3]};
  if (mode == 7) {
    // Near miss: a touching configuration at t = 1 pushed away by a few ulps.
    const auto w = weights(rng, true);
    if (!ee) {
      q.x[4] = w[0] * q.x[5] + w[1] * q.x[6] + w[2] * q.x[7];
      const long k = uniform_int(rng, -4, 4);
      const int axis = static_cast<int>(uniform_int(rng, 0, 2));
      q.x[4][axis] += k * std::ldexp(std::numeric_limits<double>::epsilon(),
                                     std::ilogb(std::max(1.0, std::abs(q.x[4][axis]))));
    } else {
      const Vec3 d = q.x[4] - q.x[6];
      q.x[6] += d;
      q.x[7] += d;
      const long k = uniform_int(rng, -4, 4);
      const int axis = static_cast<int>(uniform_int(rng, 0, 2));
      q.x[6][axis] += k * std::ldexp(std::numeric_limits<double>::epsilon(),
                                     std::ilogb(std::max(1.0, std::abs(q.x[6][axis]))));
    }
  }
  const double s = pick_scale(rng);
  return scaled(q, s, Vec3::Zero());
}

}  // namespace contactbench::cases
