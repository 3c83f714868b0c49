import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SizeReport } from '../../coruscant/golden/formats/sizeReport.ts';
import { readNpy, writeNpy } from '../../coruscant/golden/io/npy.ts';
import { syntheticLlmLayer } from '../../coruscant/golden/pruning/synthetic.ts';
import { referenceLayout } from './golden/formats/referenceEncoder.ts';

const scratch = mkdtempSync(join(tmpdir(), 'gen-formats-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function gen(...args: string[]) {
  return execa('node', ['bin/gen.js', 'formats', ...args], { reject: false, env: { CI: '1' } });
}

function percent(report: SizeReport, accounting: string, format: string, sparsity: number): number | null {
  const entry = report.entries.find(
    (e) => e.accounting === accounting && e.format === format && e.sparsity === sparsity,
  );
  if (!entry) throw new Error(`no ${accounting} ${format} at ${sparsity}`);
  return entry.percentOfDense;
}

describe('gen formats', () => {
  it('reproduces Fig. 3 with the paper accounting at 9216×9216', async () => {
    const run = await gen('--accounting', 'paper');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^9216×9216 FP16/);
    // Coruscant exactly 56.25 % at 50 % and 36.25 % at 70 %; CSR and Tiled-CSL > 100 % at 50 %; COO 90 % at 70 %.
    expect(run.stdout).toMatch(/^Coruscant\s+76\.25\s+66\.25\s+56\.25\s+46\.25\s+36\.25$/m);
    expect(run.stdout).toMatch(/^CSR\s+140\.01\s+120\.01\s+100\.01\s+80\.01\s+60\.01$/m);
    expect(run.stdout).toMatch(/^Tiled-CSL\s+140\.01\s+120\.01\s+100\.01\s+80\.01\s+60\.01$/m);
    expect(run.stdout).toMatch(/^COO\s+210\.00\s+180\.00\s+150\.00\s+120\.00\s+90\.00$/m);
    expect(run.stdout).toMatch(/^2:4\s+n\/a/m);
  });

  it('reports exact sizes at or just above the paper figures as JSON, and draws the chart', async () => {
    // 2048×2048 keeps the test quick; the 9216×9216 figures are in the report (see sizes.ts).
    const svg = join(scratch, 'fig3.svg');
    const run = await gen('--shape', '2048x2048', '--sparsity', '0.7,0.5', '--json', '--svg', svg, '--seed', '3');
    expect(run.exitCode).toBe(0);
    const report = JSON.parse(run.stdout) as SizeReport;
    expect(report.sparsities).toEqual([0.5, 0.7]);
    expect(percent(report, 'paper', 'Coruscant', 0.5)).toBe(56.25);
    for (const sparsity of [0.5, 0.7]) {
      const paper = percent(report, 'paper', 'Coruscant', sparsity)!;
      const exact = percent(report, 'exact', 'Coruscant', sparsity)!;
      expect(exact).toBeGreaterThanOrEqual(paper);
      // docs/reference/facts.md §5: "as coded" = 64.83 % at 50 %, 44.90 % at 70 % for a uniform mask.
      expect(exact - paper).toBeGreaterThan(8);
      expect(exact - paper).toBeLessThan(9);
      expect(percent(report, 'exact', 'Tiled-CSL', sparsity)).toBeCloseTo(sparsity === 0.5 ? 100.06 : 60.06, 1);
      expect(percent(report, 'exact', '2:4', sparsity)).toBeNull();
    }
    const picture = readFileSync(svg, 'utf8');
    expect(picture).toMatch(/^<\?xml/);
    expect(picture).toContain('dense (100 %)');
    for (const format of ['CSR', 'CSC', 'COO', 'ELL', 'Tiled-CSL', 'Coruscant'])
      expect(picture).toMatch(new RegExp(`<text[^>]*>${format}</text>`));
  });

  it('measures a real weight file pruned with Wanda', async () => {
    const layer = syntheticLlmLayer(128, 256, 4);
    const [weights, norms] = [join(scratch, 'w.npy'), join(scratch, 'norms.npy')];
    writeNpy(weights, 'float16', [128, 256], layer.weights.bits);
    writeNpy(norms, 'float64', [256], layer.activationNorms);
    const run = await gen('--weights', weights, '--prune', 'wanda', '--norms', norms, '--sparsity', '0.5', '--json');
    expect(run.exitCode).toBe(0);
    const report = JSON.parse(run.stdout) as SizeReport;
    expect(report.matrix).toBe(`${weights}, Wanda-pruned`);
    expect([report.rows, report.cols]).toEqual([128, 256]);
    // Wanda leaves exactly K/2 nonzeros in every row: ELL needs no padding slots.
    expect(percent(report, 'exact', 'ELL', 0.5)).toBe(100);
  });

  const mistakes: [what: string, args: string[], message: RegExp][] = [
    ['sparsity 1', ['--sparsity', '0.5,1'], /sparsity must be in \[0, 1\), got 1/],
    ['a non-numeric sparsity', ['--sparsity', '0.5,abc'], /--sparsity must be a comma-separated list/],
    ['a malformed shape', ['--shape', '9216by9216'], /--shape must be MxK/],
    ['Wanda without activation norms', ['--weights', 'w.npy', '--prune', 'wanda'], /--prune wanda needs --norms/],
  ];
  it.each(mistakes)(
    'rejects %s with one line on stderr, a non-zero exit and no output',
    async (_what, args, message) => {
      const svg = join(scratch, 'never.svg');
      const run = await gen(...args, '--svg', svg);
      expect(run.exitCode).not.toBe(0);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(run.stdout).toBe('');
      expect(existsSync(svg)).toBe(false);
    },
  );
});

/** A 150×5 matrix: two full row blocks and 22 rows of a partial one; −0, NaNs, infinities and subnormals among random values. */
function exchangeMatrix(): { rows: number; cols: number; bits: Uint16Array } {
  const [rows, cols] = [150, 5];
  const bits = new Uint16Array(rows * cols);
  let state = 12345;
  const next = (): number => (state = (Math.imul(state, 1103515245) + 12345) >>> 0);
  for (let i = 0; i < bits.length; i++) {
    const pick = next() % 10;
    bits[i] =
      pick < 5 ? 0 : pick === 5 ? 0x8000 : pick === 6 ? [0x7e00, 0x7c00, 0xfc01, 0x0001][next() % 4]! : next() & 0xffff;
  }
  bits[0] = 0x8000; // the first element of the first tile, so the −0 is inside the kept blocks
  return { rows, cols, bits };
}

const countOf = (bits: Uint16Array, half: number): number => bits.filter((b) => b === half).length;

describe('gen formats encode / decode', () => {
  const matrix = exchangeMatrix();
  const input = join(scratch, 'exchange.npy');
  writeNpy(input, 'float16', [matrix.rows, matrix.cols], matrix.bits);

  it.each(['kernel', 'stc'])(
    'round-trips a matrix bit for bit through the %s format, with and without header.json',
    async (format) => {
      const dir = join(scratch, `exchange-${format}`);
      const encoded = await gen('encode', '--a', input, '--out', dir, '--format', format, '--device-padding');
      expect(encoded.exitCode, encoded.stderr).toBe(0);
      expect(encoded.stderr).toBe('');
      expect(readdirSync(dir).sort()).toEqual(['bitmaps.bin', 'header.json', 'offsets.bin', 'values.bin']);
      const back = join(scratch, `exchange-${format}.npy`);
      const decoded = await gen('decode', '--in', dir, '--out', back, '--format', format);
      expect(decoded.exitCode, decoded.stderr).toBe(0);
      expect(readFileSync(back)).toEqual(readFileSync(input));
      // Without the header the shape comes from the command line, and the device padding from the length.
      rmSync(join(dir, 'header.json'));
      const missing = await gen('decode', '--in', dir, '--out', back, '--format', format);
      expect(missing.exitCode).toBe(1);
      expect(missing.stderr.trim().split('\n')).toHaveLength(1);
      expect(missing.stderr).toMatch(/header\.json: missing; give the shape/);
      const headerless = await gen('decode', '--in', dir, '--out', back, '--format', format, '--shape', '150x5');
      expect(headerless.exitCode, headerless.stderr).toBe(0);
      expect(readFileSync(back)).toEqual(readFileSync(input));
    },
  );

  it('--compat cuda refuses a partial row block unless told to drop it', async () => {
    const dir = join(scratch, 'refused');
    const run = await gen('encode', '--a', input, '--out', dir, '--compat', 'cuda');
    expect(run.exitCode).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(
      /exchange\.npy: M=150 is not a multiple of 64; the reference encoder drops the last 22 rows/,
    );
    expect(existsSync(dir)).toBe(false);
  });

  it("--compat cuda writes the reference encoder's bytes: −0 as zero, the partial row block dropped, each with a warning", async () => {
    const dir = join(scratch, 'cuda');
    const run = await gen(
      'encode',
      '--a',
      input,
      '--out',
      dir,
      '--compat',
      'cuda',
      '--partial',
      'drop',
      '--device-padding',
    );
    expect(run.exitCode, run.stderr).toBe(0);
    const kept = matrix.bits.subarray(0, 128 * 5);
    expect(countOf(kept, 0x8000)).toBeGreaterThan(1);
    expect(run.stderr).toContain('warning: dropped the last 22 rows (M=150 is not a multiple of 64)');
    expect(run.stderr).toContain(`warning: ${countOf(kept, 0x8000)} elements are −0 (0x8000), encoded as zero`);
    const reference = referenceLayout(matrix.rows, matrix.cols, matrix.bits);
    expect(readFileSync(join(dir, 'bitmaps.bin'))).toEqual(reference.bitmaps);
    expect(readFileSync(join(dir, 'offsets.bin'))).toEqual(reference.offsets);
    // values.bin = the reference's packed nonzeros, then 16 zero bytes the kernel may over-read.
    expect(readFileSync(join(dir, 'values.bin'))).toEqual(Buffer.concat([reference.values, Buffer.alloc(16)]));
    // Decoding gives the 128 kept rows, +0 where the input had −0.
    const back = join(scratch, 'cuda.npy');
    rmSync(join(dir, 'header.json'));
    const decoded = await gen('decode', '--in', dir, '--out', back, '--shape', '128x5');
    expect(decoded.exitCode, decoded.stderr).toBe(0);
    const array = readNpy(back);
    expect(array.shape).toEqual([128, 5]);
    expect([...(array.data as Uint16Array)]).toEqual([...kept].map((half) => (half === 0x8000 ? 0 : half)));
  });
});
