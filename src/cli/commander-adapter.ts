// CommandSpec table → commander program. Commander does the tokenizing (flags, positionals,
// unknown-flag suggestions, help layout); every value is then checked by options.ts so the
// messages and the exit code (2) are the same for every kind of mistake.

import { Command, CommanderError, Option, type OutputConfiguration } from 'commander';
import { allowedText, defaultText, parseOptionValues, type RawOptions } from './options.js';
import type { CommandSpec, OptionSpec } from '../util/command-spec.js';
import { UsageError } from '../util/usage-error.js';

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

/** Help line for one option: description, allowed values, default. */
export function optionHelp(o: OptionSpec): string {
  const allowed = allowedText(o.kind);
  const def = defaultText(o);
  return [o.description, allowed && `(${allowed})`, def && `[default: ${def}]`].filter(Boolean).join(' ');
}

function flagsOf(o: OptionSpec): string {
  const short = o.short ? `-${o.short}, ` : '';
  if (o.kind.type === 'boolean') return `${short}--${o.name}`;
  return `${short}--${o.name} <${o.arg ?? 'VALUE'}>`;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export interface ProgramResult {
  /** Set by the action that ran; undefined if commander handled everything (help, version). */
  code?: number;
}

/**
 * Build the program. `result.code` receives the exit code of the command that ran.
 * `active.name` tracks the command being parsed, so usage errors can point at its `--help`.
 */
export function buildProgram(
  specs: readonly CommandSpec[],
  version: string,
  io: Io,
  result: ProgramResult,
  active: { name?: string },
): Command {
  const output = {
    writeOut: (s: string) => io.out(s),
    writeErr: (s: string) => io.err(s),
    // Errors are rethrown (exitOverride) and printed by main in one format; don't print here.
    outputError: () => undefined,
  };
  const program = new Command('achilles')
    .description('Batched SIMD articulated-body simulator: run scenes, validate the engine, benchmark it against MuJoCo.')
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .configureOutput(output)
    .exitOverride()
    .showSuggestionAfterError(true)
    .helpCommand(false)
    // The options after a command's name are that command's (and a subcommand's options after its
    // name its own): without this, `sweep merge DIR --shards 3` gave --shards to `sweep`.
    .enablePositionalOptions();
  // Record which command is being parsed before commander can raise a usage error for it.
  program.hook('preSubcommand', (_program, sub) => {
    active.name = sub.name();
  });

  for (const spec of specs) program.addCommand(makeCommand(spec, spec.name, output, result, active));
  return program;
}

/** One command (and its subcommands, named `parent sub` in messages). */
function makeCommand(
  spec: CommandSpec,
  fullName: string,
  output: OutputConfiguration,
  result: ProgramResult,
  active: { name?: string },
): Command {
  const cmd = new Command(spec.name)
    .description(spec.summary)
    .helpOption('-h, --help', 'show help')
    .configureOutput(output)
    .exitOverride()
    .showSuggestionAfterError(true);
  for (const p of spec.positionals) cmd.argument(p.required ? `<${p.name}>` : `[${p.name}]`, p.description);
  const attr = new Map<string, string>();
  for (const o of spec.options) {
    const opt = new Option(flagsOf(o), optionHelp(o));
    if (o.kind.type === 'list-string') opt.argParser(collect);
    attr.set(o.name, opt.attributeName());
    cmd.addOption(opt);
  }
  if (spec.examples.length) cmd.addHelpText('after', `\nExamples:\n${spec.examples.map((e) => `  ${e}`).join('\n')}\n`);
  cmd.action(async (...args: unknown[]) => {
    // commander passes the positionals, then the options object, then the command.
    const positionals = args.slice(0, spec.positionals.length).filter((a): a is string => typeof a === 'string');
    const given = cmd.opts() as Record<string, unknown>;
    const raw: RawOptions = {};
    for (const [name, key] of attr) raw[name] = given[key] as RawOptions[string];
    const parsed = parseOptionValues(spec.options, raw);
    result.code = await spec.run(positionals, parsed);
  });
  if (spec.subcommands?.length) {
    // A first argument naming a subcommand runs it; any other is this command's own positional. The
    // options after a subcommand's name are its own (`sweep merge DIR --shards 3`), even where
    // this command has one of the same name (positional options, here and on the program).
    cmd.helpCommand(false).enablePositionalOptions();
    cmd.hook('preSubcommand', (_cmd, sub) => {
      active.name = `${fullName} ${sub.name()}`;
    });
    for (const sub of spec.subcommands) cmd.addCommand(makeCommand(sub, `${fullName} ${sub.name}`, output, result, active));
  }
  return cmd;
}

/** Commander's own usage error ("error: unknown option '--x'\n(Did you mean --y?)") in our format. */
export function commanderUsageError(err: CommanderError, command?: string): UsageError {
  const text = err.message
    .replace(/^error: /, '')
    .replace(/\n\(Did you mean (.*)\?\)\s*$/, ' (did you mean $1?)')
    .trim();
  return new UsageError(text, command);
}

export { CommanderError };
