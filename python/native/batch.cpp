// NativeBatch: owns a Batch and hands its state arrays to Python as numpy arrays over the same
// memory (no copy), as the Node addon's typed arrays are (native/binding/batch_class.cpp). Work that
// steps or evaluates runs without the GIL, so batches on several Python threads run in parallel;
// one batch's own calls take turns (a mutex), so two threads on one batch cannot corrupt it.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "py_binding.hpp"
#include "field_names.hpp"

namespace ach::binding {
namespace {

FieldId field_id(const std::string& name) {
  FieldId f;
  if (!field_by_name(name, f)) throw py::value_error("unknown field '" + name + "'");
  return f;
}

template <class T>
py::array_t<T> vector_array(const std::vector<T>& x, std::size_t cols) {
  const std::size_t rows = cols ? x.size() / cols : 0;
  py::array_t<T> a = cols == 1 ? py::array_t<T>(rows) : py::array_t<T>({rows, cols});
  if (!x.empty()) std::copy(x.begin(), x.end(), a.mutable_data());
  return a;
}

class PyBatch {
 public:
  PyBatch(py::handle model, py::handle options, const std::string& root) {
    Model m = python_errors([&] { return model_from_py(model, root); });
    const BatchOptions opt = python_errors([&] { return options_from_py(options); });
    python_errors([&] {
      py::gil_scoped_release free;
      batch_ = std::make_unique<Batch>(std::move(m), opt);
      return 0;
    });
  }

  /// step(n, hold) → (robot_steps, None or (step, robot, joint name) for the first non-finite state,
  /// None or (step, robot, actuator name, value) for a bad control that stopped the call before its
  /// first step: the step it would have taken, 0-based; nothing advanced).
  py::tuple step(std::int64_t n, bool hold) {
    if (n < 0 || n > static_cast<std::int64_t>(9e15)) throw py::value_error("step count must be a non-negative integer");
    const StepStats s = locked([&] { return batch_->step(n, false, hold); });
    py::object nf = py::none();
    if (s.nonfinite) nf = py::make_tuple(s.step, s.robot, batch_->model().joints[s.joint].name);
    py::object bad = py::none();
    if (s.bad_control) {
      const BadControl& c = s.bad_control;
      bad = py::make_tuple(batch_->steps(), c.robot, batch_->model().actuators[c.actuator].name, c.value);
    }
    return py::make_tuple(s.robot_steps, nf, bad);
  }
  void forward() {
    locked([&] { batch_->forward(); });
  }
  void constrain(bool record, const std::optional<std::vector<int>>& robots) {
    locked([&] { batch_->constrain(record, robots ? &*robots : nullptr); });
  }
  /// set_robot_model(robot, model): robot `robot` runs with `model`'s per-robot parameters
  /// (Batch::set_robot_model; a model that differs in more is refused naming the difference).
  void set_robot_model(int robot, py::handle model, const std::string& root) {
    if (robot < 0 || robot >= batch_->options().copies)
      throw py::value_error("set_robot_model: robot must be an integer from 0 to " + std::to_string(batch_->options().copies - 1));
    Model m = python_errors([&] { return model_from_py(model, root); });
    locked([&] { batch_->set_robot_model(robot, m); });
  }
  void observe() {
    locked([&] { batch_->observe(); });
  }
  void collide() {
    locked([&] { batch_->collide(); });
  }
  void sense() {
    locked([&] { batch_->sense(); });
  }
  void reset() {
    locked([&] { batch_->reset(); });
  }

  /// A numpy array over one field's storage, shape (count / stride, stride): component k of robot
  /// r at [k, r], as TypeScript's field[k * stride + r]. Its base holds a share of the storage, so
  /// the memory outlives the batch for as long as Python keeps the array.
  py::array field(const std::string& name) const {
    const FieldId f = field_id(name);
    const Storage& st = batch_->storage();
    const auto stride = static_cast<py::ssize_t>(st.stride);
    const auto rows = static_cast<py::ssize_t>(st.count[static_cast<int>(f)]) / stride;
    auto keep = std::make_unique<std::shared_ptr<Buffer>>(st.buffer);
    py::capsule owner(keep.get(), [](void* p) { delete static_cast<std::shared_ptr<Buffer>*>(p); });
    keep.release(); // the capsule owns it now
    const auto elem = static_cast<py::ssize_t>(st.elem);
    if (st.elem == 4) return py::array_t<float>({rows, stride}, {stride * elem, elem}, static_cast<float*>(st.ptr(f)), owner);
    return py::array_t<double>({rows, stride}, {stride * elem, elem}, static_cast<double*>(st.ptr(f)), owner);
  }

  /// contacts(robot) → one robot's active points from the last collide() or constrain(), as the Node
  /// addon's: shapeA, shapeB, point (int32), dist, and pos, normal, force as (n, 3) (float64).
  py::dict contacts(int robot) {
    if (robot < 0 || robot >= batch_->options().copies)
      throw py::value_error("contacts(robot): robot must be an integer from 0 to " + std::to_string(batch_->options().copies - 1));
    const ContactList c = locked([&] { return batch_->storage().contacts->contacts_of(robot); });
    py::dict o;
    o["shapeA"] = vector_array(c.shape_a, 1);
    o["shapeB"] = vector_array(c.shape_b, 1);
    o["point"] = vector_array(c.point, 1);
    o["dist"] = vector_array(c.dist, 1);
    o["pos"] = vector_array(c.pos, 3);
    o["normal"] = vector_array(c.normal, 3);
    o["force"] = vector_array(c.force, 3);
    return o;
  }

  py::dict info() const {
    py::dict o;
    const Model& m = batch_->model();
    o["stride"] = batch_->storage().stride;
    o["nq"] = m.nq;
    o["nv"] = m.nv;
    o["nu"] = m.actuators.size();
    int na = 0;
    for (const Actuator& a : m.actuators) na += a.stateful() ? 1 : 0;
    o["na"] = na;
    o["isa"] = isa_name(isa_for(batch_->options().precision, batch_->options().lanes));
    o["steps"] = batch_->steps();
    o["hasPairs"] = m.has_pairs;
    return o;
  }

 private:
  /// Runs f without the GIL and with this batch to itself; core errors become Python's.
  template <class F>
  auto locked(F&& f) -> decltype(f()) {
    return python_errors([&] {
      py::gil_scoped_release free;
      std::lock_guard<std::mutex> hold(mu_);
      return f();
    });
  }

  std::unique_ptr<Batch> batch_;
  std::mutex mu_;
};

} // namespace

void define_batch_class(py::module_& m) {
  py::class_<PyBatch>(m, "NativeBatch")
      .def(py::init<py::handle, py::handle, const std::string&>(), py::arg("model"), py::arg("options"), py::arg("root") = "model")
      .def("step", &PyBatch::step, py::arg("n") = 1, py::arg("hold") = false)
      .def("forward", &PyBatch::forward)
      .def("constrain", &PyBatch::constrain, py::arg("record") = false, py::arg("robots") = py::none())
      .def("set_robot_model", &PyBatch::set_robot_model, py::arg("robot"), py::arg("model"), py::arg("root") = "model")
      .def("observe", &PyBatch::observe)
      .def("collide", &PyBatch::collide)
      .def("sense", &PyBatch::sense)
      .def("reset", &PyBatch::reset)
      .def("field", &PyBatch::field, py::arg("name"))
      .def("contacts", &PyBatch::contacts, py::arg("robot"))
      .def("info", &PyBatch::info);
}

} // namespace ach::binding
