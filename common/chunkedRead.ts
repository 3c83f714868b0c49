import { closeSync, readSync } from 'node:fs';
import { cannotRead, openUserFile, tooLargeError, type ReadLimit } from './userFiles.ts';

const CHUNK_BYTES = 1 << 20;

/**
 * Reads a file 1 MiB at a time (its text is never held whole), handing each piece to `onChunk`
 * as a reused buffer and the count of bytes read into it. A file over `maxBytes` is refused
 * before any of it is read, and so is one that grows past it while being read (`tooLarge` says
 * so in one line, given the size). A file that cannot be read: `cannot read PATH: CODE`; anything
 * but a regular file is refused (openUserFile).
 */
export function readFileInChunks(
  path: string,
  limit: ReadLimit,
  onChunk: (chunk: Buffer, length: number) => void,
): void {
  for (const chunk of fileChunks(path, limit)) onChunk(chunk, chunk.length);
}

/**
 * The pieces readFileInChunks hands on, pulled one at a time: each a view of one reused 1 MiB
 * buffer, valid until the next is pulled (a consumer that stops early closes the file).
 */
export function* fileChunks(path: string, limit: ReadLimit): Generator<Buffer, void, undefined> {
  const { fd, size } = openUserFile(path);
  try {
    if (size > limit.maxBytes) throw tooLargeError(limit, size);
    const chunk = Buffer.alloc(CHUNK_BYTES);
    let total = 0;
    for (;;) {
      let length: number;
      try {
        length = readSync(fd, chunk, 0, CHUNK_BYTES, null);
      } catch (error) {
        throw cannotRead(path, error);
      }
      if (length === 0) return;
      total += length;
      if (total > limit.maxBytes) throw tooLargeError(limit, total);
      yield chunk.subarray(0, length);
    }
  } finally {
    closeSync(fd);
  }
}
