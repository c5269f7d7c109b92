// The Python extension `achilles._native`: its parts and what they share. reader.cpp reads the
// compiled model and the batch options (the Node addon's reader, native/binding/model_reader.hpp,
// over Python values), batch.cpp is the NativeBatch class over a Batch (numpy views of its
// storage), module.cpp registers them with the free functions. Every C++ exception becomes a
// Python exception (ValueError for a malformed value, MemoryError for memory); nothing here aborts
// the interpreter.
#pragma once

#include <pybind11/pybind11.h>

#include <new>
#include <stdexcept>
#include <string>

#include "achilles/batch.hpp"

namespace ach::binding {

namespace py = pybind11;

/// The model from the object `achilles compile` writes under "native"; errors name the key path
/// under `root` (where the caller holds the object, e.g. "model['native']").
Model model_from_py(py::handle m, const std::string& root);
BatchOptions options_from_py(py::handle o);

/// Runs `f` and turns what the core throws into Python's exceptions: invalid_argument and other
/// std::exceptions into ValueError, bad_alloc into MemoryError; Python's own errors pass through.
template <class F>
auto python_errors(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const py::error_already_set&) {
    throw;
  } catch (const py::builtin_exception&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    throw py::value_error(e.what());
  }
}

/// Registers the NativeBatch class (batch.cpp).
void define_batch_class(py::module_& m);
/// Fills the module (module.cpp).
void define_module(py::module_& m);

} // namespace ach::binding
