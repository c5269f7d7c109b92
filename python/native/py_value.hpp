// The model reader's view of a Python value (native/binding/model_reader.hpp lists what the adapter
// answers), so the Python package runs the very reader the Node addon runs. The model object comes
// from JSON (`achilles compile`), so values map as json.loads makes them: dict = object, list =
// array, None = null, a missing key = undefined. Beyond JSON's kinds it takes what a Python user
// passes for the same thing: tuples and other sequences (numpy arrays) as arrays, numpy scalars as
// numbers. bool is never a number (JavaScript's true is not one either). Called with the GIL held.
#pragma once

#include <pybind11/pybind11.h>

#include <cstddef>
#include <string>

namespace ach::binding {

namespace py = pybind11;

class PyValue {
 public:
  /// An absent value (JavaScript's undefined).
  PyValue() = default;
  explicit PyValue(py::object o) : o_(std::move(o)) {}

  bool is_undefined() const { return !o_; }
  bool is_null() const { return o_ && o_.is_none(); }
  bool is_number() const {
    if (!o_ || PyBool_Check(o_.ptr())) return false;
    if (PyFloat_Check(o_.ptr())) return true;
    if (PyLong_Check(o_.ptr())) return fits_double();
    return is_real_scalar();
  }
  bool is_string() const { return o_ && PyUnicode_Check(o_.ptr()); }
  bool is_boolean() const { return o_ && PyBool_Check(o_.ptr()); }
  bool is_array() const {
    if (!o_ || PyUnicode_Check(o_.ptr()) || PyBytes_Check(o_.ptr()) || PyByteArray_Check(o_.ptr()) || PyDict_Check(o_.ptr())) return false;
    return PySequence_Check(o_.ptr()) && PyObject_HasAttrString(o_.ptr(), "__len__");
  }
  /// An object or an array, as JavaScript's typeof (the reader only asks before it reads keys).
  bool is_object() const { return o_ && (PyDict_Check(o_.ptr()) || is_array()); }

  double number() const {
    const double x = PyFloat_AsDouble(o_.ptr());
    if (x == -1.0 && PyErr_Occurred()) throw py::error_already_set();
    return x;
  }
  /// UTF-8, with what cannot be encoded (lone surrogates) replaced, as Napi's Utf8Value does.
  std::string string() const {
    py::object b = py::reinterpret_steal<py::object>(PyUnicode_AsEncodedString(o_.ptr(), "utf-8", "replace"));
    if (!b) throw py::error_already_set();
    return std::string(PyBytes_AS_STRING(b.ptr()), static_cast<std::size_t>(PyBytes_GET_SIZE(b.ptr())));
  }
  bool boolean() const { return o_.ptr() == Py_True; }
  /// Python's truth, which for JSON's values is JavaScript's ToBoolean but for [] and {} (false
  /// here, true there); an object without a truth value (a numpy array) counts as true, as objects do.
  bool truthy() const {
    const int t = PyObject_IsTrue(o_.ptr());
    if (t < 0) {
      PyErr_Clear();
      return true;
    }
    return t == 1;
  }

  PyValue get(const char* key) const {
    if (!o_ || !PyDict_Check(o_.ptr())) return PyValue();
    PyObject* v = PyDict_GetItemString(o_.ptr(), key); // borrowed; NULL when absent
    return v ? PyValue(py::reinterpret_borrow<py::object>(v)) : PyValue();
  }
  std::size_t length() const {
    const Py_ssize_t n = PySequence_Size(o_.ptr());
    if (n < 0) throw py::error_already_set();
    return static_cast<std::size_t>(n);
  }
  PyValue at(std::size_t i) const {
    PyObject* v = PySequence_GetItem(o_.ptr(), static_cast<Py_ssize_t>(i)); // new reference
    if (!v) throw py::error_already_set();
    return PyValue(py::reinterpret_steal<py::object>(v));
  }

 private:
  /// An int a double holds (ints past 1.8e308 are not numbers: the message then names the key).
  bool fits_double() const {
    PyLong_AsDouble(o_.ptr());
    if (!PyErr_Occurred()) return true;
    PyErr_Clear();
    return false;
  }
  /// A numpy (or other) scalar registered as numbers.Real, as np.float32 and np.int64 are.
  bool is_real_scalar() const {
    static PyObject* real = [] {
      py::object r = py::module_::import("numbers").attr("Real");
      return r.release().ptr(); // kept for the process's life: no destructor after finalization
    }();
    const int r = PyObject_IsInstance(o_.ptr(), real);
    if (r < 0) PyErr_Clear();
    return r == 1;
  }

  py::object o_;
};

} // namespace ach::binding
