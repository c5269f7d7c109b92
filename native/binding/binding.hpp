// The Node binding's three parts and what they share: model_from_js.cpp converts the compiled
// model and the batch options from JavaScript (the reader model_reader.hpp, shared with the Python
// package, over napi_value.hpp), batch_class.cpp is the NativeBatch class over a
// Batch, tools.cpp the free functions (storage size, CPU info, flop counts, peak, single-pair
// collision, planted bugs); addon.cpp registers them. Every C++ exception becomes a JavaScript
// Error; nothing here aborts the process.
#pragma once

#include <napi.h>

#include <cstddef>
#include <stdexcept>
#include <string>

#include "achilles/batch.hpp"
#include "model_reader.hpp"
#include "napi_value.hpp"

namespace ach::binding {

/// The shared reader (model_reader.hpp) over JavaScript values: errors name the key path under "model".
Model model_from_js(const Napi::Object& m);
BatchOptions options_from_js(const Napi::Object& o);

/// The NativeBatch class (batch_class.cpp).
Napi::Function define_batch_class(Napi::Env env);
/// Sets the tool functions on the module's exports (tools.cpp).
void export_tools(Napi::Env env, Napi::Object exports);

} // namespace ach::binding
