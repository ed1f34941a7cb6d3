// Triangle mesh with adjacency: the facets around each edge and each vertex, internal-edge
// and internal-vertex flags as ../shared/sources/README.md ("Woo") defines them, convex /
// concave / flat edges, a JSON format with a validating loader, and the generators the
// rolling-sphere scenario uses (grid plane, irregular plane, half-cylinder trough).
//
// JSON mesh format (one object; an unknown key is an error naming it):
//   {"vertices": [[x, y, z], ...], "facets": [[i, j, k], ...]}
// Coordinates as cases::read_double reads them (JSON numbers, or strings such as "0x1.8p-3").
// Indices are 0-based. Facets keep their stored vertex order; the right-hand rule gives
// their normal. Facets need not be consistently oriented (the smoothing rule handles it).
// Rejected with one InputError line naming file, record and field: non-numbers, NaN/Inf,
// indices out of range or repeated, zero-area (collinear) facets, duplicate facets (the same
// vertex set twice, in either orientation), and non-manifold edges (three or more facets on
// one edge).
#pragma once
#include "cases/common.hpp"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace contactbench::cases {

// How an internal edge looks from the side facet f's normal points to (n1 and n2 oriented
// to agree across the edge): convex when the neighbour bends away (behind f's plane).
enum class EdgeShape { convex, concave, flat };
const char* to_string(EdgeShape s);

class Mesh {
 public:
  Mesh() = default;
  // Validates and builds the adjacency; throws InputError naming `where`'s file/record.
  Mesh(std::vector<Vec3> vertices, std::vector<std::array<int, 3>> facets,
       const Where& where = {});

  struct Edge {
    int v0, v1;               // v0 < v1
    std::vector<int> facets;  // 1 (boundary) or 2 (shared) facets
  };

  const std::vector<Vec3>& vertices() const { return vertices_; }
  const std::vector<std::array<int, 3>>& facets() const { return facets_; }
  const std::vector<Edge>& edges() const { return edges_; }
  int facet_count() const { return static_cast<int>(facets_.size()); }
  const Vec3& vertex(int f, int k) const { return vertices_[facets_[f][k]]; }

  // Edge k of facet f joins its local vertices k and (k+1)%3 (edge0 = ab, 1 = bc, 2 = ca).
  // Facets around a vertex (global index).
  const std::vector<int>& vertex_facets(int v) const { return vertex_facets_[v]; }

  // Woo: an edge is internal if the facet shares both its nodes with exactly one other facet.
  bool edge_internal(int f, int k) const { return edges_[facet_edges_[f][k]].facets.size() == 2; }
  // Woo: a vertex of a facet is internal if both of the facet's edges meeting there are internal.
  bool vertex_internal(int f, int k) const {
    return edge_internal(f, k) && edge_internal(f, (k + 2) % 3);
  }
  // The facet across edge k of f, or -1 on a boundary edge.
  int neighbour(int f, int k) const;
  // True when the neighbour across edge k traverses the shared edge in the same direction as
  // f does, i.e. the two facets are inconsistently oriented and n2 must be flipped.
  bool neighbour_flipped(int f, int k) const;
  // Right-hand-rule normal of f, not normalized: (b - a) x (c - a).
  Vec3 normal(int f) const;
  // Shape of internal edge k of f, exact (filtered orientation test with exact fallback).
  EdgeShape edge_shape(int f, int k) const;
  // Vertex v's facets reachable from f across edges at v with two facets, oriented
  // consistently with f: pairs (facet, +1 or -1), f first. A fan that cannot be oriented
  // consistently fails with an InputError naming vertices[v] (checked for every vertex when
  // the mesh is built).
  std::vector<std::pair<int, int>> oriented_fan(int f, int v, const Where& where = {}) const;
  // Local index (0..2) of global vertex v in facet f, or -1.
  int local_index(int f, int v) const;

  nlohmann::json to_json() const;

 private:
  std::vector<Vec3> vertices_;
  std::vector<std::array<int, 3>> facets_;
  std::vector<Edge> edges_;
  std::vector<std::array<int, 3>> facet_edges_;
  std::vector<std::vector<int>> vertex_facets_;
};

// Parses the JSON format above; `where` names file and record for errors.
Mesh mesh_from_json(const nlohmann::json& j, const Where& where);
// Reads a JSON mesh file; errors name the file.
Mesh load_mesh(const std::string& path);

// Exact sign of det[b-a, c-a, d-a] (orientation of d relative to the plane abc), for every
// finite double input (static filter, exact rational fallback: no overflow or underflow).
int orient3d_sign(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);
// Zero-area facets are found by exactly_collinear (cases/json_input.hpp).

// Plane z = 0 on [0, nx*h] x [0, ny*h], each square cell split by one diagonal, all facets
// oriented +z. pattern 0: all diagonals the same way; 1: alternating (a "union jack"-like
// checkerboard).
Mesh grid_plane(int nx, int ny, double h, int pattern = 0);
// Plane z = 0 with the interior grid vertices jittered in-plane by up to `jitter`*h (in steps
// of h/64) and each cell's diagonal chosen at random: an irregular triangulation.
Mesh irregular_plane(int nx, int ny, double h, double jitter, Rng& rng);
// Half-cylinder trough: axis along y at height R above the bottom line (x = 0, z = 0),
// n_around segments over the half circle, n_along segments over [-length/2, length/2],
// normals pointing inward (towards the axis).
Mesh half_cylinder_trough(double R, int n_around, int n_along, double length);

}  // namespace contactbench::cases
