// The model reader's view of a JavaScript value (model_reader.hpp lists what the adapter answers):
// a thin wrapper over Napi::Value, so the Node addon runs the same reader as the Python package.
#pragma once

#include <napi.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace ach::binding {

class NapiValue {
 public:
  NapiValue(Napi::Value v) : v_(v) {} // NOLINT: implicit, so Napi objects pass where a value is read

  bool is_undefined() const { return v_.IsUndefined(); }
  bool is_null() const { return v_.IsNull(); }
  bool is_number() const { return v_.IsNumber(); }
  bool is_string() const { return v_.IsString(); }
  bool is_boolean() const { return v_.IsBoolean(); }
  bool is_array() const { return v_.IsArray(); }
  bool is_object() const { return v_.IsObject(); }

  double number() const { return v_.As<Napi::Number>().DoubleValue(); }
  std::string string() const { return v_.As<Napi::String>().Utf8Value(); }
  bool boolean() const { return v_.As<Napi::Boolean>().Value(); }
  bool truthy() const { return v_.ToBoolean().Value(); }

  NapiValue get(const char* key) const { return v_.As<Napi::Object>().Get(key); }
  std::size_t length() const { return v_.As<Napi::Array>().Length(); }
  NapiValue at(std::size_t i) const { return v_.As<Napi::Array>().Get(static_cast<std::uint32_t>(i)); }

 private:
  Napi::Value v_;
};

} // namespace ach::binding
