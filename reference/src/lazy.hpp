// A value computed on first use. The storage is not constructed before (not zeroed, as a
// std::optional's payload or a default-initialised double-double would be: measurable in
// closest_feature's filtered stage), and get() is const so that the members of an object
// used as const can be filled on demand (ccd's polynomials).
#pragma once

#include <new>
#include <type_traits>
#include <utility>

namespace contactbench::reference {

template <class T>
class Lazy {
 public:
  Lazy() {}  // NOLINT: value_ deliberately left unconstructed
  Lazy(const Lazy&) = delete;
  Lazy& operator=(const Lazy&) = delete;
  // One destructor, not a trivial one constrained on T beside it: clang 14 (the sanitizer
  // build) deletes the constrained default for a union member with a non-trivial destructor.
  ~Lazy() {
    if constexpr (!std::is_trivially_destructible_v<T>)
      if (ready_) value_.~T();
  }

  template <class Make>
  [[gnu::always_inline]] const T& get(Make&& make) const {
    if (!ready_) {
      new (&value_) T(std::forward<Make>(make)());
      ready_ = true;
    }
    return value_;
  }

 private:
  union {
    mutable T value_;
  };
  mutable bool ready_ = false;
};

}  // namespace contactbench::reference
