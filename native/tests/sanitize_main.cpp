// The sanitizer run: every model given on the command line (text form, model_text.hpp) is stepped,
// collided and, when constrained, asked for robot 0's constraint rows, at every lane width and
// precision this CPU supports, with 2 worker threads, in a
// build with AddressSanitizer + UndefinedBehaviorSanitizer (CMake option ACHILLES_SANITIZE; run by
// scripts/sanitize-native.sh). Any report aborts with a non-zero status; prints one line per run.
#include <cstdio>
#include <exception>

#include "achilles/batch.hpp"
#include "achilles/collision/pair_filter.hpp"
#include "model_text.hpp"

// 8 rounds of 5 steps (0.08 s at 2 ms): every pass and the solver run on every configuration, and
// the contact scenes start touching; more steps repeat the same code (box-stack and the dominoes
// took 200 s and 330 s at 200 steps under ASan).
constexpr int kRounds = 8;
constexpr int kStepsPerRound = 5;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: achilles_sanitize MODEL.txt...\n");
    return 2;
  }
  int runs = 0;
  for (int i = 1; i < argc; ++i) {
    try {
      const ach::Model model = ach_test::read_model(argv[i]);
      for (ach::Precision prec : {ach::Precision::F32, ach::Precision::F64})
        for (int lanes : {1, 4, 8, 16}) {
          if (!ach::cpu_supports(ach::isa_for(prec, lanes))) continue;
          for (ach::Integrator integ : {ach::Integrator::Euler, ach::Integrator::Rk4, ach::Integrator::ImplicitFast}) {
            ach::BatchOptions opt;
            opt.precision = prec;
            opt.lanes = lanes;
            opt.copies = 2 * lanes + 3; // a partial last block
            opt.threads = 2;
            opt.integrator = integ;
            // implicitfast refuses what MuJoCo's qDeriv would give differently (a velocity-dependent
            // tendon actuator across branches, a fluid): that refusal is the engine's answer, said here
            if (integ == ach::Integrator::ImplicitFast) try {
                ach::Batch probe(model, opt);
              } catch (const std::invalid_argument& e) {
                std::printf("%s: %s lanes %d implicitfast: refused by the engine (%s)\n", argv[i], prec == ach::Precision::F32 ? "f32" : "f64", lanes,
                            e.what());
                continue;
              }
            ach::Batch batch(model, opt);
            std::int64_t contacts = 0;
            std::int64_t rows[6] = {0, 0, 0, 0, 0, 0}; // constraint rows on, by kind (ConstraintRowReport::kind)
            for (int k = 0; k < kRounds; ++k) {
              batch.step(kStepsPerRound);
              batch.collide();
              batch.observe();
              batch.forward();
              for (int r = 0; r < opt.copies; ++r) contacts += static_cast<std::int64_t>(batch.storage().contacts->contacts_of(r).dist.size());
              // Robot 0's rows at this state (the validation diagnostic, also under the sanitizers).
              if (model.constrained())
                for (const ach::ConstraintRowReport& r : batch.constraint_report(0, model.solver_iterations, true).rows) ++rows[r.kind];
            }
            std::printf(
                "%s: %s lanes %d %s: %zu candidate pairs, %lld active contact points over %d collides; robot 0's rows on: %lld limit, %lld contact, "
                "%lld friction, %lld tendon-limit, %lld tendon-friction, %lld equality\n",
                argv[i], prec == ach::Precision::F32 ? "f32" : "f64", lanes,
                integ == ach::Integrator::Euler ? "euler"
                : integ == ach::Integrator::Rk4 ? "rk4"
                                                : "implicitfast",
                ach::candidate_pairs(model).size(), static_cast<long long>(contacts), kRounds, static_cast<long long>(rows[0]),
                static_cast<long long>(rows[1]), static_cast<long long>(rows[2]), static_cast<long long>(rows[3]), static_cast<long long>(rows[4]),
                static_cast<long long>(rows[5]));
            ++runs;
          }
        }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s: %s\n", argv[i], e.what());
      return 1;
    }
  }
  std::printf("sanitize: %d runs clean\n", runs);
  return 0;
}
