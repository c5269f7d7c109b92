// The compiled model and the batch options, from the plain JavaScript objects src/engine/batch.ts
// builds (toNativeModel): the shared reader (model_reader.hpp) over JavaScript values (napi_value.hpp).
#include "binding.hpp"

namespace ach::binding {

Model model_from_js(const Napi::Object& m) { return read_model(NapiValue(m)); }

BatchOptions options_from_js(const Napi::Object& o) { return read_options(NapiValue(o)); }

} // namespace ach::binding
