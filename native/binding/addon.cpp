// The Node module: the NativeBatch class and the tool functions (binding.hpp lists the parts).
#include "binding.hpp"

namespace {

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("NativeBatch", ach::binding::define_batch_class(env));
  ach::binding::export_tools(env, exports);
  return exports;
}

} // namespace

NODE_API_MODULE(achilles, Init)
