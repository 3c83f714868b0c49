import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { emitVerilog } from '../../hw/verilog/emit.ts';
import { Counter } from '../../hw/examples/counter.ts';
import { TsEngine } from '../../engines/ts/tsEngine.ts';
import { IcarusEngine } from '../../engines/icarus/icarusEngine.ts';
import { VerilatorEngine } from '../../engines/verilator/verilatorEngine.ts';
import { describeDifference, runLockstep } from '../../engines/lockstep.ts';
import { CYCLE_PHASES, type PortValues } from '../../hw/contract/engine.ts';
import { MutantEngine } from '../../verif/regress/mutation/mutantEngine.ts';
import { defineModule, output } from '../../hw/core/index.ts';

const cache = mkdtempSync(join(tmpdir(), 'lockstep-test-'));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

const design = elaborate(Counter);
/** Reset in cycle 0, then counting: the count sampled in cycle t (before its edge) is t − 1. */
const stimulus: PortValues[] = [{ reset: 1n, enable: 1n }, { reset: 0n }, ...Array.from({ length: 10 }, () => ({}))];

/** The Counter's Verilog with one planted bug: from 5 it counts by two. */
function plantedVerilog(): string {
  const verilog = emitVerilog(design).get('Counter.v')!;
  const planted = verilog.replace("(value + 8'd1)", "(value == 8'd5 ? value + 8'd2 : value + 8'd1)");
  expect(planted).not.toBe(verilog);
  return planted;
}

/** A counter with a cover at 3 and an assertion that it never reaches 6. */
const Checked = defineModule({
  name: 'LockstepChecked',
  defaults: {},
  ports: () => ({ count: output(3) }),
  build(m, io) {
    const value = m.reg('value', 3, { reset: 0 });
    value.set(value.add(1));
    io.count.set(value);
    m.cover(value.eq(3), 'three');
    m.assert(value.ne(6), 'below six');
  },
});

describe('runLockstep', () => {
  it('names the four phases of a cycle once', () => {
    expect(CYCLE_PHASES).toEqual(['cycle_check', 'before_edge', 'at_edge', 'after_edge']);
  });

  it('finds a planted difference at the cycle it first shows, with each engine’s value', async () => {
    const result = await runLockstep([new TsEngine(), new MutantEngine(plantedVerilog(), cache)], design, stimulus);
    // The count is 5 in cycle 6; at that edge the planted bug makes it 7 instead of 6, seen in cycle 7.
    expect(result.difference).toEqual({ cycle: 7, port: 'count', values: { ts: 6n, icarus: 7n } });
    expect(describeDifference(result.difference!)).toBe('cycle 7, port count: ts=0x6 icarus=0x7');
    expect(result.runs['ts']!.outputs.map((outputs) => outputs['count'])).toEqual([
      0n,
      0n,
      1n,
      2n,
      3n,
      4n,
      5n,
      6n,
      7n,
      8n,
      9n,
      10n,
    ]);
  }, 120_000);

  it('agrees across all three engines on the same stimulus', async () => {
    const result = await runLockstep(
      [new TsEngine(), new VerilatorEngine(), new IcarusEngine({ cacheRoot: cache })],
      design,
      stimulus,
    );
    expect(result.engines).toEqual(['ts', 'verilator', 'icarus']);
    expect(result.cycles).toBe(stimulus.length);
    expect(result.difference).toBeUndefined();
  }, 600_000);

  it('labels engines that share a name and reports a missing cycle as a difference', async () => {
    const short: TsEngine = Object.assign(new TsEngine(), {
      run: async (...args: Parameters<TsEngine['run']>) => {
        const run = await new TsEngine().run(...args);
        return { outputs: run.outputs.slice(0, 3) };
      },
    });
    const result = await runLockstep([new TsEngine(), short], design, stimulus);
    expect(result.difference).toEqual({ cycle: 3, port: 'count', values: { 'ts#0': 2n, 'ts#1': undefined } });
  });

  it('needs two engines', async () => {
    await expect(runLockstep([new TsEngine()], design, stimulus)).rejects.toThrow(/two or more engines, got 1/);
  });

  it('compares the checks once the outputs agree: a cover counted differently, then an assertion failure only one engine has', async () => {
    const checked = elaborate(Checked);
    const verilog = emitVerilog(checked).get('LockstepChecked.v')!;
    const stimulus = Array.from({ length: 12 }, () => ({}));
    const coverPlanted = verilog.replace(
      '(value == 3\'d3)) $display("GEN-COVER',
      '(value == 3\'d4)) $display("GEN-COVER',
    );
    expect(coverPlanted).not.toBe(verilog);
    const cover = await runLockstep([new TsEngine(), new MutantEngine(coverPlanted, cache)], checked, stimulus);
    expect(cover.difference).toEqual({ cycle: 12, port: 'cover three', values: { ts: 2n, icarus: 1n } });
    const assertPlanted = verilog.replace("!(value != 3'd6)", "!(value != 3'd5)");
    expect(assertPlanted).not.toBe(verilog);
    const failure = await runLockstep([new TsEngine(), new MutantEngine(assertPlanted, cache)], checked, stimulus);
    expect(failure.difference).toEqual({ cycle: 5, port: 'assert below six', values: { ts: 0n, icarus: 1n } });
  }, 120_000);
});
