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
 * The completion record of a finished entry, written at build time as its last file: an entry
 * without one is never used. It holds the entry's key and the SHA-256 of every file of it, sealed
 * by a hash of both; every use checks the files against it, and an entry whose record is missing,
 * empty, of another format, another entry's or altered is built again. The seal catches an edited
 * record (and a record copied with another entry's files), not a writer who recomputes it: whoever
 * can write the cache can as well write the project's sources.
 */
const COMPLETE = '.complete';

/** The record's format; a record of any other (or of none: an empty stamp) is not trusted. */
const RECORD_FORMAT = 2;

/**
 * The folder inside a build's temporary entry where the build's tools keep their temporaries
 * (TMPDIR): removed before the record is written, and with the temporary entry when a killed
 * build's is swept.
 */
const TOOL_TEMPORARIES = '.tool-tmp';

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

/**
 * Every file under `dir`, marker included, as `name size mtime ctime inode`: what changes when a
 * file is rewritten, cut or replaced (the ctime even when its size and mtime are put back).
 */
function fileStats(dir: string, prefix = ''): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const stat = statSync(join(dir, name));
      return stat.isDirectory()
        ? fileStats(join(dir, name), `${prefix}${name}/`)
        : [`${prefix}${name} ${stat.size} ${stat.mtimeMs} ${stat.ctimeMs} ${stat.ino}`];
    });
}

/**
 * Entries this process has hashed and found intact, with their files' stats then. A run reuses an
 * entry many times (every engine run checks its build); hashing a 3.5 MB Verilator binary each
 * time cost ~7 ms, the stats a fraction of that, and a truncated or replaced file changes them.
 */
const verifiedEntries = new Map<string, string>();

/** Why the entry `<root>/<key>` cannot be used (no record, a file changed, went missing or appeared), or undefined when it is intact. */
function damage(root: string, key: string): string | undefined {
  const dir = join(root, key);
  let stats: string;
  try {
    stats = fileStats(dir).join('\n');
  } catch {
    return 'it cannot be read';
  }
  if (verifiedEntries.get(dir) === stats) return undefined;
  // The stats from before the hashing: a file changed while it is hashed is hashed again next time.
  const why = hashedDamage(dir, key);
  if (why === undefined) verifiedEntries.set(dir, stats);
  else verifiedEntries.delete(dir);
  return why;
}

/** The seal of a record: a hash of its format, key and file hashes. */
const sealOf = (key: string, files: Record<string, string>): string =>
  contentHash([String(RECORD_FORMAT), key, ...Object.entries(files).flat()]);

/** The completion record of a freshly built entry. */
function completionRecord(dir: string, key: string): string {
  const files = fileHashes(dir);
  return JSON.stringify({ format: RECORD_FORMAT, key, files, seal: sealOf(key, files) });
}

/** The file hashes of the record at `marker` when it is this entry's and unaltered, else why not. */
function recordedHashes(marker: string, key: string): Record<string, string> | string {
  let text: string;
  try {
    text = readFileSync(marker, 'utf8');
  } catch {
    return 'it has no completion record';
  }
  if (text.trim() === '') return 'its completion record is empty';
  let record: { format?: unknown; key?: unknown; files?: unknown; seal?: unknown };
  try {
    record = JSON.parse(text) as typeof record;
  } catch {
    return 'its completion record is unreadable';
  }
  if (record?.format !== RECORD_FORMAT) return 'its completion record is of another format';
  const files = record.files as Record<string, string>;
  const valid =
    record.key === key &&
    typeof files === 'object' &&
    files !== null &&
    Object.values(files).every((hash) => typeof hash === 'string') &&
    record.seal === sealOf(key, files);
  return valid ? files : "its completion record is not this entry's or was altered";
}

/** damage() by the hashes its completion record holds. */
function hashedDamage(dir: string, key: string): string | undefined {
  const recorded = recordedHashes(join(dir, COMPLETE), key);
  if (typeof recorded === 'string') return recorded;
  const actual = fileHashes(dir);
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
 * Whether `<root>/<key>` is a finished, intact entry; a damaged one (no completion record, or its
 * files not the recorded ones) is moved aside and removed, with a one-line message.
 */
function usable(root: string, key: string): boolean {
  const dir = join(root, key);
  if (!existsSync(dir)) return false;
  const why = damage(root, key);
  if (why === undefined) return true;
  process.stderr.write(`gen: build cache entry ${dir} is damaged (${why}); building it again\n`);
  discard(root, key);
  return false;
}

/**
 * The folder of a finished, intact entry, or undefined (a damaged one is removed, with a message):
 * for caches that are read directly rather than through cachedBuild (Verilator's runtime objects).
 */
export function intactEntry(root: string, key: string): string | undefined {
  return usable(root, key) ? join(root, key) : undefined;
}

/** Renames a finished build into place. */
function place(temporary: string, root: string, key: string): void {
  try {
    renameSync(temporary, join(root, key));
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
  }
  // Another process placed the same build first: theirs is identical, kept when intact; a damaged folder in the way is replaced.
  if (!usable(root, key)) renameSync(temporary, join(root, key));
}

/**
 * A content-addressed build directory `<root>/<key>/`: returned at once when a finished, intact
 * entry exists; otherwise `build` fills a private temporary directory that is renamed into place,
 * so concurrent builds of one key (other processes too) never see or corrupt a half-built entry.
 * A damaged entry (no completion record, or a file changed or missing since it was built: a
 * truncated binary, a deleted one) is moved aside and built again, once, with a message naming
 * it. `build` gets the folder to fill and one for its tools' temporaries (their TMPDIR: inside
 * the temporary entry, so a killed build's are swept with it). The first use of a root in a
 * process removes the temporary folders of builds whose process died.
 */
export function cachedBuild(
  root: string,
  key: string,
  build: (dir: string, toolTemporaries: string) => Promise<void>,
): Promise<{ dir: string; built: boolean }> {
  const dir = join(root, key);
  if (!swept.has(root)) {
    swept.add(root);
    sweepLeftovers(root);
  }
  const pending = inFlight.get(dir);
  if (pending) return pending;
  if (usable(root, key)) return Promise.resolve({ dir, built: false });
  const job = (async () => {
    const temporary = join(root, privateName('tmp', key));
    const toolTemporaries = join(temporary, TOOL_TEMPORARIES);
    mkdirSync(toolTemporaries, { recursive: true });
    try {
      await build(temporary, toolTemporaries);
      rmSync(toolTemporaries, { recursive: true, force: true });
      writeFileSync(join(temporary, COMPLETE), completionRecord(temporary, key));
      place(temporary, root, key);
      return { dir, built: true };
    } finally {
      rmSync(temporary, { recursive: true, force: true });
      inFlight.delete(dir);
    }
  })();
  inFlight.set(dir, job);
  return job;
}
