import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
    expect(expectCleanFailure(cut)).toMatch(/diverge|A has \d+ cycles and B \d+/);
    expect(expectCleanFailure(header)).toMatch(/A has \d+ cycles and B 0|no clock|diverge/);
  }, 60_000);
});
