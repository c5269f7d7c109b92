// One declarative table per command drives parsing, `--help` and the flag reference (docs/cli.md).
//
// Each command module exports a CommandSpec; `main.ts` turns the list into commander commands,
// and `achilles docs` / docs/cli.md are generated from the same objects.

export type OptionKind =
  | { type: 'string' }
  | { type: 'number'; min?: number; max?: number; integer?: boolean }
  | { type: 'choice'; choices: readonly string[] }
  | { type: 'list-number'; min?: number; max?: number; integer?: boolean } // comma-separated
  | { type: 'list-choice'; choices: readonly string[] } // comma-separated
  | { type: 'list-string' } // repeatable flag
  | { type: 'boolean' };

export interface OptionSpec {
  /** Long flag name without dashes, e.g. 'integrator'. */
  name: string;
  /** Optional one-letter alias, e.g. 'o' for `-o`. */
  short?: string;
  /** Value placeholder for help, e.g. 'S' or 'N'. */
  arg?: string;
  kind: OptionKind;
  description: string;
  /** Default shown in help (undefined: the command decides, e.g. "the scene's"). */
  default?: string | number | boolean | readonly (string | number)[];
  defaultText?: string;
}

export interface PositionalSpec {
  name: string;
  description: string;
  required: boolean;
}

/** Parsed option values keyed by option name (camelCase not applied: the spec's name). */
export type ParsedOptions = Record<string, string | number | boolean | string[] | number[] | undefined>;

export interface CommandSpec {
  name: string;
  summary: string;
  positionals: PositionalSpec[];
  options: OptionSpec[];
  /** Examples for help and docs. */
  examples: string[];
  /** Commands under this one (`achilles sweep merge`): a first argument naming one runs it instead. */
  subcommands?: CommandSpec[];
  /** Runs the command; returns the process exit code. */
  run(args: string[], opts: ParsedOptions): Promise<number>;
}
