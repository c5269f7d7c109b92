"""Batch: many copies of one robot stepped together, one per SIMD lane, on the same native core as
the Node engine. It mirrors src/engine/batch.ts (its defaults, checks, step counter and the controls'
double buffer), so the same model, precision and lanes give the same numbers bit for bit.

State arrays are numpy views of the engine's memory (no copy), structure of arrays with shape
(n, stride): coordinate k of robot r is ``q[k, r]`` (TypeScript's ``q[k * stride + r]``); columns
r >= copies are padding lanes. A view keeps the memory alive after the batch is gone.
"""

from __future__ import annotations

import math
import os
from typing import Any

import numpy as np

from . import _native, _sensors
from ._compile import check_compiled, compile_model
from ._lanes import LANE_WIDTHS, PRECISIONS, lane_problem, register_lanes
from ._memory import ensure_memory
from ._model_door import compiled_of

INTEGRATORS = ("euler", "verlet", "midpoint", "rk4", "implicitfast")
SUBSTEPS_MAX = 1_000_000  # src/engine/world-limits.ts
MIDPOINT_ITERATIONS = 4  # the TypeScript Batch's default


class NonFiniteError(FloatingPointError):
    """A state turned NaN or infinite during step(): where and when (TypeScript's NonFiniteStateError)."""

    def __init__(self, step: int, robot: int, joint: str, time: float):
        super().__init__(
            f"the state became non-finite at step {step} (t = {time:.6f} s), robot {robot}, joint '{joint}'"
            " (the motion diverged: try a smaller --dt, more --substeps or another --integrator)"
        )
        self.step = step
        self.robot = robot
        self.joint = joint


MAX_CONTROL = 1e10  # MuJoCo's mjMAXVAL: its mju_isBad calls NaN and any magnitude above it bad


def is_bad_control(u: float) -> bool:
    """The one rule for a control in every door (TypeScript's isBadControl, the native step, the Gym
    envs): NaN or a magnitude above 1e10, ±inf included (MuJoCo's mju_isBad, which mj_fwdActuation
    applies; MuJoCo 3.14 also rejects a finite |u| > 1e10)."""
    return not abs(u) <= MAX_CONTROL


class NonFiniteControlError(ValueError):
    """step() found a bad control (NaN, ±inf or |u| > 1e10) of a robot before its first step, and took
    no step: the robot, the actuator's name, the step it would have taken and the value (TypeScript's
    NonFiniteControlError). Checked before the engine clamps controls to their ctrlrange, which would
    turn a NaN into a bound and hide it."""

    def __init__(self, step: int, robot: int, actuator: str, value: float, time: float):
        super().__init__(
            f"robot {robot}'s control of actuator '{actuator}' is {_js_number(value)} at step {step} (t = {time:.6f} s);"
            f" nothing was stepped (a control must be a finite number of magnitude at most 1e10, MuJoCo's"
            " mjMAXVAL; check what it was computed from, e.g. a sensor reading or a division)"
        )
        self.step = step
        self.robot = robot
        self.actuator = actuator
        self.value = value
        self.time = time


def _js_number(x: float) -> str:
    """NaN, Infinity, -Infinity as TypeScript's message writes them; other numbers as Python's repr."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return repr(x)


def _choose(what: str, value: Any, allowed: tuple) -> Any:
    if isinstance(value, bool) or value not in allowed:
        raise ValueError(f"{what} must be one of {', '.join(str(a) for a in allowed)} (got {value})")
    return value


def _positive_integer(what: str, value: Any, maximum: int = 10**9) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 1 <= value <= maximum:
        raise ValueError(f"{what} must be an integer from 1 to {maximum} (got {value})")
    return int(value)


class Batch:
    """``Batch(model, copies, precision='f32', lanes=None, threads=1, integrator=None, dt=None, record=False)``

    model: a scene file (.arow, MJCF, URDF; compile_model: the achilles CLI, or MuJoCo for MJCF without
    Node), a dict from compile_model or put_model, or a mujoco.MjModel (put_model).
    lanes: default the widest that fits one register of this CPU (as the TypeScript Batch). integrator and
    dt: default the model's. record: keep what MuJoCo's mjData holds after mj_step (last_evaluation()).
    """

    def __init__(
        self,
        model: str | os.PathLike | dict | Any,
        copies: int,
        precision: str = "f32",
        lanes: int | None = None,
        threads: int = 1,
        integrator: str | None = None,
        dt: float | None = None,
        record: bool = False,
    ):
        doc = compiled_of(model)
        check_compiled(doc)
        world = doc["world"]
        self.model = doc
        self.copies = _positive_integer("copies", copies, 1 << 24)
        self.precision = _choose("precision", precision, PRECISIONS)
        cpu = _native.cpu_info()
        self.lanes = _choose("lanes", register_lanes(cpu, self.precision) if lanes is None else lanes, LANE_WIDTHS)
        problem = lane_problem(cpu, self.precision, self.lanes)
        if problem:
            raise ValueError(f"lanes: {problem}")
        self.integrator = _choose("integrator", world["integrator"] if integrator is None else integrator, INTEGRATORS)
        self.dt = float(world["dt"] if dt is None else dt)
        if not (self.dt > 0) or not math.isfinite(self.dt):
            raise ValueError(f"dt must be a positive number of seconds (got {self.dt})")
        substeps = _positive_integer("substeps", world["substeps"], SUBSTEPS_MAX)
        self.threads = _positive_integer("threads", threads, 256)
        options = {
            "precision": self.precision,
            "lanes": self.lanes,
            "copies": self.copies,
            "integrator": self.integrator,
            "dt": self.dt,
            "substeps": substeps,
            "midpointIterations": MIDPOINT_ITERATIONS,
            "threads": self.threads,
            "record": bool(record),
        }
        self.record = bool(record)
        root = "model['native']"
        name = doc.get("name", "model")
        ensure_memory(
            _native.storage_bytes(doc["native"], options, root),
            f"a batch of {self.copies} {name} robots in {self.precision}",
            "use fewer copies",
        )
        self._native = _native.NativeBatch(doc["native"], options, root)
        info = self._native.info()
        self.stride: int = info["stride"]
        self.nq: int = info["nq"]
        self.nv: int = info["nv"]
        self.nu: int = info["nu"]
        self.na: int = info["na"]
        self.isa: str = info["isa"]
        self.has_pairs: bool = info["hasPairs"]
        self._steps = 0
        self._q = self._native.field("q")
        self._v = self._native.field("v")
        self._tau = self._native.field("tau")
        self._qacc = self._native.field("qacc")
        ctrl = self._native.field("ctrl")
        self._ctrl_halves = (ctrl[: self.nu], ctrl[self.nu : 2 * self.nu])
        self._actuator_force = self._native.field("actuatorForce")
        self._ctrl_target = self._native.field("ctrlTarget")
        self._act = self._native.field("act")
        self._qacc_warm = self._native.field("qaccWarm")
        self._record_views: dict[str, np.ndarray] | None = None

    # ---- state (views of the engine's memory) -------------------------------------------------
    @property
    def q(self) -> np.ndarray:
        """Positions, (nq, stride)."""
        return self._q

    @property
    def v(self) -> np.ndarray:
        """Velocities, (nv, stride)."""
        return self._v

    @property
    def tau(self) -> np.ndarray:
        """Constant generalized forces applied every step, (nv, stride)."""
        return self._tau

    @property
    def qacc(self) -> np.ndarray:
        """Accelerations of the last step or forward(), (nv, stride)."""
        return self._qacc

    @property
    def ctrl(self) -> np.ndarray:
        """The controls the next step reads, (nu, stride). The halves swap at every step and the step
        clears the half it does not read, so a control written now acts over exactly the next step:
        take this view again after every step (it alternates between the two halves)."""
        return self._ctrl_halves[self._steps % 2]

    def control_halves(self) -> tuple[np.ndarray, np.ndarray]:
        """Both control halves (the step with index s reads half s % 2)."""
        return self._ctrl_halves

    @property
    def act(self) -> np.ndarray:
        """Activations of the general actuators with dynamics, (na, stride); 0 at reset."""
        return self._act

    @property
    def qacc_warm(self) -> np.ndarray:
        """The constraint solver's warm start, the last step's accelerations (MuJoCo's qacc_warmstart),
        (nv, stride); no rows for a model without constraints. An env reset zeroes its column, as
        mj_resetData does."""
        return self._qacc_warm

    @property
    def actuator_force(self) -> np.ndarray:
        """Each actuator's force at the last step's start, (nu, stride)."""
        return self._actuator_force

    @property
    def ctrl_target(self) -> np.ndarray:
        """Each servo's rate-limited target (state), (nu, stride)."""
        return self._ctrl_target

    @property
    def body_pos(self) -> np.ndarray:
        """World position of every body at the current state, (nbody * 3, stride): row i * 3 + c.
        Computed on access (TypeScript's kinematics()); the view is the engine's memory."""
        return self.kinematics()[0]

    @property
    def body_rot(self) -> np.ndarray:
        """R_WB of every body at the current state, row-major, (nbody * 9, stride): row i * 9 + c.
        Computed on access, as body_pos."""
        return self.kinematics()[1]

    def last_evaluation(self) -> dict[str, np.ndarray]:
        """With record=True: what MuJoCo's mjData holds after mj_step, from the last acceleration
        evaluation of the last step() call (RK4: its fourth stage; Euler: the state the step started
        from) or of constrain() (as mj_forward): views of the engine's memory, each (rows, stride):
        body_pos (nbody * 3: xpos of every body's frame), body_rot (nbody * 9: xmat, row-major),
        body_vel (nbody * 6: [ω; v] in the body's axes, v its frame origin's), qfrc_actuator (nv),
        cfrc_ext (nbody * 6: [torque; force] of the contacts, world-oriented, about the subtree
        centre of mass of the body's tree, as mj_rnePostConstraint), qfrc_constraint (nv), and
        MuJoCo's com-based quantities of each body: xipos (nbody * 3: its centre of mass), cinert
        (nbody * 10: mj_comPos's) and cvel (nbody * 6: mj_comVel's)."""
        if not self.record:
            raise ValueError("last_evaluation() needs a batch made with record=True")
        if self._record_views is None:  # the record's memory is the batch's for its life: made once
            self._record_views = self._record_fields()
        return dict(self._record_views)

    def _record_fields(self) -> dict[str, np.ndarray]:
        f = self._native.field
        return {
            "body_pos": f("recordBodyPos"),
            "body_rot": f("recordBodyRot"),
            "body_vel": f("recordBodyVel"),
            "cfrc_ext": f("cfrcExt"),
            "qfrc_constraint": f("qfrcConstraint"),
            "qfrc_actuator": f("qfrcActuator"),
            "xipos": f("recordXipos"),
            "cinert": f("recordCinert"),
            "cvel": f("recordCvel"),
        }

    def kinematics(self) -> tuple[np.ndarray, np.ndarray]:
        """Every body's world pose at the current state: (body_pos, body_rot) views."""
        self._native.observe()
        return self._native.field("bodyPos"), self._native.field("bodyRot")

    @property
    def steps(self) -> int:
        """Steps taken since the batch was made or last reset."""
        return self._steps

    @property
    def time(self) -> float:
        return self._steps * self.dt

    # ---- stepping -------------------------------------------------------------------------------
    def step(self, n: int = 1, hold_controls: bool = False) -> None:
        """Advance every robot n steps (without the GIL: other Python threads run meanwhile). Raises
        NonFiniteControlError (step, robot, actuator), having stepped nothing, if a robot's control is
        NaN, ±inf or of magnitude above 1e10, and NonFiniteError (step, robot, joint) if a state becomes
        NaN or infinite. With hold_controls, the
        controls written before the call act over all n steps (a frame skip, as MuJoCo's mj_step with
        nstep = n), and the batch is left as n single steps with those controls written before each
        would leave it; without, they act over the first step only (see `ctrl`)."""
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
            raise ValueError(f"step count must be a non-negative integer (got {n!r})")
        n = int(n)
        _, nonfinite, bad_control = self._native.step(n, bool(hold_controls))
        if bad_control is not None:  # the native step refused before its first step: nothing advanced
            step, robot, actuator, value = bad_control
            raise NonFiniteControlError(step, robot, actuator, value, step * self.dt)
        self._steps += n
        if nonfinite is not None:
            step, robot, joint = nonfinite
            raise NonFiniteError(step, robot, joint, step * self.dt)

    def forward(self) -> None:
        """qacc at the current state as the next step starts from it (MuJoCo's mj_forward: with
        constraints, detection and the solve too; contacts() then lists the points and forces)."""
        self._native.constrain()

    def forward_unconstrained(self) -> None:
        """qacc = M^-1 (tau - bias) with every constraint ignored (MuJoCo's qacc_smooth)."""
        self._native.forward()

    def constrain(self, record: bool = False, robots=None) -> None:
        """Detection and the constraint solve at the current state (what forward() runs). With record
        (a record=True batch): last_evaluation() then holds this evaluation's fields, as mj_forward
        leaves mjData (cfrc_ext included: mj_forward itself does not compute it). With robots (indices):
        only the blocks of lanes that hold them are evaluated; the other blocks keep what they hold."""
        self._native.constrain(bool(record), None if robots is None else [int(r) for r in robots])

    def collide(self) -> None:
        """Contacts of every robot at the current state, without forces (contacts() lists them)."""
        self._native.collide()

    def reset(self) -> None:
        """Every robot back at the model's initial state, and the step counter at 0."""
        self._native.reset()
        self._steps = 0

    @property
    def sensordata(self) -> np.ndarray:
        """MuJoCo's sensordata of an imported MJCF model at the current state, as mj_forward leaves it:
        (nsensordata, stride), robot r in column r, sensor i at rows adr .. adr + dim (the compiled
        model's names['sensors']: name, type, adr, dim, cutoff, noise; noise is MuJoCo's metadata, not
        added). Computed on access from the engine's evaluation of the state (sense(); the contact
        solve too where touch, force or torque sensors read it: the next step is unchanged); force and
        torque sensors need a batch made with record=True. Empty (0 rows) without MJCF sensors."""
        sensors = self.model.get("mjcfSensors") or []
        if not sensors:
            return np.zeros((0, self._native.field("q").shape[1]))
        f = self._native.field
        self._native.sense()
        inp = {"q": f("q"), "v": f("v"), "body_pos": f("bodyPos"), "body_rot": f("bodyRot"), "body_vel": f("bodyVel"),
               "body_acc": f("bodyAcc")}
        types = {x["type"] for x in sensors}
        if types & {"force", "torque"}:
            if not self.record:
                raise ValueError("force and torque sensors need a batch made with record=True (the contact wrenches of mj_rnePostConstraint)")
            self._native.constrain(True, None)  # after sense(): the same warm start, so the same solve
            inp["cfrc_ext"] = f("cfrcExt")
        elif "touch" in types:
            self._native.constrain(False, None)
        inp["contacts"] = self._native.contacts
        inp["actuator_force"] = f("actuatorForceNow")
        pos, rot = np.asarray(inp["body_pos"], dtype=np.float64), np.asarray(inp["body_rot"], dtype=np.float64)
        xipos = np.empty_like(pos)
        for l, b in enumerate(self.model["native"]["bodies"]):
            c = b["com"]
            for i in range(3):
                xipos[3 * l + i] = pos[3 * l + i] + rot[9 * l + 3 * i] * c[0] + rot[9 * l + 3 * i + 1] * c[1] + rot[9 * l + 3 * i + 2] * c[2]
        inp["xipos"] = xipos
        inp["q"], inp["v"] = np.asarray(inp["q"], dtype=np.float64), np.asarray(inp["v"], dtype=np.float64)
        try:  # the engine's own sensor pass (an extension built without it has no such field)
            inp["native"] = np.asarray(f("mjcfSensorData"), dtype=np.float64)
        except (KeyError, ValueError, RuntimeError):
            pass
        return _sensors.sensordata(self.model, inp, self.copies)

    def contacts(self, robot: int) -> dict[str, np.ndarray]:
        """Robot `robot`'s active contact points from the last collide(), constrain() or forward(),
        as the Node binding's: shapeA, shapeB, point (int32); dist; pos, normal, force (n, 3)."""
        self._check_robot(robot)
        return self._native.contacts(int(robot))

    def set_robot_model(self, robot: int, model: str | os.PathLike | dict) -> None:
        """Robot `robot` runs from now on with `model`'s per-robot parameters (gravity, masses, centres of
        mass and inertias, joint damping and armature, shape frictions, actuator gains and control
        ranges), in its own SIMD lane; its state is kept. `model`: a scene file, a dict from
        compile_model or put_model, or a mujoco.MjModel. A model that differs from the batch's in anything else raises ValueError naming
        the first difference (TypeScript's Batch.setRobotModel)."""
        self._check_robot(robot)
        doc = compiled_of(model)
        check_compiled(doc)
        self._native.set_robot_model(int(robot), doc["native"], "model['native']")

    def set_robot_parameters(self, parameters: dict[int, dict[str, float]]) -> None:
        """Each robot r of `parameters` runs with its values written into the batch's model, by the names
        a sweep's randomize.model uses: ``{3: {"mass_scale:torso": 1.2, "friction:ground": 0.6}}``
        (TypeScript's setNamedParameters). The models are compiled by one call of the achilles CLI from
        the batch's scene file; a name the model lacks or a value that would make it invalid raises
        ModelError naming it."""
        robots = list(parameters)
        for r in robots:
            self._check_robot(r)
        source = self.model.get("source")
        if not isinstance(source, str):
            raise ValueError("set_robot_parameters needs the batch's scene file (model['source']); use set_robot_model")
        docs = compile_model(source, parameters=[dict(parameters[r]) for r in robots])
        for r, doc in zip(robots, docs):
            self.set_robot_model(r, doc)

    def _check_robot(self, r: Any) -> None:
        if isinstance(r, bool) or not isinstance(r, (int, np.integer)) or not 0 <= r < self.copies:
            raise ValueError(f"robot {r} is out of range 0..{self.copies - 1}")
