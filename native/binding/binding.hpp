// The Node binding's three parts and what they share: model_from_js.cpp converts the compiled
// model and the batch options from JavaScript, batch_class.cpp is the NativeBatch class over a
// Batch, tools.cpp the free functions (storage size, CPU info, flop counts, peak, single-pair
// collision, planted bugs); addon.cpp registers them. Every C++ exception becomes a JavaScript
// Error; nothing here aborts the process.
#pragma once

#include <napi.h>

#include <cstddef>
#include <stdexcept>
#include <string>

#include "achilles/batch.hpp"
#include "achilles/collision/shape.hpp"

namespace ach::binding {

/// A malformed JavaScript value: thrown as std::invalid_argument, rethrown to JavaScript as an Error.
[[noreturn]] void type_error(const std::string& what);
double number_at(const Napi::Object& o, const char* key, const std::string& where);
void numbers_at(const Napi::Object& o, const char* key, double* out, std::size_t n, const std::string& where);
/// R from a unit quaternion [w, x, y, z] (normalised here, so the caller's rounding cannot skew R).
void quat_to_rotation(const double* q, double* R);
ShapeKind shape_kind(const Napi::Value& v, const std::string& where);

Model model_from_js(const Napi::Object& m);
BatchOptions options_from_js(const Napi::Object& o);

/// The NativeBatch class (batch_class.cpp).
Napi::Function define_batch_class(Napi::Env env);
/// Sets the tool functions on the module's exports (tools.cpp).
void export_tools(Napi::Env env, Napi::Object exports);

} // namespace ach::binding
