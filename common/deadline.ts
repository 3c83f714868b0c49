import { Worker } from 'node:worker_threads';
import { UserError } from './errors.ts';
import { quoteValue } from './optionValues.ts';

/*
 * A bound on work that runs in this thread and may never yield: a design file looping at import,
 * a long in-process simulation or trace comparison. A timer in this thread cannot fire while its
 * JavaScript spins, so the bound is kept by a small watchdog thread: at the deadline it writes the
 * one line and ends the process with SIGINT, as Ctrl-C would (shells print nothing more for it;
 * SIGKILL two seconds later, should a handler in the spinning thread be holding SIGINT).
 * Temporaries a killed write leaves are hidden and swept by the next write (common/atomicWrite.ts).
 * One watchdog serves every bound of the thread (armed and disarmed by message): starting a
 * thread costs about a tenth of a second of CPU, and `gen sim` alone keeps three bounds.
 */

const WATCHDOG = `
const { parentPort } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const armed = new Map();
parentPort.on('message', (message) => {
  if (message.disarm !== undefined) {
    const timers = armed.get(message.disarm);
    armed.delete(message.disarm);
    if (timers !== undefined) {
      clearTimeout(timers.deadline);
      clearInterval(timers.progress);
    }
    return;
  }
  const started = Date.now();
  const progress =
    message.label === undefined
      ? undefined
      : setInterval(() => {
          const seconds = Math.round((Date.now() - started) / 1000);
          writeSync(2, '\\r' + message.label + ': ' + seconds + ' s of at most ' + message.bound + '\\x1b[K');
        }, 1000);
  const deadline = setTimeout(() => {
    writeSync(2, (message.label !== undefined ? '\\r\\x1b[K' : '') + message.line);
    process.kill(process.pid, 'SIGINT');
    setTimeout(() => process.kill(process.pid, 'SIGKILL'), 2000);
  }, message.ms);
  armed.set(message.id, { deadline, progress });
});
`;

let watchdog: Worker | undefined;
let lastBound = 0;

/** This thread's watchdog, started on first use; it never keeps the process alive. */
function sharedWatchdog(): Worker {
  if (watchdog === undefined) {
    watchdog = new Worker(WATCHDOG, { eval: true });
    watchdog.unref();
  }
  return watchdog;
}

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
 * process. The bound is disarmed as soon as `work` settles.
 * With `progress` (a label), a terminal sees the seconds spent against the bound, once a second:
 * the thread that keeps the bound is the one that can speak while the work keeps its own busy.
 */
export async function withDeadline<T>(
  ms: number,
  line: string,
  work: () => T | Promise<T>,
  progress?: string,
): Promise<T> {
  const interactive = progress !== undefined && process.stderr.isTTY === true && !process.env['CI'];
  const id = ++lastBound;
  const keeper = sharedWatchdog();
  keeper.postMessage({
    id,
    ms,
    line: `gen: ${line}\n`,
    bound: formatSeconds(ms),
    label: interactive ? progress : undefined,
  });
  try {
    return await work();
  } finally {
    keeper.postMessage({ disarm: id });
    if (interactive) process.stderr.write('\r\x1b[K');
  }
}
