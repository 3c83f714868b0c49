import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../common/errors.ts';
import { spmmCommand } from '../../coruscant/commands/spmm.ts';
import { spmm } from '../../coruscant/golden/models/spmm.ts';
import { readFp32Matrix, writeNpy } from '../../coruscant/golden/io/npy.ts';
import { enableShowcase } from '../support/showcase.ts';

const root = resolve(import.meta.dirname, '../..');
const directory = mkdtempSync(join(tmpdir(), 'gen-spmm-'));
enableShowcase(directory);
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const file = (name: string): string => join(directory, name);

const gen = (...args: string[]) =>
  execa('node', [join(root, 'bin/gen.js'), ...args], { reject: false, cwd: directory });

// A 130×70 times 70×2 problem: M spans three row slabs, K crosses an STC row tile boundary;
// −0, NaN and ∞ included.
const M = 130;
const A = Uint16Array.from(
  { length: M * 70 },
  (_, i) => [0x3c00, 0xb800, 0x0000, 0x8000, 0x4500, 0x7c00, 0x1400][i % 7]!,
);
const B = Uint16Array.from({ length: 70 * 2 }, (_, i) => [0x3800, 0xc000, 0x3c00, 0x0001, 0x7e00][i % 5]!);
const C = Float32Array.from({ length: M * 2 }, (_, i) => [0.5, -0, 1e30, -3, 2, 7, 1.25][i % 7]!);
writeNpy(file('A.npy'), 'float16', [M, 70], A);
writeNpy(file('B.npy'), 'float16', [70, 2], B);
writeNpy(file('C.npy'), 'float32', [M, 2], C);
writeNpy(file('A32.npy'), 'float32', [M, 70], new Float32Array(M * 70));
writeNpy(file('B69.npy'), 'float16', [69, 2], new Uint16Array(69 * 2));
writeNpy(file('C22.npy'), 'float32', [2, 2], new Float32Array(4));
writeFileSync(file('junk.npy'), 'not numpy');

/** Asserts that `out` and its temporary siblings (writeFileAtomic's `.name.*.tmp`) do not exist. */
function expectNoOutput(out: string): void {
  expect(existsSync(file(out))).toBe(false);
  expect(readdirSync(directory).filter((name) => name.startsWith(`.${out}.`))).toEqual([]);
}

// Concurrent: each spawn spends most of its time starting the CLI, so overlap them.
describe.concurrent('gen spmm', () => {
  it('writes D = A·B + C equal to the golden model bit for bit, with and without --c', async () => {
    const [withC, withoutC] = await Promise.all([
      gen('spmm', '--a', 'A.npy', '--b', 'B.npy', '--c', 'C.npy', '--out', 'D.npy'),
      gen('spmm', '--a', 'A.npy', '--b', 'B.npy', '--out', 'out/D0.npy', '--compute', 'golden'),
    ]);
    expect(withC.exitCode, withC.stderr).toBe(0);
    expect(withoutC.exitCode, withoutC.stderr).toBe(0);
    const a = { rows: M, cols: 70, bits: A };
    const b = { rows: 70, cols: 2, bits: B };
    const expected = spmm(a, b, { rows: M, cols: 2, bits: new Uint32Array(C.buffer) });
    expect(readFp32Matrix(file('D.npy'))).toEqual(expected);
    expect(readFp32Matrix(file('out/D0.npy'))).toEqual(spmm(a, b));
  });

  it('takes --compute, and its old name --engine for one release with a one-line warning', async () => {
    const [renamed, old] = await Promise.all([
      gen('spmm', '--a', 'A.npy', '--b', 'B.npy', '--out', 'out/Dc.npy', '--compute', 'golden'),
      gen('spmm', '--a', 'A.npy', '--b', 'B.npy', '--out', 'out/De.npy', '--engine', 'golden'),
    ]);
    expect(renamed.exitCode, renamed.stderr).toBe(0);
    expect(renamed.stderr).toBe('');
    expect(old.exitCode, old.stderr).toBe(0);
    expect(old.stderr.trim()).toBe('gen: --engine is now --compute; the old name goes in the next release');
    expect(readFp32Matrix(file('out/De.npy'))).toEqual(readFp32Matrix(file('out/Dc.npy')));
  });

  const failures: [string, string[], RegExp][] = [
    [
      'A of the wrong dtype',
      ['--a', 'A32.npy', '--b', 'B.npy'],
      /A32\.npy: expected a 2-D float16 matrix, found a 2-D float32/,
    ],
    [
      'shapes that do not multiply',
      ['--a', 'A.npy', '--b', 'B69.npy'],
      /cannot multiply A\.npy \(130×70\) by B69\.npy \(69×2\)/,
    ],
    ['a missing file', ['--a', 'missing.npy', '--b', 'B.npy'], /cannot read missing\.npy: ENOENT/],
    ['an unknown engine', ['--a', 'A.npy', '--b', 'B.npy', '--engine', 'spice'], /Invalid values: .*engine.*"spice"/],
  ];
  it.each(failures)('fails cleanly on %s: one line, exit 1, no output file', async (name, args, message) => {
    const out = `D-${name.replaceAll(' ', '-')}.npy`;
    const result = await gen('spmm', ...args, '--out', out);
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expectNoOutput(out);
  });

  // The same checks in-process (a spawn costs seconds): each is a UserError, which the CLI prints as one line.
  it.each([
    ['C of the wrong shape', { a: 'A.npy', b: 'B.npy', c: 'C22.npy' }, /C22\.npy is 2×2 but A·B is 130×2/],
    ['a file that is not .npy', { a: 'junk.npy', b: 'B.npy' }, /junk\.npy \(byte 0\): not a \.npy file/],
    ['a repeated option', { a: ['A.npy', 'A.npy'], b: 'B.npy' }, /give --a exactly once/],
    ['an option without a file', { a: 'A.npy', b: '' }, /give --b exactly once/],
  ])('rejects %s as a UserError', async (name, options, message) => {
    const out = `D-${name.replaceAll(' ', '-')}.npy`;
    const files = Object.fromEntries(
      Object.entries(options).map(([key, value]) => [
        key,
        Array.isArray(value) ? value.map(file) : value && file(value),
      ]),
    );
    const run = async () =>
      (spmmCommand.handler as (argv: object) => Promise<void>)({ engine: 'golden', out: file(out), ...files });
    await expect(run()).rejects.toThrow(UserError);
    await expect(run()).rejects.toThrow(message);
    expectNoOutput(out);
  });

  it('fails cleanly on an unwritable output, leaving nothing behind', async () => {
    const result = await gen('spmm', '--a', 'A.npy', '--b', 'B.npy', '--out', 'A.npy/D.npy');
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/A\.npy\/D\.npy/);
    expect(existsSync(file('A.npy/D.npy'))).toBe(false);
    expect(readdirSync(directory).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('documents every option in --help', async () => {
    const result = await gen('spmm', '--help');
    expect(result.exitCode).toBe(0);
    for (const option of ['-a', '-b', '-c', '--out', '--compute', 'choices: "golden"'])
      expect(result.stdout).toContain(option);
  });
});
