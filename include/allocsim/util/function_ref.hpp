#pragma once
// A non-owning reference to a callable (as std::function_ref of C++26, P0792): a pointer and a
// trampoline, so that a virtual function can take a callback without a heap allocation. The
// referenced callable must outlive the call it is passed to.
#include <memory>
#include <type_traits>
#include <utility>

namespace allocsim {

template <class Signature>
class FunctionRef;

/// See the file comment.
template <class R, class... Args>
class FunctionRef<R(Args...)> {
 public:
  template <class F>
  requires(!std::is_same_v<std::remove_cvref_t<F>, FunctionRef> &&
           std::is_invocable_r_v<R, F&, Args...>) FunctionRef(F&& f)
  noexcept  // NOLINT: implicit, like std::function_ref
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* object, Args... args) -> R {
          return (*static_cast<std::remove_reference_t<F>*>(object))(std::forward<Args>(args)...);
        }) {}

  R operator()(Args... args) const { return call_(object_, std::forward<Args>(args)...); }

 private:
  void* object_;
  R (*call_)(void*, Args...);
};

}  // namespace allocsim
