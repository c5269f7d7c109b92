// Values written into a command a person or a scheduler will run: a word bash reads as one word.

/** Characters a bash word, or an #SBATCH argument, may hold unquoted. */
export const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** A word for bash, single-quoted when it needs to be (a single quote inside written as '\''). */
export function shellWord(s: string): string {
  return PLAIN_WORD.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
