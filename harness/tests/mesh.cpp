// Suite mesh: adjacency, the internal-edge / internal-vertex flags of
// ../shared/sources/README.md "Woo", edge shapes, orientation handling, the generators and the
// loader's bad-input errors.
#include "cases/json_input.hpp"
#include "cases/mesh.hpp"
#include "harness/tests/test_util.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>

using namespace contactbench;
using cases::Mesh;
using cases::Vec3;

namespace {
std::string error_of(const std::string& text, const std::string& name = "m.json") {
  test::TempFile f(name, text);
  try {
    cases::load_mesh(f.str());
  } catch (const cases::InputError& e) {
    std::string s = e.what();
    return s.substr(s.find(name));  // drop the temporary folder
  }
  return "no error";
}
}  // namespace

BOOST_AUTO_TEST_SUITE(mesh)

BOOST_AUTO_TEST_CASE(grid_plane_counts_and_flags) {
  // 3 x 2 cells: 12 facets, 12 vertices. Edges: 3*3 horizontal + 4*2 vertical + 6 diagonals
  // = 23; boundary edges = 2*(3+2) = 10, so 13 internal.
  const Mesh m = cases::grid_plane(3, 2, 1.0);
  BOOST_TEST(m.facet_count() == 12);
  BOOST_TEST(m.edges().size() == 23u);
  int internal = 0;
  for (const auto& e : m.edges()) internal += e.facets.size() == 2;
  BOOST_TEST(internal == 13);
  for (int f = 0; f < m.facet_count(); ++f) {
    BOOST_TEST(m.normal(f).z() > 0);  // all +z
    for (int k = 0; k < 3; ++k)
      if (m.edge_internal(f, k)) {
        BOOST_TEST(!m.neighbour_flipped(f, k));  // consistently oriented
        BOOST_TEST(std::string(cases::to_string(m.edge_shape(f, k))) == "flat");
      }
  }
  // Facet 0 = [v(0,0), v(1,0), v(1,1)]: edge0 on the boundary, edge1 (x = 1) and edge2
  // (the diagonal) internal. Its vertex 2 = (1,1) is internal (edges 1 and 2), vertices 0
  // and 1 are not.
  BOOST_TEST(!m.edge_internal(0, 0));
  BOOST_TEST(m.edge_internal(0, 1));
  BOOST_TEST(m.edge_internal(0, 2));
  BOOST_TEST(!m.vertex_internal(0, 0));
  BOOST_TEST(!m.vertex_internal(0, 1));
  BOOST_TEST(m.vertex_internal(0, 2));
  BOOST_TEST(m.vertex_facets(5).size() == 6u);  // interior vertex (1,1) of a same-way grid
}

BOOST_AUTO_TEST_CASE(inconsistent_orientation_is_accepted_and_detected) {
  std::vector<Vec3> v = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
  const Mesh consistent(v, {{{0, 1, 2}}, {{1, 3, 2}}});
  const Mesh inconsistent(v, {{{0, 1, 2}}, {{1, 2, 3}}});
  BOOST_TEST(!consistent.neighbour_flipped(0, 1));
  BOOST_TEST(inconsistent.neighbour_flipped(0, 1));
  BOOST_TEST(inconsistent.neighbour(0, 1) == 1);
  BOOST_TEST(inconsistent.neighbour(1, 0) == 0);
}

BOOST_AUTO_TEST_CASE(edge_shapes_convex_concave_flat) {
  // Facet [u, v, w] in z = 0 with n1 = +z; neighbour across uv with apex below: convex.
  std::vector<Vec3> v = {{0, -1, 0}, {0, 1, 0}, {-1, 0, 0}, {1, 0, -1}, {1, 0, 1}};
  BOOST_TEST(std::string(cases::to_string(Mesh(v, {{{0, 1, 2}}, {{1, 0, 3}}}).edge_shape(0, 0))) == "convex");
  BOOST_TEST(std::string(cases::to_string(Mesh(v, {{{0, 1, 2}}, {{1, 0, 4}}}).edge_shape(0, 0))) == "concave");
  // Within 2^-60 of flat: the exact fallback of the orientation test still decides.
  v[3] = Vec3(1, 0, -std::ldexp(1.0, -60));
  BOOST_TEST(std::string(cases::to_string(Mesh(v, {{{0, 1, 2}}, {{1, 0, 3}}}).edge_shape(0, 0))) == "convex");
  // The trough, seen from inside (normals towards the axis), is concave at every fold.
  const Mesh t = cases::half_cylinder_trough(1.0, 8, 2, 1.0);
  int concave = 0, flat = 0, convex = 0;
  for (int f = 0; f < t.facet_count(); ++f)
    for (int k = 0; k < 3; ++k)
      if (t.edge_internal(f, k)) {
        const auto s = t.edge_shape(f, k);
        concave += s == cases::EdgeShape::concave;
        flat += s == cases::EdgeShape::flat;
        convex += s == cases::EdgeShape::convex;
      }
  BOOST_TEST(convex == 0);
  BOOST_TEST(concave > 0);
  BOOST_TEST(flat > 0);  // diagonals and cross edges: each strip is a planar rectangle
  for (int f = 0; f < t.facet_count(); ++f) {
    const Vec3 c = (t.vertex(f, 0) + t.vertex(f, 1) + t.vertex(f, 2)) / 3;
    BOOST_TEST(t.normal(f).dot(Vec3(0, c.y(), 1.0) - c) > 0);  // inward
  }
}

BOOST_AUTO_TEST_CASE(orient3d_exact_on_nearly_coplanar_points) {
  const Vec3 a(0.1, 0.2, 0.3), b(1.1, 0.2, 0.3), c(0.1, 1.2, 0.3);
  BOOST_TEST(cases::orient3d_sign(a, b, c, Vec3(0.5, 0.5, 0.3)) == 0);
  BOOST_TEST(cases::orient3d_sign(a, b, c, Vec3(0.5, 0.5, std::nextafter(0.3, 1.0))) == 1);
  BOOST_TEST(cases::orient3d_sign(a, b, c, Vec3(0.5, 0.5, std::nextafter(0.3, 0.0))) == -1);
  BOOST_TEST(cases::exactly_collinear(Vec3(0, 0, 0), Vec3(1, 1, 1), Vec3(3, 3, 3)));
  BOOST_TEST(!cases::exactly_collinear(Vec3(0, 0, 0), Vec3(1, 1, 1),
                                       Vec3(3, 3, std::nextafter(3.0, 4.0))));
}

BOOST_AUTO_TEST_CASE(exact_at_every_scale) {
  // Rationals, not doubles: a valid facet at 1e-300 or made of subnormals is accepted, a
  // collinear one at 1e160 rejected (2^531 ~ 1.4e160: squares of these overflow a double).
  BOOST_TEST(error_of(R"({"vertices": [[0,0,0],["0x1p-997",0,0],[0,"0x1p-997",0]], "facets": [[0,1,2]]})") ==
             "no error");
  BOOST_TEST(error_of(R"({"vertices": [[0,0,0],["0x1p-1074",0,0],[0,"0x1p-1073",0]], "facets": [[0,1,2]]})") ==
             "no error");
  BOOST_TEST(error_of(R"({"vertices": [[0,0,0],["0x1p531","0x1p531","0x1p531"],)"
                      R"(["0x1.8p532","0x1.8p532","0x1.8p532"]], "facets": [[0,1,2]]})") ==
             "m.json: mesh: field facets[0]: zero-area facet (collinear vertices)");
  BOOST_TEST(error_of(R"({"vertices": [[0,0,0],["0x1p531",0,0],[0,"0x1p531",0]], "facets": [[0,1,2]]})") ==
             "no error");
  for (double s : {0x1p-1070, 1e-300, 0x1p531, 1e300}) {
    BOOST_TEST_CONTEXT("s = " << s) {
      const Vec3 a(0, 0, 0), b(s, 0, 0), c(0, s, 0);
      BOOST_TEST(cases::orient3d_sign(a, b, c, Vec3(0, 0, s)) == 1);
      BOOST_TEST(cases::orient3d_sign(a, b, c, Vec3(0, 0, -s)) == -1);
      BOOST_TEST(cases::orient3d_sign(a, b, c, Vec3(s, s, 0)) == 0);
      BOOST_TEST(!cases::exactly_collinear(a, b, c));
      BOOST_TEST(cases::exactly_collinear(a, b, Vec3(s, 0, 0) * 0.5));
    }
  }
}

BOOST_AUTO_TEST_CASE(irregular_plane_is_flat_and_valid) {
  cases::Rng rng(3);
  const Mesh m = cases::irregular_plane(8, 4, 0.1, 0.3, rng);
  BOOST_TEST(m.facet_count() == 64);
  for (const auto& p : m.vertices()) BOOST_TEST(p.z() == 0.0);
  for (int f = 0; f < m.facet_count(); ++f) BOOST_TEST(m.normal(f).z() > 0);
}

BOOST_AUTO_TEST_CASE(every_orientation_of_a_closed_fan_is_consistent) {
  // A closed fan of 5 facets around vertex 0 under all 32 orientation patterns: the loader
  // accepts each (no contradiction is possible, see Mesh::oriented_fan), and the oriented
  // fan turns every facet normal to +z: nothing is chosen silently.
  std::vector<Vec3> v{{0, 0, 0}};
  for (int k = 0; k < 5; ++k) {
    const double a = 2 * std::acos(-1.0) * k / 5;
    v.emplace_back(std::cos(a), std::sin(a), 0.25 * (k % 2));
  }
  for (int mask = 0; mask < 32; ++mask) {
    std::vector<std::array<int, 3>> f;
    for (int k = 0; k < 5; ++k) {
      std::array<int, 3> t{0, 1 + k, 1 + (k + 1) % 5};
      if (mask >> k & 1) std::swap(t[1], t[2]);
      f.push_back(t);
    }
    const Mesh m(v, f, {"api", "mesh"});
    for (int start = 0; start < 5; ++start) {
      const auto fan = m.oriented_fan(start, 0);
      BOOST_TEST(fan.size() == 5u);
      const double s0 = m.normal(start).z();
      for (const auto& [g, sg] : fan) BOOST_TEST(sg * m.normal(g).z() * s0 > 0);
    }
  }
}

BOOST_AUTO_TEST_CASE(loader_round_trip) {
  const Mesh m = cases::grid_plane(2, 2, 0.5, 1);
  test::TempFile f("mesh.json", m.to_json().dump());
  const Mesh back = cases::load_mesh(f.str());
  BOOST_TEST(back.facet_count() == m.facet_count());
  BOOST_TEST(back.edges().size() == m.edges().size());
}

BOOST_AUTO_TEST_CASE(loader_bad_input_one_clear_line) {
  const std::string ok_v = R"("vertices": [[0,0,0],[1,0,0],[0,1,0],[1,1,0],[0,0,1]])";
  BOOST_TEST(error_of("{" + ok_v + R"(, "facets": [[0,1,2],[1,3,2],[1,2,4],[2,1,0]]})") ==
             "m.json: mesh: field facets[2]: non-manifold edge (1, 2): also in facets 0 and 1");
  BOOST_TEST(error_of("{" + ok_v + R"(, "facets": [[0,1,9]]})") ==
             "m.json: mesh: field facets[0][2]: vertex index 9 out of range [0, 5)");
  BOOST_TEST(error_of(R"({"vertices": [[0,0,0],[1,1,1],[2,2,2]], "facets": [[0,1,2]]})") ==
             "m.json: mesh: field facets[0]: zero-area facet (collinear vertices)");
  BOOST_TEST(error_of(R"({"vertices": [[0,0,0],[1,"x",1],[2,2,2]], "facets": [[0,1,2]]})") ==
             "m.json: mesh: field vertices[1][1]: expected a number, got the string \"x\"");
  BOOST_TEST(error_of(R"({"vertices": [[0,0,0],["0x1p0",0,0],[0,"0x1.8p-3",0]], "facets": [[0,1,2]]})") ==
             "no error");  // exact hex strings, as cases::read_double reads them
  BOOST_TEST(error_of(R"({"vertices": [[0,0,0],[1,0,0],[0,1,0]], "facets": [[0,1,2]], "normal": 1})") ==
             "m.json: mesh: field normal: unknown key (expected one of: vertices, facets)");
  BOOST_TEST(error_of("{" + ok_v + R"(, "facets": [[0,1,2],[0,1,2]]})") ==
             "m.json: mesh: field facets[1]: duplicate facet: same vertices as facets[0]");
  BOOST_TEST(error_of("{" + ok_v + R"(, "facets": [[0,1,2],[2,1,0]]})") ==
             "m.json: mesh: field facets[1]: duplicate facet: same vertices as facets[0]");
  BOOST_TEST(error_of(R"({"vertices": [[0,0,0],[1,0,1e999],[2,2,2]], "facets": [[0,1,2]]})") ==
             "m.json: mesh: field vertices[1][2]: number \"1e999\" is too large for a double");
  BOOST_TEST(error_of(R"({"vertices": [[0,0,0],[1,0,0]], "facets": [[0,1]]})") ==
             "m.json: mesh: field facets[0]: expected an array of 3 vertex indices");
  BOOST_TEST(error_of(R"({"vertices": [[0,0,0],[1,0,0],[0,1,0]], "facets": [[0,1,1]]})") ==
             "m.json: mesh: field facets[0]: repeated vertex index");
  BOOST_TEST(error_of(R"({"vertices": [[0,0,0],[1,0,0)") ==
             "m.json: mesh: truncated JSON (unexpected end)");
  BOOST_TEST(error_of(R"({"facets": []})") == "m.json: mesh: field vertices: missing");
  // NaN cannot be written in JSON; build it directly.
  BOOST_CHECK_EXCEPTION(
      Mesh({{0, 0, 0}, {1, 0, 0}, {0, std::numeric_limits<double>::quiet_NaN(), 0}}, {{{0, 1, 2}}},
           {"api", "mesh"}),
      cases::InputError, [](const cases::InputError& e) {
        return std::string(e.what()) == "api: mesh: field vertices[2][1]: not a finite number";
      });
}

BOOST_AUTO_TEST_SUITE_END()
