import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { statSync } from 'node:fs';
import { elaborate } from '../../hw/ir/elaborate.ts';
import type { IrDesign } from '../../hw/ir/ir.ts';
import { emitVerilog } from '../../hw/verilog/emit.ts';
import { buildVerilatorHarness, VerilatorEngine } from '../../engines/verilator/verilatorEngine.ts';
import { IcarusEngine } from '../../engines/icarus/icarusEngine.ts';
import { TsEngine } from '../../engines/ts/tsEngine.ts';
import type { CycleRun, PortValues } from '../../hw/contract/engine.ts';
import { harnessPortsOf } from '../../engines/harness/harnessStimulus.ts';
import { Everything } from '../hw/verilog/testDesigns.ts';
import { referenceRun } from './referenceSimulator.ts';

// Replay a failure with FC_SEED=<seed> npx vitest run tests/engines/external.test.ts
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
/** A cold Verilator build on a busy two-core machine can take minutes; the cache makes reruns fast. */
const BUILD_TIMEOUT_MS = 600_000;
console.log(`external engines: FC_SEED=${seed}`);

/** Values biased towards the edges (0, all ones, the sign bit) that break wrong operator widths. */
const word = (width: number): fc.Arbitrary<bigint> => {
  const max = (1n << BigInt(width)) - 1n;
  return fc.oneof(fc.bigInt({ min: 0n, max }), fc.constantFrom(0n, max, 1n << BigInt(width - 1), max >> 1n, 1n));
};

const cycle: fc.Arbitrary<PortValues> = fc.record({
  a: word(130),
  b: fc.oneof(word(130), word(8), word(33)),
  s: word(1),
  amount: word(8),
  enable: word(1),
  address: word(3),
  reset: fc.constantFrom(0n, 0n, 0n, 0n, 0n, 0n, 1n),
  wire: word(1),
});

function streamOf(length: number, offset: number): PortValues[] {
  return fc.sample(fc.array(cycle, { minLength: length, maxLength: length }), { seed: seed + offset, numRuns: 1 })[0]!;
}

/** First mismatch between two runs, as a readable line, or undefined. */
function firstDifference(expected: CycleRun, actual: CycleRun, label: string): string | undefined {
  for (let index = 0; index < expected.outputs.length; index++)
    for (const [name, value] of Object.entries(expected.outputs[index]!))
      if (actual.outputs[index]?.[name] !== value)
        return `${label}: cycle ${index} output ${name}: expected ${value.toString(16)}, got ${actual.outputs[index]?.[name]?.toString(16)}`;
  return expected.outputs.length === actual.outputs.length
    ? undefined
    : `${label}: ${actual.outputs.length} cycles instead of ${expected.outputs.length}`;
}

describe('Verilator and Icarus engines', () => {
  let design: IrDesign;
  let streams: PortValues[][];
  let verilator: CycleRun[];
  let icarus: CycleRun[];
  let ts: CycleRun[];

  beforeAll(async () => {
    design = elaborate(Everything);
    // The first stream starts in reset; the second never resets, so it checks that state starts at 0.
    const first = streamOf(40, 0);
    first[0] = { ...first[0]!, reset: 1n };
    const second = streamOf(12, 1).map((values) => ({ ...values, reset: 0n }));
    streams = [first, second];
    [verilator, icarus, ts] = await Promise.all([
      new VerilatorEngine().runMany(design, streams),
      new IcarusEngine().runMany(design, streams),
      new TsEngine().runMany(design, streams),
    ]);
  }, BUILD_TIMEOUT_MS);

  it('give the same per-cycle outputs as the IR semantics and the in-process simulator, for every operator and width', () => {
    streams.forEach((stream, index) => {
      const expected = referenceRun(design, stream);
      expect(firstDifference(expected, verilator[index]!, `verilator stream ${index}`)).toBeUndefined();
      expect(firstDifference(expected, icarus[index]!, `icarus stream ${index}`)).toBeUndefined();
      expect(firstDifference(expected, ts[index]!, `ts stream ${index}`)).toBeUndefined();
    });
  });

  it('follow the step contract: outputs are sampled before the edge, state starts at 0', async () => {
    const inputs: PortValues[] = [{ reset: 1n }, { reset: 0n, enable: 1n }, {}, { enable: 0n }, {}];
    const [fromVerilator, fromIcarus] = await Promise.all([
      new VerilatorEngine().run(design, inputs),
      new IcarusEngine().run(design, inputs),
    ]);
    // count: 0 before the first edge, 3 (reset value) after it, then +1 per enabled cycle; held after enable drops.
    const expected = [0n, 3n, 4n, 5n, 5n];
    expect(fromVerilator.outputs.map((outputs) => outputs.count)).toEqual(expected);
    expect(fromIcarus.outputs.map((outputs) => outputs.count)).toEqual(expected);
  });

  it('cache the Verilator build: the second build of the same design is skipped', async () => {
    // The binary itself is the evidence, not a wall-clock bound a loaded machine can break.
    const first = await buildVerilatorHarness(emitVerilog(design), harnessPortsOf(design));
    const before = statSync(first.binary);
    const build = await buildVerilatorHarness(emitVerilog(design), harnessPortsOf(design));
    expect(build.built).toBe(false);
    expect(build.binary).toBe(first.binary);
    expect(statSync(build.binary).mtimeMs).toBe(before.mtimeMs);
    expect(statSync(build.binary).ino).toBe(before.ino);
  });

  it('reject inputs that are not ports or do not fit, naming them', async () => {
    await expect(new VerilatorEngine().run(design, [{ nope: 1n }])).rejects.toThrow(/no input 'nope'/);
    await expect(new IcarusEngine().run(design, [{ s: 2n }])).rejects.toThrow(/'s' does not fit in 1 unsigned bits/);
  });
});
