// FCL as a packaged peer of the ellipsoid_contact pair (the only file that includes FCL).
#include "harness/pairs/ellipsoid_contact.hpp"

#include <fcl/narrowphase/collision.h>

#include <memory>

namespace contactbench::harness {

double fcl_ellipsoids_collide(const cases::EllipsoidContactQuery& q) {
  auto object = [](const cases::Ellipsoid& e) {
    auto shape = std::make_shared<fcl::Ellipsoidd>(e.semi_axes[0], e.semi_axes[1], e.semi_axes[2]);
    fcl::Transform3d tf = fcl::Transform3d::Identity();
    const Eigen::Quaterniond rot(e.quaternion[0], e.quaternion[1], e.quaternion[2], e.quaternion[3]);
    tf.linear() = rot.normalized().toRotationMatrix();
    tf.translation() = e.centre;
    return fcl::CollisionObjectd(shape, tf);
  };
  const fcl::CollisionObjectd a = object(q.a), b = object(q.b);
  fcl::CollisionRequestd request;
  fcl::CollisionResultd result;
  fcl::collide(&a, &b, request, result);
  return result.isCollision() ? 1.0 : 0.0;
}

}  // namespace contactbench::harness
