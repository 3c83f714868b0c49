import { mkdirSync, renameSync, rmSync, writeFileSync, openSync, closeSync, createWriteStream, type WriteStream } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { UserError } from './errors.ts';

/** A temporary name beside `path`, so the final rename stays on one file system (and is atomic). */
function temporaryNameFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

function ensureDirectory(path: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    throw new UserError(`cannot create directory for ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
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
    await new Promise<void>((resolve, reject) => this.stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
    renameSync(this.temporary, this.path);
  }

  abort(): void {
    if (this.done) return;
    this.done = true;
    this.stream.destroy();
    rmSync(this.temporary, { force: true });
  }
}
