import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { projectRoot } from '../common/projectRoot.ts';
import { isDeadProcess } from './processes.ts';

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

/**
 * Marks a finished cache entry; an entry without it is never used. It records the SHA-256 of
 * every file of the entry, checked each time the entry is used (an entry written before hashes
 * were recorded gets them at its first use).
 */
const COMPLETE = '.complete';

/** A hash of several texts that no concatenation trick can collide (each part is length-prefixed). */
export function contentHash(parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(`${Buffer.byteLength(part)}:`).update(part);
  return hash.digest('hex').slice(0, 32);
}

/** Every file under `dir` but the marker (relative name → SHA-256), in name order. */
function fileHashes(dir: string, prefix = ''): Record<string, string> {
  const hashes: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    if (prefix === '' && name === COMPLETE) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) Object.assign(hashes, fileHashes(path, `${prefix}${name}/`));
    else hashes[`${prefix}${name}`] = createHash('sha256').update(readFileSync(path)).digest('hex');
  }
  return hashes;
}

/** Every file under `dir`, marker included, as `name size mtime inode`: what changes when a file is rewritten, cut or replaced. */
function fileStats(dir: string, prefix = ''): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const stat = statSync(join(dir, name));
      return stat.isDirectory()
        ? fileStats(join(dir, name), `${prefix}${name}/`)
        : [`${prefix}${name} ${stat.size} ${stat.mtimeMs} ${stat.ino}`];
    });
}

/**
 * Entries this process has hashed and found intact, with their files' stats then. A run reuses an
 * entry many times (every engine run checks its build); hashing a 3.5 MB Verilator binary each
 * time cost ~7 ms, the stats a fraction of that, and a truncated or replaced file changes them.
 */
const verifiedEntries = new Map<string, string>();

/** Why a finished entry cannot be used (a file changed, went missing or appeared), or undefined when it is intact. */
function damage(dir: string): string | undefined {
  const stats = fileStats(dir).join('\n');
  if (verifiedEntries.get(dir) === stats) return undefined;
  const why = hashedDamage(dir);
  if (why === undefined) verifiedEntries.set(dir, fileStats(dir).join('\n'));
  else verifiedEntries.delete(dir);
  return why;
}

/** damage() by the hashes its completion record holds. */
function hashedDamage(dir: string): string | undefined {
  const marker = join(dir, COMPLETE);
  let recorded: Record<string, string> | undefined;
  try {
    const text = readFileSync(marker, 'utf8');
    recorded = text === '' ? undefined : (JSON.parse(text) as { files: Record<string, string> }).files;
  } catch {
    return 'its completion record is unreadable';
  }
  const actual = fileHashes(dir);
  if (recorded === undefined) {
    // Written before hashes were recorded: trusted once, and recorded from now on.
    writeFileSync(marker, JSON.stringify({ files: actual }));
    return undefined;
  }
  for (const [name, hash] of Object.entries(recorded)) {
    if (actual[name] === undefined) return `${name} is missing`;
    if (actual[name] !== hash) return `${name} changed since it was built`;
  }
  const extra = Object.keys(actual).find((name) => recorded[name] === undefined);
  return extra === undefined ? undefined : `${extra} appeared after it was built`;
}

/** Temporary and damaged entries left by processes that are gone (killed mid-build). */
const LEFTOVER = /^\.(tmp|bad)-[0-9a-f]*-(\d+)-[0-9a-f]+$/;

/** Roots already swept in this process. */
const swept = new Set<string>();

/** Removes the temporary folders of builds whose process has died (a kill leaves them behind). */
export function sweepLeftovers(root: string): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return removed;
  }
  for (const name of names) {
    const match = LEFTOVER.exec(name);
    if (!match || !isDeadProcess(Number(match[2]))) continue;
    rmSync(join(root, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

/** Builds in flight in this process, so concurrent callers of one key share a single build. */
const inFlight = new Map<string, Promise<{ dir: string; built: boolean }>>();

const privateName = (kind: 'tmp' | 'bad', key: string): string =>
  `.${kind}-${key.slice(0, 12)}-${process.pid}-${randomBytes(4).toString('hex')}`;

/** Moves an entry aside (one rename, so no reader sees it half removed) and removes it. */
function discard(root: string, key: string): void {
  const aside = join(root, privateName('bad', key));
  try {
    renameSync(join(root, key), aside);
  } catch (error) {
    // Another process moved it aside first.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return;
  }
  rmSync(aside, { recursive: true, force: true });
}

/**
 * The folder of a finished, intact entry, or undefined (a damaged one is removed, with a message):
 * for caches that are read directly rather than through cachedBuild (Verilator's runtime objects).
 */
export function intactEntry(root: string, key: string): string | undefined {
  const dir = join(root, key);
  if (!existsSync(join(dir, COMPLETE))) return undefined;
  const why = damage(dir);
  if (why === undefined) return dir;
  process.stderr.write(`gen: build cache entry ${dir} is damaged (${why}); building it again\n`);
  discard(root, key);
  return undefined;
}

/**
 * A content-addressed build directory `<root>/<key>/`: returned at once when a finished, intact
 * entry exists; otherwise `build` fills a private temporary directory that is renamed into place,
 * so concurrent builds of one key (other processes too) never see or corrupt a half-built entry.
 * A damaged entry (a file changed or missing since it was built: a truncated binary, a deleted
 * one) is moved aside and built again, once, with a message naming it. The first use of a root in
 * a process removes the temporary folders of builds whose process died.
 */
export function cachedBuild(
  root: string,
  key: string,
  build: (dir: string) => Promise<void>,
): Promise<{ dir: string; built: boolean }> {
  const dir = join(root, key);
  if (!swept.has(root)) {
    swept.add(root);
    sweepLeftovers(root);
  }
  const pending = inFlight.get(dir);
  if (pending) return pending;
  if (existsSync(join(dir, COMPLETE))) {
    const why = damage(dir);
    if (why === undefined) return Promise.resolve({ dir, built: false });
    process.stderr.write(`gen: build cache entry ${dir} is damaged (${why}); building it again\n`);
    discard(root, key);
  }
  const job = (async () => {
    const temporary = join(root, privateName('tmp', key));
    mkdirSync(temporary, { recursive: true });
    try {
      await build(temporary);
      writeFileSync(join(temporary, COMPLETE), JSON.stringify({ files: fileHashes(temporary) }));
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
