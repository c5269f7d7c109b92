// `achilles view RUN_DIR`: the flag table. The work lives in src/viewer/.

import type { CommandSpec } from '../util/command-spec.js';

export const viewCommand: CommandSpec = {
  name: 'view',
  summary:
    'Write replay.html for a run recorded with `achilles run --html` (a self-contained 3-D replay that opens offline in any browser), optionally a PNG filmstrip of a few frames rendered by headless Chromium; with --open, also open the page in the desktop browser.',
  positionals: [{ name: 'run-dir', description: 'the output directory of an earlier `achilles run --html`', required: true }],
  options: [
    {
      name: 'filmstrip',
      arg: 'N',
      kind: { type: 'number', integer: true, min: 0, max: 12 },
      default: 0,
      description:
        'Also write replay-filmstrip.png: N frames spread over the run, side by side (needs Chromium: apt-get install chromium).',
    },
    {
      name: 'open',
      kind: { type: 'boolean' },
      default: false,
      description: 'Open the page in the desktop browser (xdg-open / open), where there is one.',
    },
  ],
  examples: ['achilles view reports/run/double-pendulum-euler-f64', 'achilles view reports/run/double-pendulum-euler-f64 --filmstrip 5'],
  async run([dir], opts) {
    const { viewRun } = await import('../viewer/view.js');
    return viewRun(dir, { filmstrip: (opts.filmstrip as number | undefined) ?? 0, open: opts.open === true });
  },
};
