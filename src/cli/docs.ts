// `achilles docs`: the flag reference in Markdown, generated from the same CommandSpec table
// that drives parsing and --help, so the reference (docs/cli.md) cannot drift from the real CLI
// (a test compares docs/cli.md against this output).

import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../reports/atomic.js';
import { allowedText, defaultText } from './options.js';
import type { CommandSpec } from '../util/command-spec.js';
import { UsageError } from '../util/usage-error.js';

export const REFERENCE_START = '<!-- cli-reference:start -->';
export const REFERENCE_END = '<!-- cli-reference:end -->';

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

function usageLine(spec: CommandSpec, name: string): string {
  const pos = spec.positionals.map((p) => (p.required ? p.name.toUpperCase() : `[${p.name.toUpperCase()}]`));
  return ['achilles', name, ...pos, spec.options.length ? '[options]' : ''].filter(Boolean).join(' ');
}

/** A command's section, then one per subcommand (`achilles sweep merge`). */
function commandMarkdown(spec: CommandSpec, name = spec.name): string {
  const lines: string[] = [`### \`achilles ${name}\``, '', spec.summary, '', '```', usageLine(spec, name), '```', ''];
  if (spec.positionals.length) {
    for (const p of spec.positionals) lines.push(`- \`${p.name.toUpperCase()}\`${p.required ? '' : ' (optional)'}: ${p.description}`);
    lines.push('');
  }
  if (spec.options.length) {
    lines.push('| Option | Values | Default | Description |', '|---|---|---|---|');
    for (const o of spec.options) {
      const flag = (o.short ? `-${o.short}, ` : '') + (o.kind.type === 'boolean' ? `--${o.name}` : `--${o.name} ${o.arg ?? 'VALUE'}`);
      // Literal defaults in code font; prose ("the scene's") as plain text.
      const def = o.defaultText !== undefined ? cell(o.defaultText) : o.default !== undefined ? `\`${cell(defaultText(o))}\`` : '';
      lines.push(`| \`${flag}\` | ${cell(allowedText(o.kind))} | ${def} | ${cell(o.description)} |`);
    }
    lines.push('');
  }
  if (spec.examples.length) lines.push('Examples:', '', '```sh', ...spec.examples, '```', '');
  return [lines.join('\n'), ...(spec.subcommands ?? []).map((sub) => commandMarkdown(sub, `${name} ${sub.name}`))].join('\n');
}

/** The whole reference: every command, then exit codes. Ends with one newline. */
export function referenceMarkdown(specs: readonly CommandSpec[]): string {
  const parts = [...specs].map((s) => commandMarkdown(s));
  parts.push(
    [
      '### Exit codes',
      '',
      '| Code | Meaning |',
      '|---|---|',
      '| 0 | success |',
      '| 1 | failure (bad scene file, diverged simulation, failed check, I/O error) |',
      '| 2 | usage error (unknown flag, bad flag value, missing argument) |',
      '| 130 | interrupted by Ctrl-C (SIGINT); no output files were written |',
      '',
    ].join('\n'),
  );
  return parts.join('\n');
}

/** `text` with the part between the reference markers replaced by `reference`. */
export function spliceReference(text: string, reference: string, file = 'docs/cli.md'): string {
  const a = text.indexOf(REFERENCE_START);
  const b = text.indexOf(REFERENCE_END);
  if (a < 0 || b < a) throw new Error(`${file} has no ${REFERENCE_START} ... ${REFERENCE_END} section`);
  return `${text.slice(0, a + REFERENCE_START.length)}\n${reference}${text.slice(b)}`;
}

/** The reference currently between the markers (null if the markers are missing). */
export function extractReference(text: string): string | null {
  const a = text.indexOf(REFERENCE_START);
  const b = text.indexOf(REFERENCE_END);
  if (a < 0 || b < a) return null;
  return text.slice(a + REFERENCE_START.length + 1, b);
}

/** The docs command; `all` returns every registered command (docs included) at run time. */
export function makeDocsCommand(all: () => readonly CommandSpec[]): CommandSpec {
  return {
    name: 'docs',
    summary: 'Print the command-line reference in Markdown (docs/cli.md is generated from it).',
    positionals: [],
    options: [
      {
        name: 'write',
        arg: 'FILE',
        kind: { type: 'string' },
        description: 'Instead of printing, replace the reference between the cli-reference start and end markers in FILE (atomically).',
      },
    ],
    examples: ['achilles docs > cli-reference.md', 'achilles docs --write docs/cli.md'],
    async run(_args, opts) {
      const reference = referenceMarkdown(all());
      const file = opts.write as string | undefined;
      if (file === undefined) {
        process.stdout.write(reference);
        return 0;
      }
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (e) {
        throw new UsageError(`--write: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? String(e)})`, 'docs');
      }
      await writeFileAtomic(file, spliceReference(text, reference, file));
      process.stderr.write(`achilles docs: updated the reference in ${file}\n`);
      return 0;
    },
  };
}
