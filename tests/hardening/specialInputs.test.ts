import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectCleanFailure } from '../support/cli.ts';
import { UserError } from '../../common/errors.ts';
import { readVectors } from '../../engines/vectors.ts';
import { encodeNpy, readNpy } from '../../coruscant/golden/io/npy.ts';
import { encodeKernelFormat } from '../../coruscant/golden/formats/kernelFormat.ts';
import { readKernelFormatDir, writeKernelFormatDir } from '../../coruscant/golden/formats/kernelFormatFiles.ts';
import { readVcdFile } from '../../waves/vcdReader.ts';

/*
 * A file a user names as an input may be anything: /dev/zero never ends, a FIFO with no writer
 * blocks the open itself. Every reader of user files refuses what is not a regular file in one
 * line, before reading, instead of reading without bound or waiting forever.
 */

const dir = mkdtempSync(join(tmpdir(), 'hardening-special-inputs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string): string => join(dir, name);
const fifo = file('fifo');
/** Long enough for a loaded machine to start gen; far shorter than an unbounded read or a blocked open. */
const BOUND_MS = 90_000;

function gen(args: readonly string[]) {
  return execa('node', [new URL('../../bin/gen.js', import.meta.url).pathname, ...args], {
    reject: false,
    env: { CI: '1' },
    timeout: BOUND_MS,
  });
}

beforeAll(() => {
  spawnSync('mkfifo', [fifo], { stdio: 'inherit' });
  // A valid kernel-format folder whose values.bin is then swapped for /dev/zero or a FIFO.
  const matrix = { rows: 64, cols: 2, bits: new Uint16Array(128).fill(0x3c00) };
  for (const name of ['zero-values', 'fifo-values']) writeKernelFormatDir(file(name), encodeKernelFormat(matrix));
  rmSync(file('zero-values/values.bin'));
  symlinkSync('/dev/zero', file('zero-values/values.bin'));
  rmSync(file('fifo-values/values.bin'));
  spawnSync('mkfifo', [file('fifo-values/values.bin')], { stdio: 'inherit' });
  mkdirSync(file('folder.npy'));
  writeFileSync(file('ok.npy'), encodeNpy('float16', [1, 1], new Uint16Array([0x3c00])));
});

describe('every reader of user files refuses a special file in one line, unread', () => {
  const readers: [string, (path: string) => unknown][] = [
    ['readNpy', (path) => readNpy(path)],
    ['readVectors', (path) => readVectors(path, { inputs: new Map([['enable', 1]]), outputs: new Map() })],
    ['readVcdFile', (path) => readVcdFile(path)],
  ];
  const specials: [string, string][] = [
    ['/dev/zero', 'a character device'],
    [fifo, 'a FIFO'],
    [file('folder.npy'), 'a folder'],
  ];
  for (const [reader, read] of readers)
    for (const [path, kind] of specials)
      it(`${reader}: ${kind}`, () => {
        expect(() => read(path)).toThrow(UserError);
        expect(() => read(path)).toThrow(`cannot read ${path}: ${kind}, not a regular file`);
      });

  it('readKernelFormatDir: values.bin that is /dev/zero or a FIFO', () => {
    for (const [name, kind] of [
      ['zero-values', 'a character device'],
      ['fifo-values', 'a FIFO'],
    ])
      expect(() => readKernelFormatDir(file(name!))).toThrow(`values.bin: cannot read: ${kind}, not a regular file`);
  });

  it('readKernelFormatDir: an array file larger than its count is refused before it is read', () => {
    rmSync(file('zero-values/values.bin'));
    writeFileSync(file('zero-values/values.bin'), Buffer.alloc(1 << 20));
    expect(() => readKernelFormatDir(file('zero-values'))).toThrow(
      /values\.bin: expected at most \d+ bytes, found 1048576/,
    );
  });
});

describe.concurrent('as the user runs them, gen commands end at once', () => {
  it.each([
    ['an .npy that is /dev/zero', ['formats', 'encode', '--a', '/dev/zero', '--out', file('o1')], /\/dev\/zero/],
    [
      'values.bin that is a FIFO',
      ['formats', 'decode', '--in', file('fifo-values'), '--out', file('f.npy')],
      /values\.bin/,
    ],
    ['a vector file that is a FIFO', ['sim', '--top', 'Counter', '--vectors', fifo], /fifo/],
  ])(
    '%s',
    async (_, args, named) => {
      const run = await gen(args);
      expect(run.timedOut, 'no bound').toBe(false);
      const line = expectCleanFailure(run);
      expect(line).toMatch(named);
      expect(line).toMatch(/not a regular file/);
    },
    120_000,
  );
});
