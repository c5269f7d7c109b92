// A mistake on the command line (exit code 2), as opposed to a failure while doing the work (exit 1).

export class UsageError extends Error {
  /** The command whose `--help` the user should read, e.g. 'run'; undefined for the top level. */
  readonly command?: string;
  constructor(message: string, command?: string) {
    super(message);
    this.name = 'UsageError';
    if (command !== undefined) this.command = command;
  }
}
