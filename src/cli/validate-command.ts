// `achilles validate`: the engine against MuJoCo and exact references, with planted bugs that
// every gate must catch. Exit 0 only if every gate passes and every planted bug is caught.

import { writeReport } from '../validation/report.js';
import { MujocoReference } from '../validation/mujoco-ref.js';
import { bugVerdict, runPasses, runSuite, summarize, unreachedBugs } from '../validation/suite.js';
import { suiteModels } from '../validation/models.js';
import { UsageError } from '../util/usage-error.js';
import { checkOutputDir } from '../reports/output-dir.js';
import { STAGES, type StageName } from '../validation/types.js';
import { formatSig, textTable } from '../reports/table.js';
import type { CommandSpec } from '../util/command-spec.js';
import { existsSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { largeModelOption } from './large-model-option.js';
import { loadScene } from '../model-files/scene/index.js';
import { importFixtures } from '../validation/import/stage.js';

export const validateCommand: CommandSpec = {
  name: 'validate',
  summary: 'Check the engine against MuJoCo and closed-form references; planted bugs must be caught',
  positionals: [],
  options: [
    { name: 'stage', arg: 'NAME', kind: { type: 'choice', choices: STAGES }, description: 'Run one stage only', defaultText: 'all stages' },
    {
      name: 'model',
      arg: 'NAME',
      kind: { type: 'list-string' },
      description:
        'Only this model: a scene base name (e.g. arm7), an import fixture (import:NAME), or a scene, MJCF or URDF file to validate',
      defaultText: 'every bundled and shared scene',
    },
    {
      name: 'states',
      arg: 'N',
      kind: { type: 'number', min: 1, max: 4096, integer: true },
      description: 'Random states per model and stage',
      default: 64,
    },
    {
      name: 'bug-states',
      arg: 'N',
      kind: { type: 'number', min: 1, max: 4096, integer: true },
      description: 'States per model in the planted-bug sweep (f64)',
      default: 16,
    },
    {
      name: 'seed',
      arg: 'N',
      kind: { type: 'number', min: 0, max: 4294967295, integer: true },
      description: 'Seed of the random states (failures replay with the same seed)',
      default: 1,
    },
    { name: 'skip-bugs', kind: { type: 'boolean' }, description: 'Skip the planted-bug sweep (the run then cannot pass)', default: false },
    { name: 'out', arg: 'DIR', kind: { type: 'string' }, description: 'Report directory', default: 'reports/validation' },
    {
      name: 'force',
      kind: { type: 'boolean' },
      description: 'Write into an --out directory that holds files achilles did not write (they are left as they are)',
      default: false,
    },
    { name: 'json', kind: { type: 'boolean' }, description: 'Print the gate summary as JSON on stdout', default: false },
    largeModelOption,
  ],
  examples: ['achilles validate', 'achilles validate --stage forward --model arm7 --model double-pendulum --json'],
  async run(_args, opts) {
    const stage = opts.stage as StageName | undefined;
    const given = opts.model as string[] | undefined;
    // Files (an .arow scene, MJCF or URDF, recognised by content) join the suite as extra models.
    const isFile = (m: string): boolean => existsSync(m) && statSync(m).isFile();
    const extra = (given ?? []).filter(isFile).map((f) => {
      const model = loadScene(f, { allowLarge: opts.yes === true });
      // The MuJoCo references are built from the model's MJCF export, which has no geom for a rounded
      // box (an imported cylinder or ellipsoid); the dynamics stages run without contacts, so such
      // shapes are left out, and said so.
      const rounded = (model.shapes ?? []).filter((s) => s.kind === 'rounded-box');
      if (rounded.length) {
        model.shapes = model.shapes!.filter((s) => s.kind !== 'rounded-box');
        process.stderr.write(
          `achilles validate: ${f}: ${rounded.length} rounded-box shape(s) (${rounded
            .map((s) => s.name)
            .slice(0, 4)
            .join(', ')}${rounded.length > 4 ? ', …' : ''}) left out: MJCF has no such geom\n`,
        );
      }
      return { name: basename(f), model };
    });
    const models = given?.filter((m) => !isFile(m));
    if (given?.length && models?.length === 0) models.push('(files only)');
    if (models?.length && !(models.length === 1 && models[0] === '(files only)')) {
      const known = [...suiteModels().map((m) => m.name), ...importFixtures().map((f) => f.name)];
      const unknown = models.filter((m) => !known.includes(m));
      if (unknown.length)
        throw new UsageError(
          `--model: ${unknown.map((m) => `'${m}'`).join(', ')} ${unknown.length > 1 ? 'are not models' : 'is not a model'} of the suite (models: ${known.join(', ')})`,
          'validate',
        );
    }
    const out = (opts.out as string | undefined) ?? 'reports/validation';
    const force = opts.force === true;
    checkOutputDir(out, { command: 'validate', force }); // before minutes of checking
    const ref = MujocoReference.open(); // fails early with install steps if python/mujoco are missing
    const json = opts.json === true;
    const result = await runSuite({
      stages: new Set(stage ? [stage] : STAGES),
      models: models && models.length ? new Set(models) : undefined,
      states: (opts.states as number | undefined) ?? 64,
      bugStates: (opts['bug-states'] as number | undefined) ?? 16,
      seed: (opts.seed as number | undefined) ?? 1,
      python: ref.python,
      bugs: opts['skip-bugs'] !== true,
      extra,
      log: json ? undefined : (line) => process.stderr.write(`${line}\n`),
    });
    result.mujocoVersion = ref.version;
    const gates = summarize(result);
    // A sweep that was not run, or that reached no bug, shows nothing: the run cannot pass without it.
    const pass = runPasses(result);
    await writeReport(result, out, force);
    if (json) {
      const stages = gates.map((g) => ({
        stage: g.stage,
        model: g.model,
        precision: g.precision,
        status: g.status,
        worstRatio: g.worstRatio,
        compared: g.compared,
        skipped: g.skipped,
        bugsPlanted: g.bugsPlanted,
        bugsJudged: g.bugsJudged,
        bugsCaught: g.bugsCaught,
      }));
      // Each planted bug: judged by this run or not ("reached"), whether a stage run targets it, caught
      // or not, and by which stages (gates as stage/model/precision).
      const bugs = result.bugs.map((b) => ({
        name: b.name,
        reached: b.reached,
        targeted: b.targeted,
        caught: b.reached && b.failed.length > 0,
        stages: [...new Set(b.failed.map((k) => k.split('/')[0]))],
        gates: b.failed,
      }));
      const bugSummary = {
        planted: result.bugs.length,
        reached: result.bugs.filter((b) => b.reached).length,
        caught: result.bugs.filter((b) => b.reached && b.failed.length).length,
        notReached: unreachedBugs(result),
        notTargeted: result.bugs.filter((b) => !b.targeted).map((b) => b.name),
        ...(result.bugTableStale?.length ? { bugTableStale: result.bugTableStale } : {}),
      };
      process.stdout.write(`${JSON.stringify({ stages, bugs, bugSummary, pass }, null, 2)}\n`);
    } else {
      // bugs: caught by this gate / judged by this run (a subset is judged only on the bugs its stages target)
      process.stdout.write(
        textTable(
          ['stage', 'model', 'prec', 'status', 'worst/bar', 'compared', 'skipped', 'bugs caught/judged'],
          gates.map((g) => [
            g.stage,
            g.model,
            g.precision,
            g.status,
            formatSig(g.worstRatio, 3),
            String(g.compared),
            String(g.skipped),
            `${g.bugsCaught}/${g.bugsJudged}`,
          ]),
        ),
      );
      const slowest = result.timings
        .slice(0, 4)
        .map((t) => `${t.phase} ${t.group} ${t.seconds.toFixed(0)} s`)
        .join(', ');
      process.stdout.write(`time: ${slowest} (summary.md lists every phase)\n`);
      process.stdout.write(`${bugVerdict(result)}; ${result.seconds.toFixed(1)} s; ${pass ? 'PASS' : 'FAIL'}\n`);
    }
    return pass ? 0 : 1;
  },
};
