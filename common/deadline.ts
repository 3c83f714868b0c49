import { Worker } from 'node:worker_threads';
import { UserError } from './errors.ts';
import { quoteValue } from './optionValues.ts';

/*
 * A bound on work that runs in this thread and may never yield: a design file looping at import,
 * a long in-process simulation or trace comparison. A timer in this thread cannot fire while its
 * JavaScript spins, so the bound is kept by a small watchdog thread: at the deadline it writes the
 * one line and ends the process (SIGKILL: a handler in the spinning thread would never run).
 * Temporaries a killed write leaves are hidden and swept by the next write (common/atomicWrite.ts).
 */

const WATCHDOG = `
const { workerData } = require('node:worker_threads');
setTimeout(() => {
  require('node:fs').writeSync(2, workerData.line);
  process.kill(process.pid, 'SIGKILL');
}, workerData.ms);
`;

/** A whole number of milliseconds above 0 from the environment variable `name`; undefined when unset or empty. */
export function envMilliseconds(name: string): number | undefined {
  const text = process.env[name];
  if (text === undefined || text === '') return undefined;
  const ms = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(ms) || ms <= 0)
    throw new UserError(`${name} must be a whole number of milliseconds above 0, got ${quoteValue(text)}`);
  return ms;
}

/** `3 s`, `90 s`, `1.5 s`: a bound as messages show it. */
export const formatSeconds = (ms: number): string => `${Number((ms / 1000).toFixed(3))} s`;

/**
 * Runs `work`; if it has not settled within `ms`, prints `gen: <line>` on stderr and ends the
 * process. The watchdog thread (a few milliseconds to start) is stopped as soon as `work` settles.
 */
export async function withDeadline<T>(ms: number, line: string, work: () => T | Promise<T>): Promise<T> {
  const watchdog = new Worker(WATCHDOG, { eval: true, workerData: { ms, line: `gen: ${line}\n` } });
  watchdog.unref();
  try {
    return await work();
  } finally {
    void watchdog.terminate();
  }
}
