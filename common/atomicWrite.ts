import {
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
  openSync,
  closeSync,
  createWriteStream,
  type WriteStream,
} from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { UserError } from './errors.ts';

/** A temporary name beside `path`, so the final rename stays on one file system (and is atomic). */
function temporaryNameFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/** `.name.PID.hex.tmp`: the pid says whose temporary it is. */
const TEMPORARY_NAME = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/;

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive but someone else's; only ESRCH means no such process.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
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

function ensureDirectory(path: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    throw new UserError(
      `cannot create directory for ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  removeStaleTemporaries(dirname(path));
}

/** Writes a whole file atomically: readers see the old file or the new one, never half of one. */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  ensureDirectory(path);
  const temporary = temporaryNameFor(path);
  try {
    writeFileSync(temporary, data);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new UserError(`cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/**
 * A streamed output (VCD traces, long logs) that appears under its final name only on `commit()`;
 * `abort()` (or a crash) leaves nothing under that name.
 */
export class AtomicFileStream {
  readonly stream: WriteStream;
  private readonly temporary: string;
  private done = false;

  constructor(readonly path: string) {
    ensureDirectory(path);
    this.temporary = temporaryNameFor(path);
    try {
      closeSync(openSync(this.temporary, 'w'));
    } catch (error) {
      throw new UserError(`cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    this.stream = createWriteStream(this.temporary);
  }

  write(text: string): void {
    this.stream.write(text);
  }

  /** Flushes, then renames into place. */
  async commit(): Promise<void> {
    if (this.done) return;
    this.done = true;
    await new Promise<void>((resolve, reject) =>
      this.stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
    renameSync(this.temporary, this.path);
  }

  abort(): void {
    if (this.done) return;
    this.done = true;
    this.stream.destroy();
    rmSync(this.temporary, { force: true });
  }
}
