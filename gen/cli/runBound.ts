import { statSync } from 'node:fs';
import { formatSeconds, withDeadline } from '../../common/deadline.ts';
import { numberOption } from '../../common/optionValues.ts';

/*
 * The time bound of a command that works in gen's own thread (the ts engine, a trace comparison):
 * `--timeout SECONDS`, else a default that grows with the input, generous enough for the slowest
 * design the framework ships and still an end to a runaway.
 */

/** The `--timeout` option of a bounded command. */
export const TIMEOUT_OPTION = {
  type: 'string',
  describe: 'stop with an error after this many seconds (default: 60 s + a share per MiB of input)',
} as const;

/** The bound to use: `--timeout` in ms, else 60 s plus `secondsPerMiB` for each MiB of `inputs`. */
export function runBoundMs(timeout: unknown, inputs: readonly string[], secondsPerMiB: number): number {
  if (timeout !== undefined) return Math.ceil(numberOption('timeout', timeout, { min: 0.001 }) * 1000);
  let bytes = 0;
  for (const input of inputs) {
    try {
      bytes += statSync(input).size;
    } catch {
      // A missing input is its reader's error to report.
    }
  }
  return 60_000 + Math.ceil((bytes / 2 ** 20) * secondsPerMiB * 1000);
}

/** Runs a command's work under its bound, with seconds-against-bound progress on a terminal. */
export function bounded<T>(command: string, ms: number, work: () => T | Promise<T>): Promise<T> {
  return withDeadline(
    ms,
    `${command}: did not finish within ${formatSeconds(ms)} (--timeout SECONDS sets another bound)`,
    work,
    command,
  );
}
