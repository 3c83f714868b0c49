import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { projectRoot } from '../common/projectRoot.ts';

/** Names a build cache folder instead of the project's default (an absolute path, or relative to the working directory). */
export const CACHE_ENV = 'GEN_CACHE';

/** Where the build cache is by default: `$GEN_CACHE`, else `<project root>/.gen-cache` (never inside node_modules). */
function defaultBuildRoot(): string {
  const fromEnvironment = process.env[CACHE_ENV];
  return fromEnvironment ? resolve(fromEnvironment) : join(projectRoot(), '.gen-cache');
}

/**
 * The build cache of the user's project (gitignored): tool builds live here, not in a system temp
 * dir and not in the installed package. Read at each build, so setBuildRoot (the CLI applies the
 * config's `defaults.cache`) takes effect for everything built after it.
 */
export let BUILD_ROOT = defaultBuildRoot();

/** Moves the build cache (`defaults.cache` of the project config); `$GEN_CACHE` still wins. */
export function setBuildRoot(folder: string): void {
  BUILD_ROOT = process.env[CACHE_ENV] ? defaultBuildRoot() : resolve(folder);
}

/** Marks a finished cache entry; an entry without it is never used. */
const COMPLETE = '.complete';

/** A hash of several texts that no concatenation trick can collide (each part is length-prefixed). */
export function contentHash(parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(`${Buffer.byteLength(part)}:`).update(part);
  return hash.digest('hex').slice(0, 32);
}

/** Builds in flight in this process, so concurrent callers of one key share a single build. */
const inFlight = new Map<string, Promise<{ dir: string; built: boolean }>>();

/**
 * A content-addressed build directory `<root>/<key>/`: returned at once when a finished entry
 * exists; otherwise `build` fills a private temporary directory that is renamed into place, so
 * concurrent builds of one key (other processes too) never see or corrupt a half-built entry.
 */
export function cachedBuild(
  root: string,
  key: string,
  build: (dir: string) => Promise<void>,
): Promise<{ dir: string; built: boolean }> {
  const dir = join(root, key);
  if (existsSync(join(dir, COMPLETE))) return Promise.resolve({ dir, built: false });
  const pending = inFlight.get(dir);
  if (pending) return pending;
  const job = (async () => {
    const temporary = join(root, `.tmp-${key.slice(0, 12)}-${process.pid}-${randomBytes(4).toString('hex')}`);
    mkdirSync(temporary, { recursive: true });
    try {
      await build(temporary);
      writeFileSync(join(temporary, COMPLETE), '');
      try {
        renameSync(temporary, dir);
      } catch (error) {
        // Another process finished the same build first: theirs is identical, keep it.
        if (!existsSync(join(dir, COMPLETE))) throw error;
      }
      return { dir, built: true };
    } finally {
      rmSync(temporary, { recursive: true, force: true });
      inFlight.delete(dir);
    }
  })();
  inFlight.set(dir, job);
  return job;
}
