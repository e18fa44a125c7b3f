#pragma once
// A library object owned through std::unique_ptr and handed back with the library's own
// destroy function.

#include <memory>

namespace dlsim::kernels::gpu {

template <class T, auto Destroy>
struct Destroyer {
  void operator()(T* object) const { Destroy(object); }
};

template <class T, auto Destroy>
using Owned = std::unique_ptr<T, Destroyer<T, Destroy>>;

}  // namespace dlsim::kernels::gpu
