import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { hasTool } from '../../tools/toolchain.ts';
import yargs from 'yargs';
import { UserError } from '../../common/errors.ts';
import { synthCommand } from '../../gen/cli/commands/synth.ts';
import { registeredPopcount } from './designs.ts';

/** The installed Yosys, found the one way the framework finds it. */
const hasSystemYosys = hasTool('yosys');

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
    const result = await gen([
      'synth',
      '--verilog',
      source,
      '--top',
      'regpop',
      '--yosys',
      'system',
      '--cycles',
      '40',
      '--svg',
      svg,
      '--out',
      out,
    ]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(
      /^component\s+cells\s+area µm² 45 nm\s+area µm² 7 nm\s+leakage µW\s+dynamic µW\s+total µW 45 nm\s+total µW 7 nm\s+path ps 45 nm\s+path ps 7 nm/,
    );
    expect(result.stdout).toMatch(/^regpop \(total\)\s+\d+/m);
    expect(result.stdout).toMatch(/^popcount16\s+\d+/m);
    expect(result.stdout).toContain('by opensta');
    const chart = readFileSync(svg, 'utf8');
    expect(chart).toMatch(/^<\?xml[^>]*>\n<svg xmlns[^>]*>\n<svg y="0" [\s\S]*<svg y="\d+" [\s\S]*<\/svg>\n$/);
    expect(chart.match(/popcount16/g)?.length).toBe(2);
    expect(chart.match(/<\?xml/g)?.length).toBe(1);
    for (const name of [
      'cells.lib',
      'cells.v',
      'mapped.v',
      'mapped_flat.v',
      'report.json',
      'report.txt',
      'timing.txt',
      'yosys.log',
    ]) {
      expect(existsSync(join(out, name)), name).toBe(true);
    }
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
      components: { module: string; area45: number }[];
      yosysChipArea: number;
    };
    expect(report.components[0]?.area45).toBeCloseTo(report.yosysChipArea, 3);
  });

  it('fails with one line and exit 1 on a missing file', async () => {
    const result = await gen(['synth', '--verilog', join(directory, 'absent.v'), '--top', 'x']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^gen: cannot read .*absent\.v: ENOENT/);
  });

  it.skipIf(!hasSystemYosys)(
    'synthesizes a registered top with its parameters on the sparse workload by default',
    async () => {
      const result = await gen([
        'synth',
        '--top',
        'AdderChain',
        '--param',
        'tileLength=32',
        '--yosys',
        'system',
        '--cycles',
        '40',
        '--timing',
        'longest-path',
      ]);
      expect(result.stderr).toBe('');
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toMatch(/^AdderChain_tileLength_32 \(total\)\s+\d+/m);
      expect(result.stdout).toContain('40 cycles of back-to-back MMAs on Wanda-pruned weights at 50 % sparsity');
    },
  );

  // In-process through the same command module (a `gen` process takes seconds to start).
  it.each([
    [['--top', 'NoSuchTop'], /^unknown top 'NoSuchTop'/],
    [['--top', 'AdderChain', '--param', 'depth=3'], /^AdderChain has no parameter 'depth'/],
    [['--top', 'AdderChain', '--workload', 'random', '--sparsity', '0.3'], /^--sparsity needs the sparse workload/],
    [['--top', 'AdderChain', '--sparsity', '1.5'], /^sparsity must be in \[0, 1\)/],
    [['--top', 'Counter', '--workload', 'sparse'], /^Counter has no sparse workload/],
    [['--verilog', 'x.v', '--top', 'x', '--param', 'a=1'], /^--param applies to registered tops/],
    [['--top', 'AdderChain', '--timeout', '0'], /^--timeout must be a positive number/],
    [['--top', 'TensorLane', '--compose', 'Nope'], /^--compose Nope: Nope has no sparse workload/],
  ])('rejects %j with a UserError', async (args, message) => {
    const parser = yargs()
      .strict()
      .command(synthCommand)
      .fail((text, error) => {
        throw error ?? new UserError(text);
      });
    const failure = await parser.parseAsync(['synth', ...args]).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(UserError);
    expect((failure as Error).message).toMatch(message);
  });
});
