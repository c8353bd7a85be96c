/**
 * The one line `npm start` shows while a first start creates the demo data (most of it drawing the portraits): on
 * a terminal it counts up in place; written to a file or a pipe it is a few lines at most (the start, halfway, the
 * last step), so a log of the start stays short. Nothing else is written before the address block.
 */

/** Where the line goes: process.stdout, or anything with `write` (tests). */
export interface ProgressOutput {
  isTTY?: boolean;
  write(text: string): unknown;
}

export interface ProgressLine {
  /** The text of the line now, and how far along it is (0 to 1). */
  show(text: string, fraction: number): void;
  /** The last text, on a line of its own that stays. */
  done(text: string): void;
  /** Ends the line as it is (before an error is printed under it). */
  stop(): void;
}

/** On a terminal, at most this often a rewrite (the first and the last state are always shown). */
const TTY_EVERY_MS = 100;
/** Off a terminal, a line at 0, at half and at the end of the counting: at most three, then the `done` line. */
const PIPE_STEPS = 2;

export function progressLine(output: ProgressOutput, now: () => number = Date.now): ProgressLine {
  const tty = output.isTTY === true;
  let shown = false;
  let lastAt = Number.NEGATIVE_INFINITY;
  let lastStep = -1;
  return {
    show(text, fraction) {
      if (tty) {
        const t = now();
        if (shown && fraction < 1 && t - lastAt < TTY_EVERY_MS) return;
        lastAt = t;
        // Back to the start of the line, the new text, the rest of the old one cleared.
        output.write(`\r${text}\x1b[K`);
        shown = true;
        return;
      }
      const step = Math.floor(Math.min(Math.max(fraction, 0), 1) * PIPE_STEPS);
      if (step <= lastStep) return;
      lastStep = step;
      output.write(`${text}\n`);
      shown = true;
    },
    done(text) {
      output.write(tty ? `\r${text}\x1b[K\n` : `${text}\n`);
      shown = false;
    },
    stop() {
      if (tty && shown) output.write('\n');
      shown = false;
    },
  };
}
