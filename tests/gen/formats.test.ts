import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SizeReport } from '../../golden/formats/sizeReport.ts';
import { writeNpy } from '../../golden/io/npy.ts';
import { syntheticLlmLayer } from '../../golden/pruning/synthetic.ts';

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
      expect(picture).toContain(`data-name="${format}"`);
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
