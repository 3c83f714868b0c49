import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCounterTrace } from '../waves/traceFixtures.ts';

const root = join(import.meta.dirname, '..', '..');
const directory = mkdtempSync(join(tmpdir(), 'gen-wave-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function gen(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [join(root, 'bin', 'gen.js'), 'wave', ...args], {
    encoding: 'utf8',
    cwd: directory,
    env: { ...process.env, CI: '1' },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A user mistake: exit 1, one line on stderr naming the problem, no stack trace. */
function expectOneLineError(result: ReturnType<typeof gen>, pattern: RegExp): void {
  expect(result.status).toBe(1);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(pattern);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

describe('gen wave', () => {
  const a = join(directory, 'a.vcd');
  const same = join(directory, 'same.vcd');
  const planted = join(directory, 'planted.vcd');

  beforeAll(async () => {
    await writeCounterTrace(a);
    await writeCounterTrace(same, { top: ['TOP', 'top'] });
    await writeCounterTrace(planted, { plantAt: 17 });
  });

  it('list prints the signal tree with widths', () => {
    const result = gen('list', '--vcd', a);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      'timescale 1ns, 4 signals, ends at #400\ntop/\n  clk [1]\n  core/\n    count [8]\n    parity [1]\n    wide [100]\n',
    );
  });

  it('show writes WaveDrom JSON, SVG and PNG of the selected window', () => {
    const [json, svg, png] = ['w.json', 'w.svg', 'w.png'].map((name) => join(directory, 'out', name)) as [
      string,
      string,
      string,
    ];
    const result = gen(
      'show',
      '--vcd',
      a,
      '--signals',
      'top.core.c*,top.core.parity',
      '--from',
      '2',
      '--to',
      '5',
      '--json',
      json,
      '--svg',
      svg,
      '--png',
      png,
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const source = JSON.parse(readFileSync(json, 'utf8')) as { signal: unknown[] };
    expect(source.signal[0]).toEqual({ name: 'top.clk', wave: 'p...' });
    expect(source.signal[2]).toEqual([
      'top',
      ['core', { name: 'count', wave: '====', data: ['6', '9', 'c', 'f'] }, { name: 'parity', wave: '0...' }],
    ]);
    expect(readFileSync(svg, 'utf8')).toMatch(/^<svg[\s\S]*<\/svg>$/);
    expect([...readFileSync(png).subarray(1, 4)].map((byte) => String.fromCharCode(byte)).join('')).toBe('PNG');
  });

  it('diff exits 0 with "identical" when traces agree (Verilator-style TOP stripped)', () => {
    const result = gen('diff', a, same);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('identical (compared 4 signals; 0 only in A, 0 only in B, 0 of different widths)\n');
  });

  it('diff exits 1 with a summary on stdout and draws the divergence', () => {
    const svg = join(directory, 'diff.svg');
    const result = gen('diff', a, planted, '--svg', svg);
    expect(result.status).toBe(1);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(
      'diverged at 170ns (cycle 17): top.core.count, top.core.parity, top.core.wide (compared 4 signals; 0 only in A, 0 only in B, 0 of different widths)',
    );
    expect(lines[1]).toBe('  top.core.count: A=0x33 B=0x34');
    expect(result.stderr).toBe(`gen: ${a} and ${planted} diverge\n`);
    expect(readFileSync(svg, 'utf8')).toContain('A:top.core.count');
  });

  it('rejects a malformed VCD with one line naming file and line, and writes no output', () => {
    const bad = join(directory, 'bad.vcd');
    writeFileSync(bad, readFileSync(a, 'utf8').replace('b110011 "', 'b110011 ?'));
    const out = join(directory, 'never.svg');
    expectOneLineError(gen('show', '--vcd', bad, '--svg', out), new RegExp(`${bad}:\\d+: unknown id code '\\?'`));
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(directory).filter((name) => name.includes('never'))).toEqual([]);
  });

  it('rejects bad options with one line', () => {
    expectOneLineError(gen('show', '--vcd', a), /name an output: --svg, --png or --json/);
  });
});
