import { existsSync, lstatSync, mkdirSync, readdirSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';
import { isRunning } from './atomicWrite.ts';
import { UserError } from './errors.ts';
import { errorCode, makeFolder, writeError } from './fileErrors.ts';

/*
 * Multi-file outputs (gen verilog, the report, failure folders) are built whole in a hidden
 * staging folder beside their target and swapped in by renaming folders, so a reader sees the
 * complete old set or the complete new set, never a mix:
 *   1. rename TARGET → .TARGET.previous-PID-HEX   2. rename .TARGET.staging-PID-HEX → TARGET
 * SIGINT, SIGTERM and SIGHUP are held back during the two renames (and delivered right after). A
 * SIGKILL between them leaves no TARGET but the complete old set under `.previous-`: the next
 * staging beside TARGET puts it back before anything else. Staging and previous folders of
 * processes that no longer run are removed then too.
 */

const STAGING = 'staging';
const PREVIOUS = 'previous';
const leftoverPattern = (target: string): RegExp =>
  new RegExp(
    `^\\.${basename(target).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(${STAGING}|${PREVIOUS})-(\\d+)-[0-9a-f]{8}$`,
  );

const hiddenName = (target: string, kind: string): string =>
  join(dirname(target), `.${basename(target)}.${kind}-${process.pid}-${randomBytes(4).toString('hex')}`);

/** Puts back an old set a killed swap left aside, and removes dead processes' staging and previous folders. */
export function repairInterruptedSwap(target: string): void {
  const folder = dirname(target);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  const pattern = leftoverPattern(target);
  const dead = names
    .map((name) => ({ name, match: pattern.exec(name) }))
    .filter(({ match }) => match !== null && Number(match[2]) !== process.pid && !isRunning(Number(match[2])));
  if (!existsSync(target)) {
    const previous = dead
      .filter(({ match }) => match![1] === PREVIOUS)
      .map(({ name }) => ({ name, time: statSync(join(folder, name)).mtimeMs }))
      .sort((a, b) => b.time - a.time)[0];
    if (previous !== undefined) {
      try {
        renameSync(join(folder, previous.name), target);
      } catch {
        // Someone else restored or replaced it first: either way TARGET is complete.
      }
    }
  }
  for (const { name } of dead) rmSync(join(folder, name), { recursive: true, force: true });
}

/**
 * The folder a swap really replaces: a symbolic link is followed (the link stays, its target is
 * swapped), and anything that exists but is not a folder is refused rather than renamed over.
 */
export function folderTarget(target: string, shownPath = target): string {
  const absolute = resolve(target);
  try {
    if (lstatSync(absolute).isSymbolicLink()) {
      const real = realpathSync(absolute);
      if (!statSync(real).isDirectory()) throw new UserError(`${shownPath} exists and is not a folder`);
      return real;
    }
    if (!statSync(absolute).isDirectory()) throw new UserError(`${shownPath} exists and is not a folder`);
  } catch (error) {
    if (error instanceof UserError) throw error;
    if (errorCode(error) !== 'ENOENT') throw writeError(shownPath, error);
  }
  return absolute;
}

/** A new, empty staging folder beside `target` (whose parent is created); repairs a killed swap first. */
export function createStagingFolder(target: string, shownPath = target): string {
  const absolute = folderTarget(target, shownPath);
  makeFolder(dirname(absolute), shownPath);
  repairInterruptedSwap(absolute);
  const staging = hiddenName(absolute, STAGING);
  try {
    mkdirSync(staging);
  } catch (error) {
    throw writeError(shownPath, error);
  }
  return staging;
}

const HELD_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** The signals caught while any work holds them, and how many holds are open: one handler serves all. */
const held = { open: 0, caught: [] as NodeJS.Signals[] };
const hold = (signal: NodeJS.Signals): void => void held.caught.push(signal);

/**
 * Runs synchronous `work` with interrupting signals held back: a handler that records them is
 * installed for its duration (without one, Node dies at once on SIGINT), then each one caught is
 * raised again with the default action, so Ctrl-C still ends the process, just not in the middle.
 * Holds opened in one tick share the handler, so a loop of swaps adds one listener, not one each.
 */
export function withSignalsHeld<T>(work: () => T): T {
  if (held.open++ === 0) for (const signal of HELD_SIGNALS) process.on(signal, hold);
  try {
    return work();
  } finally {
    // A signal that arrived during `work` is delivered by the event loop, after this returns:
    // keep the handler until then, and re-raise it once nothing else holds it.
    const release = (): void => {
      if (--held.open > 0) return;
      for (const signal of HELD_SIGNALS) process.off(signal, hold);
      const others = held.caught.filter((signal) => process.listenerCount(signal) === 0);
      held.caught = [];
      if (others.length > 0) process.kill(process.pid, others[0]);
    };
    setImmediate(release).unref();
  }
}

/** Swaps `staging` in as `target` (see the top of this file); the old set is removed afterwards. */
export function swapFolderIn(staging: string, target: string, shownPath = target): void {
  const absolute = folderTarget(target, shownPath);
  const previousFolders: string[] = [];
  try {
    withSignalsHeld(() => {
      // Another process may swap the same target at the same moment; each attempt moves whatever
      // is there aside, so the last complete set wins and nothing is left half.
      for (let attempt = 0; ; attempt++) {
        const previous = hiddenName(absolute, PREVIOUS);
        try {
          renameSync(absolute, previous);
          previousFolders.push(previous);
        } catch (error) {
          if (errorCode(error) !== 'ENOENT') throw error;
        }
        try {
          renameSync(staging, absolute);
          return;
        } catch (error) {
          const code = errorCode(error);
          if ((code !== 'ENOTEMPTY' && code !== 'EEXIST') || attempt >= 20) {
            const last = previousFolders.pop();
            if (last !== undefined && !existsSync(absolute)) renameSync(last, absolute);
            throw error;
          }
        }
      }
    });
  } catch (error) {
    throw writeError(shownPath, error);
  } finally {
    for (const previous of previousFolders) rmSync(previous, { recursive: true, force: true });
  }
}
