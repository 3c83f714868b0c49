import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { UserError } from './errors.ts';

/** What a file is, for the one-line refusal of anything but a regular file. */
const SPECIAL_KINDS: readonly [(stats: Stats) => boolean, string][] = [
  [(stats) => stats.isFIFO(), 'a FIFO'],
  [(stats) => stats.isCharacterDevice(), 'a character device'],
  [(stats) => stats.isBlockDevice(), 'a block device'],
  [(stats) => stats.isSocket(), 'a socket'],
  [(stats) => stats.isDirectory(), 'a folder'],
];

/** A file the system would not open or read, or that is not a regular file: `cannot read PATH: REASON`. */
export class UnreadableFileError extends UserError {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`cannot read ${path}: ${reason}`);
  }
}

/** The UnreadableFileError for a failed system call (its errno code, e.g. ENOENT). */
export const cannotRead = (path: string, error: unknown): UnreadableFileError =>
  new UnreadableFileError(path, (error as NodeJS.ErrnoException).code ?? String(error));

/**
 * Opens a file the user named as an input and returns its descriptor and size, refusing in one
 * line anything but a regular file: /dev/zero never ends and a FIFO has no size (a reader would
 * read without bound or wait forever). O_NONBLOCK because opening a FIFO that has no writer
 * blocks before fstat could see what it is; on a regular file the flag changes nothing.
 * The caller closes the descriptor.
 */
export function openUserFile(path: string): { fd: number; size: number } {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw cannotRead(path, error);
  }
  try {
    const stats = fstatSync(fd);
    const special = SPECIAL_KINDS.find(([test]) => test(stats));
    if (special) throw new UnreadableFileError(path, `${special[1]}, not a regular file`);
    return { fd, size: stats.size };
  } catch (error) {
    closeSync(fd);
    throw error instanceof UnreadableFileError ? error : cannotRead(path, error);
  }
}

/** A bound on what a reader takes in: a file over `maxBytes` is refused with `tooLarge(size)` (a message, or the reader's own error). */
export interface ReadLimit {
  readonly maxBytes: number;
  readonly tooLarge: (size: number) => string | UserError;
}

/** The refusal of a file over its limit. */
export function tooLargeError(limit: ReadLimit, size: number): UserError {
  const refusal = limit.tooLarge(size);
  return typeof refusal === 'string' ? new UserError(refusal) : refusal;
}

/**
 * The whole of a user's input file (see openUserFile), refused before reading when over the
 * limit, and if it grows past it while being read.
 */
export function readUserFile(path: string, limit: ReadLimit): Buffer {
  const { fd, size } = openUserFile(path);
  try {
    if (size > limit.maxBytes) throw tooLargeError(limit, size);
    // One byte more than the size, to see a file that grew.
    const bytes = Buffer.alloc(size + 1);
    let total = 0;
    for (;;) {
      let length: number;
      try {
        length = readSync(fd, bytes, total, bytes.length - total, null);
      } catch (error) {
        throw cannotRead(path, error);
      }
      if (length === 0) return bytes.subarray(0, total);
      total += length;
      if (total > size) throw new UnreadableFileError(path, 'it grew while being read');
    }
  } finally {
    closeSync(fd);
  }
}

/** What a text input (a manifest, a coverage or failure record, Verilog source) may hold. */
export const TEXT_INPUT_MAX_BYTES = 256 * 2 ** 20;

/** A user's text input as UTF-8 (see readUserFile), at most `maxBytes`. */
export function readUserText(path: string, maxBytes = TEXT_INPUT_MAX_BYTES): string {
  return readUserFile(path, {
    maxBytes,
    tooLarge: (size) => `${path}: ${size} bytes, more than the ${maxBytes} bytes this input may have`,
  }).toString('utf8');
}
