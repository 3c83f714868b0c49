import { accessSync, closeSync, constants, openSync, rmSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { resolveOutput } from './atomicWrite.ts';
import { UserError } from './errors.ts';
import { errorCode, writeError } from './fileErrors.ts';

/*
 * Checks before a long run that every output can be written, so a read-only folder, a missing
 * permission or a file where a folder should be fails at once, not after the run's work is done.
 * Nothing is created: the probe is a hidden temporary in the nearest folder that exists, removed
 * straight away (its name has the pid, so a kill mid-probe leaves what the next write sweeps).
 */

/** The nearest existing ancestor of `path` (itself included); refused if it is not a folder. */
function nearestFolder(path: string, shownPath: string): string {
  let current = resolve(path);
  for (;;) {
    try {
      if (statSync(current).isDirectory()) return current;
      throw new UserError(`cannot write ${shownPath}: ${current} is not a folder (ENOTDIR)`);
    } catch (error) {
      if (error instanceof UserError) throw error;
      if (errorCode(error) !== 'ENOENT' || dirname(current) === current) throw writeError(shownPath, error);
      current = dirname(current);
    }
  }
}

function probe(folder: string, shownPath: string): void {
  const name = join(folder, `.preflight.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    closeSync(openSync(name, 'wx'));
  } catch (error) {
    throw writeError(shownPath, error);
  }
  rmSync(name, { force: true });
}

/** Each file output (undefined entries skipped) can be created or replaced. */
export function preflightFiles(paths: readonly (string | undefined)[]): void {
  for (const path of paths) {
    if (path === undefined) continue;
    const target = resolveOutput(path);
    if (target.special) {
      try {
        accessSync(target.path, constants.W_OK);
      } catch (error) {
        throw writeError(path, error);
      }
      continue;
    }
    probe(nearestFolder(dirname(target.path), path), path);
  }
}

/** Each folder output can be created (or written into, if it exists). */
export function preflightFolders(paths: readonly (string | undefined)[]): void {
  for (const path of paths) if (path !== undefined) probe(nearestFolder(path, path), path);
}
