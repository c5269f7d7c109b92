// Ctrl-C handling for long runs: the first SIGINT/SIGTERM asks the loop to stop at its next
// check (so outputs can be discarded cleanly and a message printed); a second one means "now".

export class Interrupt {
  /** The signal received, or null. */
  signal: NodeJS.Signals | null = null;
  private readonly handlers = new Map<NodeJS.Signals, () => void>();

  /** `onSecond` runs (synchronously, from the handler) if a second signal arrives before dispose(). */
  constructor(onSecond: (signal: NodeJS.Signals) => void, signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM']) {
    for (const sig of signals) {
      const h = (): void => {
        if (this.signal) onSecond(sig);
        else this.signal = sig;
      };
      this.handlers.set(sig, h);
      process.on(sig, h);
    }
  }

  get requested(): boolean {
    return this.signal !== null;
  }

  /** Shell convention: 128 + signal number (SIGINT 130, SIGTERM 143). */
  get exitCode(): number {
    return this.signal === 'SIGTERM' ? 143 : 130;
  }

  dispose(): void {
    for (const [sig, h] of this.handlers) process.removeListener(sig, h);
    this.handlers.clear();
  }
}
