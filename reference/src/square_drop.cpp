// The square drop's reference run: the simulator template of cases/square_drop.hpp
// instantiated on MPFR (mpreal, >= 128 bits), with the exact rational ground CCD and the
// book's own PSD projection by eigendecomposition.
#include "reference/square_drop.hpp"

#include "reference/src/barrier_mp.hpp"
#include "reference/src/ground_ccd_exact.hpp"

#include <mpreal.h>
#include <unsupported/Eigen/MPRealSupport>
#include <Eigen/Eigenvalues>

namespace contactbench::reference {

namespace {

using mpfr::mpreal;

struct ReferenceKernels {
  using Scalar = mpreal;
  using Vec = Eigen::Matrix<mpreal, Eigen::Dynamic, 1>;
  // Uses the thread's MPFR default precision, set by simulate_reference.
  static mpreal constant(const char* decimal) { return mpreal(decimal); }
  static mpreal barrier_value(const mpreal& d, const mpreal& dhat, const mpreal& kappa,
                              const mpreal& area) {
    return reference::detail::barrier_terms_mp(d, dhat, kappa, area).value;
  }
  static void barrier_terms(const mpreal& d, const mpreal& dhat, const mpreal& kappa,
                            const mpreal& area, mpreal& v, mpreal& g, mpreal& h) {
    if (!(d > 0)) throw std::domain_error("barrier: distance to the ground must be > 0");
    auto t = reference::detail::barrier_terms_mp(d, dhat, kappa, area);
    v = t.value; g = t.gradient; h = t.hessian;
  }
  // Exact: the mpreal values are dyadic rationals, converted exactly; the exact minimum of
  // 9/10 (y_ground - y)/p_y is then rounded once to the working precision.
  static mpreal ground_ccd(const Vec& x, const Vec& p, const mpreal& y_ground) {
    auto to_q = [](const mpreal& v) {
      mpq_class q;
      mpfr_get_q(q.get_mpq_t(), v.mpfr_srcptr());
      return q;
    };
    const auto e = reference::detail::ground_ccd_exact(
        static_cast<std::size_t>(x.size() / 2), to_q(y_ground), [&](std::size_t i) {
          return std::pair<mpq_class, mpq_class>(to_q(x[2 * i + 1]), to_q(p[2 * i + 1]));
        });
    mpreal a;
    mpfr_set_q(a.mpfr_ptr(), e.alpha.get_mpq_t(), MPFR_RNDN);
    return a;
  }
  // MassSpringEnergy.hess and utils.make_PSD, literally: the 4x4 block, its symmetric
  // eigendecomposition, negative eigenvalues set to 0, reassembled.
  static void spring_hessian(const mpreal& dx, const mpreal& dy, const mpreal& l2,
                             const mpreal& k, Eigen::Matrix<mpreal, 4, 4>& local) {
    const mpreal c = 2 * k / l2, off = dx * dx + dy * dy - l2;
    Eigen::Matrix<mpreal, 2, 2> hd;
    hd << c * (2 * dx * dx + off), c * (2 * dx * dy), c * (2 * dy * dx), c * (2 * dy * dy + off);
    Eigen::Matrix<mpreal, 4, 4> block;
    block << hd, -hd, -hd, hd;
    Eigen::SelfAdjointEigenSolver<Eigen::Matrix<mpreal, 4, 4>> es(block);
    if (es.info() != Eigen::Success) throw std::runtime_error("square_drop: eigensolver failed");
    Eigen::Matrix<mpreal, 4, 1> lam = es.eigenvalues();
    for (int i = 0; i < 4; ++i)
      if (lam[i] < 0) lam[i] = 0;
    local = es.eigenvectors() * lam.asDiagonal() * es.eigenvectors().transpose();
  }
  static double to_double(const mpreal& v) { return v.toDouble(MPFR_RNDN); }
};

// Sets the thread's MPFR default precision for the run and restores it afterwards.
struct PrecisionScope {
  mpfr_prec_t saved;
  explicit PrecisionScope(int bits) : saved(mpreal::get_default_prec()) {
    mpreal::set_default_prec(bits);
  }
  ~PrecisionScope() { mpreal::set_default_prec(saved); }
};

}  // namespace

cases::square_drop::Trajectory simulate_square_drop(const cases::square_drop::Params& p,
                                                    int precision_bits,
                                                    const std::function<void(int)>& progress) {
  if (precision_bits < 128) throw std::invalid_argument("square_drop: reference precision < 128 bits");
  PrecisionScope scope(precision_bits);
  return cases::square_drop::simulate<ReferenceKernels>(p, "reference", precision_bits, progress);
}

}  // namespace contactbench::reference
