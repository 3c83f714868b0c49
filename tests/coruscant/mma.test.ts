/**
 * `gen mma` and `gen spmm --compute ts` end to end: small inputs through the CLI, results equal to
 * the golden models bit for bit; bad input is one line, exit 1 and no output file.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../common/errors.ts';
import { mmaCommand } from '../../coruscant/commands/mma.ts';
import { coruscantMma, denseMma } from '../../coruscant/golden/models/mma.ts';
import { spmm } from '../../coruscant/golden/models/spmm.ts';
import { readFp32Matrix, readNpy, writeNpy } from '../../coruscant/golden/io/npy.ts';
import { enableShowcase } from '../support/showcase.ts';

const root = resolve(import.meta.dirname, '../..');
const directory = mkdtempSync(join(tmpdir(), 'gen-mma-'));
enableShowcase(directory);
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const file = (name: string): string => join(directory, name);
const gen = (...args: string[]) =>
  execa('node', [join(root, 'bin/gen.js'), ...args], { reject: false, cwd: directory });

/** Deterministic FP16 bits with zeros (pruned), −0, ∞ and NaN among ordinary values. */
const PATTERN = [
  0x3c00, 0x0000, 0xb800, 0x4500, 0x0000, 0x8000, 0x1400, 0x0000, 0x3555, 0x7c00, 0x0000, 0xc123, 0x7e00,
];
const halves = (count: number, shift: number): Uint16Array =>
  Uint16Array.from({ length: count }, (_, i) => PATTERN[(i * 7 + shift) % PATTERN.length]!);
const floats = (count: number): Float32Array =>
  Float32Array.from({ length: count }, (_, i) => [0.5, -0, 3, -1e4, 2.25][i % 5]!);
const fp32Bits = (data: Float32Array): Uint32Array => new Uint32Array(data.buffer, data.byteOffset, data.length);

// Coruscant: a batch of two MMAs with one shared B; dense: one MMA.
const coruscantA = halves(2 * 32 * 64, 0);
const coruscantB = halves(64, 3);
const coruscantC = floats(2 * 32);
writeNpy(file('cA.npy'), 'float16', [2, 32, 64], coruscantA);
writeNpy(file('cB.npy'), 'float16', [64, 1], coruscantB);
writeNpy(file('cC.npy'), 'float32', [2, 32, 1], coruscantC);
const denseA = halves(256, 5);
const denseB = halves(128, 1);
writeNpy(file('dA.npy'), 'float16', [16, 16], denseA);
writeNpy(file('dB.npy'), 'float16', [16, 8], denseB);
// SpMM: M = 40 (two row blocks, one padded), K = 70 (two K chunks, one padded), N = 2.
const spmmA = halves(40 * 70, 2);
const spmmB = halves(70 * 2, 4);
writeNpy(file('sA.npy'), 'float16', [40, 70], spmmA);
writeNpy(file('sB.npy'), 'float16', [70, 2], spmmB);
writeNpy(file('wrongShape.npy'), 'float16', [16, 15], new Uint16Array(240));
writeNpy(file('wrongType.npy'), 'float32', [16, 16], new Float32Array(256));
writeNpy(file('threeB.npy'), 'float16', [3, 64, 1], new Uint16Array(192));

function expectNoOutput(out: string): void {
  expect(existsSync(file(out))).toBe(false);
  expect(readdirSync(directory).filter((name) => name.startsWith(`.${out}.`))).toEqual([]);
}

describe.concurrent('gen mma / gen spmm on the RTL', () => {
  it(
    'gen mma --mode coruscant on the in-process RTL equals the golden MMA per batch entry, and reports cycles',
    { timeout: 600_000 },
    async () => {
      const result = await gen(
        'mma',
        '--mode',
        'coruscant',
        '--a',
        'cA.npy',
        '--b',
        'cB.npy',
        '--c',
        'cC.npy',
        '--out',
        'cD.npy',
        '--engine',
        'ts',
      );
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^MMAs: 2\ncycles: 33 \(measured on ts[^\n]*\)\ncycles per MMA: 16\.50\n/);
      const D = readNpy(file('cD.npy'));
      expect(D.shape).toEqual([2, 32, 1]);
      const bits = fp32Bits(D.data as Float32Array);
      for (let t = 0; t < 2; t++) {
        const expected = coruscantMma(
          { rows: 32, cols: 64, bits: coruscantA.subarray(t * 2048, (t + 1) * 2048) },
          { rows: 64, cols: 1, bits: coruscantB },
          { rows: 32, cols: 1, bits: fp32Bits(coruscantC.subarray(t * 32, (t + 1) * 32)) },
        );
        expect([...bits.subarray(t * 32, (t + 1) * 32)]).toEqual([...expected.bits]);
      }
    },
  );

  it(
    'gen spmm --compute ts tiles into Coruscant MMAs and equals golden spmm bit for bit',
    { timeout: 600_000 },
    async () => {
      const result = await gen('spmm', '--a', 'sA.npy', '--b', 'sB.npy', '--out', 'sD.npy', '--compute', 'ts');
      expect(result.exitCode, result.stderr).toBe(0);
      expect(readFp32Matrix(file('sD.npy'))).toEqual(
        spmm({ rows: 40, cols: 70, bits: spmmA }, { rows: 70, cols: 2, bits: spmmB }),
      );
    },
  );

  it('gen mma --mode dense --engine golden writes the 16×8 D with C = +0', { timeout: 120_000 }, async () => {
    const result = await gen(
      'mma',
      '--mode',
      'dense',
      '--a',
      'dA.npy',
      '--b',
      'dB.npy',
      '--out',
      'dD.npy',
      '--engine',
      'golden',
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain('MMAs: 1\n');
    const expected = denseMma(
      { rows: 16, cols: 16, bits: denseA },
      { rows: 16, cols: 8, bits: denseB },
      { rows: 16, cols: 8, bits: new Uint32Array(128) },
    );
    expect(readFp32Matrix(file('dD.npy'))).toEqual(expected);
  });

  it('refuses bad input from the command line: one line, exit 1, no output', { timeout: 120_000 }, async () => {
    const result = await gen('mma', '--mode', 'dense', '--a', 'wrongShape.npy', '--b', 'dB.npy', '--out', 'bad0.npy');
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/wrongShape\.npy: shape 16×15 does not fit/);
    expectNoOutput('bad0.npy');
  });

  // The same refusals in-process (the CLI turns any UserError into the one line above).
  it.each([
    [
      'an A of the wrong dtype',
      { mode: 'dense', a: 'wrongType.npy', b: 'dB.npy', out: 'bad2.npy', engine: 'ts' },
      /wrongType\.npy: expected float16, found float32/,
    ],
    [
      'a B batch that does not match A',
      { mode: 'coruscant', a: 'cA.npy', b: 'threeB.npy', out: 'bad3.npy', engine: 'ts' },
      /threeB\.npy: shape 3×64×1 does not fit: expected 64×1 or 2×64×1/,
    ],
    [
      'a C of the wrong dtype',
      { mode: 'coruscant', a: 'cA.npy', b: 'cB.npy', c: 'dB.npy', out: 'bad4.npy', engine: 'ts' },
      /dB\.npy: expected float32, found float16/,
    ],
    [
      'a missing file',
      { mode: 'dense', a: 'nope.npy', b: 'dB.npy', out: 'bad5.npy', engine: 'ts' },
      /cannot read .*nope\.npy/,
    ],
    [
      '--vcd with the golden engine',
      { mode: 'dense', a: 'dA.npy', b: 'dB.npy', out: 'bad6.npy', engine: 'golden', vcd: 'w.vcd' },
      /--vcd needs an RTL engine/,
    ],
  ] as [string, Record<string, string>, RegExp][])(
    'refuses %s with a UserError and no output',
    async (_what, options, message) => {
      const argv = Object.fromEntries(
        Object.entries(options).map(([key, value]) => [key, key === 'mode' || key === 'engine' ? value : file(value)]),
      );
      const run = (mmaCommand.handler as (args: unknown) => Promise<void>)({ ...argv, _: [], $0: 'gen' });
      await expect(run).rejects.toThrow(UserError);
      await expect(run).rejects.toThrow(message);
      expectNoOutput(options['out']!);
    },
  );
});
