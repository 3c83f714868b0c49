import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { TsEngine } from '../../engines/ts/tsEngine.ts';
import { Counter } from '../../hw/examples/counter.ts';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { coverageProblems, findDivergence } from '../../waves/divergence.ts';
import { parseVcd, type VcdTrace } from '../../waves/vcdReader.ts';
import { expectCleanFailure, runGen } from '../support/cli.ts';
import { writeCounterTrace } from '../waves/traceFixtures.ts';

/*
 * No false pass from `gen wave diff`: "identical" only when both traces were compared whole —
 * same length, same signals, same widths — unless --shorter / --common-signals say otherwise.
 * A header-only VCD (a simulator that died at once) and a cut-off one (a full disk, a kill) are
 * what a dead run leaves.
 */

const dir = mkdtempSync(join(tmpdir(), 'hardening-wave-diff-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string): string => join(dir, name);

beforeAll(async () => {
  await writeCounterTrace(file('good.vcd'));
  await writeCounterTrace(file('same.vcd'));
  const text = readFileSync(file('good.vcd'), 'latin1');
  const header = text.slice(0, text.indexOf('$enddefinitions $end') + '$enddefinitions $end\n'.length);
  writeFileSync(file('header-only.vcd'), header);
  // Cut at a line boundary about half-way: a trace that simply stops.
  const half = text.indexOf('\n#', Math.floor(text.length / 2)) + 1;
  writeFileSync(file('cut.vcd'), text.slice(0, half));
  // A wider `count` and one extra signal: the same values, a different design.
  writeFileSync(file('wider.vcd'), text.replace(/\$var wire 8 (\S+) count/, '$var wire 9 $1 count'));
  writeFileSync(
    file('extra.vcd'),
    text
      .replace('$upscope $end', '$var wire 1 ~~ extra $end\n$upscope $end')
      .replace('$dumpvars\n', '$dumpvars\n0~~\n'),
  );
});

describe('gen wave diff fails unless both traces were compared whole', () => {
  it('identical traces still pass', async () => {
    const run = await runGen(['wave', 'diff', file('good.vcd'), file('same.vcd')]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^identical/);
  }, 60_000);

  it('a header-only trace against a good one fails, naming both lengths', async () => {
    const run = await runGen(['wave', 'diff', file('good.vcd'), file('header-only.vcd')]);
    expect(expectCleanFailure(run)).toMatch(/do not cover the same: A ends at 400ns and B at 0ns/);
    expect(run.stdout).not.toMatch(/identical/);
  }, 60_000);

  it('a cut-off trace fails either way round; --shorter accepts it explicitly', async () => {
    const [forward, backward, allowed] = await Promise.all([
      runGen(['wave', 'diff', file('good.vcd'), file('cut.vcd')]),
      runGen(['wave', 'diff', file('cut.vcd'), file('good.vcd')]),
      runGen(['wave', 'diff', file('good.vcd'), file('cut.vcd'), '--shorter']),
    ]);
    expect(expectCleanFailure(forward)).toMatch(/A ends at 400ns and B at \d+ns \(a trace cut short\?\)/);
    expect(expectCleanFailure(backward)).toMatch(/A ends at \d+ns and B at 400ns/);
    expect(allowed.exitCode, allowed.stderr).toBe(0);
    expect(allowed.stdout).toMatch(/^identical/);
  }, 60_000);

  it('a resized or an extra signal fails, named; --common-signals accepts it explicitly', async () => {
    const [wider, extra, allowed] = await Promise.all([
      runGen(['wave', 'diff', file('good.vcd'), file('wider.vcd')]),
      runGen(['wave', 'diff', file('good.vcd'), file('extra.vcd')]),
      runGen(['wave', 'diff', file('good.vcd'), file('extra.vcd'), '--common-signals']),
    ]);
    expect(expectCleanFailure(wider)).toMatch(/different widths: top\.core\.count/);
    expect(expectCleanFailure(extra)).toMatch(/only in B: top\.core\.extra/);
    expect(allowed.exitCode, allowed.stderr).toBe(0);
  }, 60_000);

  it('per-cycle alignment fails on a cut-off trace too (cycle counts compared)', async () => {
    const [cut, header] = await Promise.all([
      runGen(['wave', 'diff', file('good.vcd'), file('cut.vcd'), '--align', 'cycle']),
      runGen(['wave', 'diff', file('good.vcd'), file('header-only.vcd'), '--align', 'cycle']),
    ]);
    // The cut trace's last cycle is partial, so it may differ first; either way it is no pass.
    expect(expectCleanFailure(cut)).toMatch(/diverge|A has [\d.]+ cycles and B [\d.]+/);
    expect(expectCleanFailure(header)).toMatch(/A has [\d.]+ cycles and B 0|no clock|diverge/);
  }, 60_000);
});

/*
 * A cycle-aligned diff compares per-cycle samples, and a cycle's sample is taken just before its
 * edge: what a trace holds after its last edge (the registers' last update, the falling clock, the
 * end time) belongs to no full cycle. A trace cut there, or altered there, must still not pass.
 */
describe('gen wave diff --align cycle compares the ends of the traces', () => {
  let text = '';
  let full: VcdTrace;

  beforeAll(async () => {
    const enables = [0, 1, 1, 1, 0, 1, 1, 1, 1, 1].map((enable) => ({ enable: BigInt(enable) }));
    await new TsEngine().run(elaborate(Counter, {}), enables, { vcd: file('counter.vcd') });
    text = readFileSync(file('counter.vcd'), 'latin1');
    full = parseVcd(text, 'full.vcd');
  });

  /** What the diff would say: identical only when no divergence and nothing left uncompared. */
  function verdict(other: string): 'identical' | 'different' | 'refused' {
    let trace: VcdTrace;
    try {
      trace = parseVcd(other, 'other.vcd');
    } catch {
      return 'refused';
    }
    const report = findDivergence(full, trace, { align: 'cycle' });
    return report.divergence === undefined && coverageProblems(report).length === 0 ? 'identical' : 'different';
  }

  /** Whether two texts hold the same trace (same changes, same end): the diff's only licence to pass. */
  function sameTrace(other: string): boolean {
    try {
      const trace = parseVcd(other, 'other.vcd');
      return trace.endTime === full.endTime && isDeepStrictEqual(trace.changes, full.changes);
    } catch {
      return false;
    }
  }

  it('a trace cut at any byte is never identical unless it holds the same trace', () => {
    const falsePasses: number[] = [];
    for (let cut = 0; cut < text.length; cut++) {
      const shorter = text.slice(0, cut);
      if (verdict(shorter) === 'identical' && !sameTrace(shorter)) falsePasses.push(cut);
    }
    expect(falsePasses.map((cut) => JSON.stringify(text.slice(Math.max(0, cut - 12), cut)))).toEqual([]);
  });

  it('a change altered after the last clock edge is a divergence', () => {
    const lines = text.split('\n');
    const clockId = full.signals.find((signal) => signal.name === 'clk')!.id;
    const lastEdge = lines.lastIndexOf(`1${clockId}`);
    expect(lastEdge).toBeGreaterThan(0);
    const altered: string[] = [];
    for (let index = lastEdge + 1; index < lines.length; index++) {
      const line = lines[index]!;
      const flipped = /^b/.test(line)
        ? line.replace(/^b([01]+)/, (_, bits: string) => `b${bits}1`)
        : /^[01]/.test(line)
          ? `${line[0] === '1' ? '0' : '1'}${line.slice(1)}`
          : /^#\d+$/.test(line)
            ? `#${Number(line.slice(1)) + 1}`
            : undefined;
      if (flipped === undefined) continue;
      const other = [...lines.slice(0, index), flipped, ...lines.slice(index + 1)].join('\n');
      altered.push(`${line} -> ${flipped}: ${verdict(other)}`);
    }
    expect(altered.length).toBeGreaterThan(1);
    for (const outcome of altered) expect(outcome).not.toMatch(/identical$/);
  });

  it('on the command line: a trace cut after its last edge fails in one line', async () => {
    writeFileSync(file('counter-cut.vcd'), text.slice(0, text.lastIndexOf('#')));
    const run = await runGen(['wave', 'diff', file('counter.vcd'), file('counter-cut.vcd'), '--align', 'cycle']);
    expect(run.stdout).not.toMatch(/identical/);
    expect(run.exitCode).not.toBe(0);
  }, 60_000);
});
