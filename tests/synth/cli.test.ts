import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { registeredPopcount } from './designs.ts';

const hasSystemYosys = (() => {
  try {
    execFileSync('yosys', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const directory = mkdtempSync(join(tmpdir(), 'gen-synth-test-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const gen = (args: string[]) => execa('node', ['bin/gen.js', ...args], { reject: false, env: { CI: '1' } });

describe('gen synth', () => {
  // The system Yosys keeps this end-to-end run fast; the embedded engine is covered in flow.test.ts.
  it.skipIf(!hasSystemYosys)('prints the per-block table and writes the chart and the output directory', async () => {
    const source = join(directory, 'regpop.v');
    writeFileSync(source, registeredPopcount.verilog);
    const out = join(directory, 'out');
    const svg = join(directory, 'chart.svg');
    const result = await gen(['synth', '--verilog', source, '--top', 'regpop', '--engine', 'system', '--cycles', '40', '--svg', svg, '--out', out]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^component\s+cells\s+area µm² 45 nm\s+area µm² 7 nm\s+leakage µW\s+dynamic µW\s+total µW 45 nm\s+total µW 7 nm\s+path ps 45 nm\s+path ps 7 nm/);
    expect(result.stdout).toMatch(/^regpop \(total\)\s+\d+/m);
    expect(result.stdout).toMatch(/^popcount16\s+\d+/m);
    expect(result.stdout).toContain('by opensta');
    const chart = readFileSync(svg, 'utf8');
    expect(chart).toMatch(/^<\?xml[^>]*>\n<svg xmlns[^>]*>\n<svg y="0" [\s\S]*<svg y="360" [\s\S]*<\/svg>\n$/);
    expect(chart.match(/popcount16/g)?.length).toBe(2);
    expect(chart.match(/<\?xml/g)?.length).toBe(1);
    for (const name of ['cells.lib', 'cells.v', 'mapped.v', 'mapped_flat.v', 'report.json', 'report.txt', 'timing.txt', 'yosys.log']) {
      expect(existsSync(join(out, name)), name).toBe(true);
    }
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { components: { module: string; area45: number }[]; yosysChipArea: number };
    expect(report.components[0]?.area45).toBeCloseTo(report.yosysChipArea, 3);
  });

  it('fails with one line and exit 1 on a missing file', async () => {
    const result = await gen(['synth', '--verilog', join(directory, 'absent.v'), '--top', 'x']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^gen: cannot read .*absent\.v: ENOENT/);
  });
});
