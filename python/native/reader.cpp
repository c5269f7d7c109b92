// The compiled model and the batch options from Python objects: the Node addon's reader
// (native/binding/model_reader.hpp), the very same code, over Python values (py_value.hpp).
#include "model_reader.hpp"

#include "py_binding.hpp"
#include "py_value.hpp"

namespace ach::binding {

Model model_from_py(py::handle m, const std::string& root) {
  if (!PyDict_Check(m.ptr())) type_error(root + " must be a dict (the \"native\" object of achilles compile's JSON)");
  return read_model(PyValue(py::reinterpret_borrow<py::object>(m)), root);
}

BatchOptions options_from_py(py::handle o) {
  if (!PyDict_Check(o.ptr())) type_error("options must be a dict");
  return read_options(PyValue(py::reinterpret_borrow<py::object>(o)));
}

} // namespace ach::binding
