import {
  chmodSync,
  closeSync,
  createWriteStream,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  writeFileSync,
  type WriteStream,
} from 'node:fs';
import { dirname, basename, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { UserError } from './errors.ts';
import { errorCode, makeFolder, writeError } from './fileErrors.ts';

/** A temporary name beside `path`, so the final rename stays on one file system (and is atomic). */
function temporaryNameFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/** `.name.PID.hex.tmp`: the pid says whose temporary it is. */
const TEMPORARY_NAME = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/;

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive but someone else's; only ESRCH means no such process.
    return errorCode(error) !== 'ESRCH';
  }
}

const sweptDirectories = new Set<string>();

/**
 * Removes temporaries left in `directory` by processes that no longer run. A process killed
 * mid-write (SIGINT, SIGKILL, a crash) cannot clean up after itself; its temporaries are hidden
 * dot-files, and the next write into the same directory removes them. Once per directory per process.
 */
function removeStaleTemporaries(directory: string): void {
  if (sweptDirectories.has(directory)) return;
  sweptDirectories.add(directory);
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(TEMPORARY_NAME.exec(name)?.[1] ?? NaN);
    if (Number.isSafeInteger(pid) && pid !== process.pid && !isRunning(pid))
      rmSync(join(directory, name), { force: true, recursive: true });
  }
}

/** Symbolic links followed from one name before giving up (Linux's own limit is 40). */
const MAX_LINK_HOPS = 40;

/**
 * Where a write to `path` really lands. A symbolic link is followed to its final target (which
 * need not exist yet), so the link stays a link and its target is what gets replaced. `special`
 * is true for a FIFO, a device (/dev/null) or a socket: those are written through, never renamed
 * over, as Verilator and Yosys do.
 */
export interface OutputTarget {
  readonly path: string;
  readonly special: boolean;
  /** The permission bits of the file being replaced, kept on its successor. */
  readonly mode?: number;
}

export function resolveOutput(path: string): OutputTarget {
  let current = resolve(path);
  for (let hop = 0; hop <= MAX_LINK_HOPS; hop++) {
    let stats;
    try {
      stats = lstatSync(current);
    } catch (error) {
      if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return { path: current, special: false };
      throw writeError(path, error);
    }
    if (stats.isSymbolicLink()) {
      current = resolve(dirname(current), readlinkSync(current));
      continue;
    }
    if (stats.isDirectory()) throw new UserError(`cannot write ${path}: it is a folder`);
    if (stats.isFile()) return { path: current, special: false, mode: stats.mode & 0o7777 };
    return { path: current, special: true };
  }
  throw new UserError(`cannot write ${path}: too many symbolic links (ELOOP)`);
}

function ensureDirectory(target: string, shownPath: string): void {
  makeFolder(dirname(target), shownPath);
  removeStaleTemporaries(dirname(target));
}

/**
 * Moves a finished temporary file to `path` under the same rules as `writeFileAtomic`: a symlink's
 * target is replaced, a special file is written through (the temporary copied into it, then removed).
 */
export function moveIntoPlace(temporary: string, path: string): void {
  const target = resolveOutput(path);
  try {
    if (target.special) {
      writeFileSync(target.path, readFileSync(temporary));
      rmSync(temporary, { force: true });
      return;
    }
    if (target.mode !== undefined) chmodSync(temporary, target.mode);
    renameSync(temporary, target.path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw writeError(path, error);
  }
}

/** Writes a whole file atomically: readers see the old file or the new one, never half of one. */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const target = resolveOutput(path);
  if (target.special) {
    try {
      writeFileSync(target.path, data);
    } catch (error) {
      throw writeError(path, error);
    }
    return;
  }
  ensureDirectory(target.path, path);
  const temporary = temporaryNameFor(target.path);
  try {
    writeFileSync(temporary, data, target.mode === undefined ? {} : { mode: target.mode });
    if (target.mode !== undefined) chmodSync(temporary, target.mode);
    renameSync(temporary, target.path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw writeError(path, error);
  }
}

/**
 * A streamed output (VCD traces, long logs) that appears under its final name only on `commit()`;
 * `abort()` (or a crash) leaves nothing under that name. A special file (FIFO, device) is
 * streamed into directly. A write error (a full disk) is kept and reported by `commit()` as one
 * line naming the path; the temporary is removed.
 */
export class AtomicFileStream {
  readonly stream: WriteStream;
  private readonly temporary: string | undefined;
  private readonly target: OutputTarget;
  private done = false;
  private failure: unknown;

  constructor(readonly path: string) {
    this.target = resolveOutput(path);
    if (this.target.special) {
      this.temporary = undefined;
      this.stream = createWriteStream(this.target.path, { flags: 'w' });
    } else {
      ensureDirectory(this.target.path, path);
      const temporary = temporaryNameFor(this.target.path);
      try {
        closeSync(openSync(temporary, 'w', this.target.mode ?? 0o666));
      } catch (error) {
        rmSync(temporary, { force: true });
        throw writeError(path, error);
      }
      this.temporary = temporary;
      this.stream = createWriteStream(temporary);
    }
    this.stream.on('error', (error) => {
      this.failure ??= error;
    });
  }

  write(text: string): void {
    this.stream.write(text);
  }

  /**
   * Writes, then waits while the stream holds more than its buffer, so a producer faster than
   * the disk stays in bounded memory; a write error (a full disk) drops the output and throws
   * one line naming the path.
   */
  async writeAndWait(text: string): Promise<void> {
    if (this.failure === undefined && this.stream.write(text)) return;
    if (this.failure === undefined)
      await new Promise<void>((resolve) => {
        const done = (): void => {
          this.stream.off('drain', done);
          this.stream.off('close', done);
          resolve();
        };
        // A failed stream closes instead of draining.
        this.stream.on('drain', done);
        this.stream.on('close', done);
      });
    if (this.failure !== undefined) {
      const failure = this.failure;
      this.abort();
      throw writeError(this.path, failure);
    }
  }

  /** The first write error seen so far (the stream reports them asynchronously). */
  get error(): unknown {
    return this.failure;
  }

  /** Flushes, then renames into place; on a write error removes the temporary and throws one line naming the path. */
  async commit(): Promise<void> {
    if (this.done) return;
    this.done = true;
    try {
      if (this.failure !== undefined) throw this.failure;
      await new Promise<void>((resolve, reject) =>
        this.stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
      );
      if (this.failure !== undefined) throw this.failure;
      if (this.temporary !== undefined) {
        if (this.target.mode !== undefined) chmodSync(this.temporary, this.target.mode);
        renameSync(this.temporary, this.target.path);
      }
    } catch (error) {
      this.stream.destroy();
      if (this.temporary !== undefined) rmSync(this.temporary, { force: true });
      throw writeError(this.path, error);
    }
  }

  abort(): void {
    if (this.done) return;
    this.done = true;
    this.stream.destroy();
    if (this.temporary !== undefined) rmSync(this.temporary, { force: true });
  }
}
