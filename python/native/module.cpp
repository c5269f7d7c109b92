// The module `achilles._native`: the NativeBatch class (batch.cpp) and the free functions the
// Python Batch needs before it makes one (CPU features for its default lanes, storage size for
// its memory check). The Python API itself is src/achilles/ (Python), mirroring src/engine/batch.ts.
#include "py_binding.hpp"

namespace ach::binding {
namespace {

py::dict cpu_info() {
  py::dict o;
  o["sse2"] = cpu_supports(Isa::Sse2);
  o["avx2"] = cpu_supports(Isa::Avx2);
  o["avx512"] = cpu_supports(Isa::Avx512);
  o["widestLanes"] = widest_lanes();
  return o;
}

/// Bytes of a batch's state storage for (model, options), computed without allocating it.
std::size_t batch_bytes(py::handle model, py::handle options, const std::string& root) {
  Model m = python_errors([&] { return model_from_py(model, root); });
  const BatchOptions opt = python_errors([&] { return options_from_py(options); });
  return python_errors([&] { return storage_bytes(m, opt); });
}

} // namespace

void define_module(py::module_& m) {
  m.doc() = "Achilles' native core (the same sources as the Node addon): see the achilles package";
  define_batch_class(m);
  m.def("cpu_info", &cpu_info);
  m.def("storage_bytes", &batch_bytes, py::arg("model"), py::arg("options"), py::arg("root") = "model");
}

} // namespace ach::binding

PYBIND11_MODULE(_native, m) { ach::binding::define_module(m); }
