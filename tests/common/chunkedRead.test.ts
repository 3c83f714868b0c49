import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileInChunks } from '../../common/chunkedRead.ts';

const scratch = mkdtempSync(join(tmpdir(), 'chunked-read-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const tooLarge = (size: number) => `too large: ${size}`;

describe('readFileInChunks', () => {
  it('hands over a file of several MiB in pieces that join to its bytes', () => {
    const file = join(scratch, 'big.bin');
    const bytes = Buffer.alloc(2.5 * 2 ** 20 + 3, 0);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7) % 251;
    writeFileSync(file, bytes);
    const pieces: Buffer[] = [];
    readFileInChunks(file, { maxBytes: bytes.length, tooLarge }, (chunk, length) =>
      pieces.push(Buffer.from(chunk.subarray(0, length))),
    );
    expect(pieces.length).toBe(3);
    expect(Buffer.concat(pieces).equals(bytes)).toBe(true);
  });

  it('refuses a file over the limit before handing over any of it, and names a file it cannot read', () => {
    const file = join(scratch, 'small.txt');
    writeFileSync(file, 'abcdef');
    let called = false;
    expect(() => readFileInChunks(file, { maxBytes: 5, tooLarge }, () => (called = true))).toThrow(/^too large: 6$/);
    expect(called).toBe(false);
    expect(() => readFileInChunks(join(scratch, 'absent'), { maxBytes: 5, tooLarge }, () => {})).toThrow(
      /^cannot read .*absent: ENOENT$/,
    );
  });
});
