import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { elaborate } from '../../../../hw/ir/elaborate.ts';
import {
  AdderChain,
  BitmapDecoder,
  DensePointerIncrementer,
  decoderWidths,
} from '../../../../coruscant/designs/decoder/index.ts';
import { TsEngine } from '../../../../engines/ts/tsEngine.ts';
import type { PortValues } from '../../../../hw/contract/engine.ts';
import {
  PAPER_DECODER_SHAPE,
  decodeMma,
  decoderTimeline,
  type DecoderShape,
  type DecoderStimulus,
} from '../../../../coruscant/golden/models/decoder.ts';
import { arbitraryStream, decoderPorts, expectCycles, flag, propertySeed, stimulusPorts } from './decoderStimulus.ts';

const seed = propertySeed('tests/hw/designs/decoder/sequential.test.ts');
const engine = new TsEngine();
const single = (shape: DecoderShape): DecoderShape => ({ ...shape, threads: 1 });

describe('DensePointerIncrementer', () => {
  it.each([PAPER_DECODER_SHAPE, { threads: 1, tileLength: 128, slots: 8 }, { threads: 1, tileLength: 24, slots: 4 }])(
    'walks 0, slots, … with first/last like the golden model (tileLength $tileLength, slots $slots)',
    async (shape) => {
      const design = elaborate(DensePointerIncrementer, { tileLength: shape.tileLength, slots: shape.slots });
      await fc.assert(
        fc.asyncProperty(arbitraryStream(single(shape)), async (stimulus) => {
          const run = await engine.run(
            design,
            stimulusPorts(stimulus, single(shape), () => 'unused').map(({ reset, start }) => ({
              reset: reset!,
              start: start!,
            })),
          );
          const expected = decoderTimeline(stimulus, single(shape)).map((cycle) => ({
            active: flag(cycle.valid),
            pointer: BigInt(cycle.pointer),
            first: flag(cycle.first),
            last: flag(cycle.last),
          }));
          expectCycles(run.outputs, expected, 'DensePointerIncrementer');
        }),
        { seed, numRuns: 25 },
      );
    },
  );
});

/**
 * AdderChain inputs and expected outputs along a golden timeline: in MMA cycles the lane
 * detector's rank/count come from the golden selects and base/index must equal the golden value
 * indices; in idle cycles the inputs are 0 and the count holds (0 after a reset).
 */
function adderChainVectors(
  stimulus: readonly DecoderStimulus[],
  shape: DecoderShape,
): { inputs: PortValues[]; expected: PortValues[] } {
  const widths = decoderWidths(shape);
  const inputs: PortValues[] = [];
  const expected: PortValues[] = [];
  let held = 0;
  decoderTimeline(stimulus, shape).forEach((cycle, index) => {
    const slots = cycle.slots[0]!;
    const base = cycle.valid ? slots[0]!.valueIndex : held;
    const ranks = slots.map((slot) => (cycle.valid ? slot.valueIndex - base : 0));
    const count = cycle.valid ? slots.filter((slot) => slot.valid).length : 0;
    const driven: PortValues = {
      reset: flag(stimulus[index]!.reset ?? false),
      start: flag(stimulus[index]!.start ?? false),
      count: BigInt(count),
    };
    const wanted: PortValues = { base: BigInt(base) };
    ranks.forEach((rank, slot) => {
      driven[`rank_${slot}`] = BigInt(rank);
      wanted[`index_${slot}`] = BigInt((base + rank) % 2 ** widths.index);
      if (cycle.valid) expect(base + rank).toBe(slots[slot]!.valueIndex);
    });
    inputs.push(driven);
    expected.push(wanted);
    held = stimulus[index]!.reset || stimulus[index]!.start ? 0 : base + count;
  });
  return { inputs, expected };
}

describe('AdderChain', () => {
  it.each([PAPER_DECODER_SHAPE, { threads: 1, tileLength: 128, slots: 8 }])(
    'counts nonzeros and indexes each slot like the golden model (tileLength $tileLength, slots $slots)',
    async (shape) => {
      const design = elaborate(AdderChain, { tileLength: shape.tileLength, slots: shape.slots });
      await fc.assert(
        fc.asyncProperty(arbitraryStream(single(shape)), async (stimulus) => {
          const { inputs, expected } = adderChainVectors(stimulus, single(shape));
          expectCycles((await engine.run(design, inputs)).outputs, expected, 'AdderChain');
        }),
        { seed, numRuns: 60 },
      );
    },
  );

  it('reaches 64 after an all-ones tile and holds it', async () => {
    const stimulus: DecoderStimulus[] = [
      { start: true, bitmaps: [(1n << 64n) - 1n] },
      ...Array.from({ length: 18 }, () => ({})),
    ];
    const { inputs } = adderChainVectors(stimulus, single(PAPER_DECODER_SHAPE));
    const run = await engine.run(elaborate(AdderChain), inputs);
    expect(run.outputs.map((ports) => Number(ports['base']))).toEqual([
      0, 0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64, 64,
    ]);
  });
});

describe('BitmapDecoder', () => {
  const shapes: { shape: DecoderShape; numRuns: number; maxSegments: number }[] = [
    { shape: PAPER_DECODER_SHAPE, numRuns: 8, maxSegments: 3 },
    { shape: { threads: 3, tileLength: 128, slots: 8 }, numRuns: 30, maxSegments: 4 },
    { shape: { threads: 2, tileLength: 16, slots: 2 }, numRuns: 60, maxSegments: 5 },
  ];
  it.each(shapes)(
    'equals the golden timeline cycle by cycle ($shape.threads threads, tileLength $shape.tileLength, slots $shape.slots)',
    async ({ shape, numRuns, maxSegments }) => {
      const design = elaborate(BitmapDecoder, shape);
      await fc.assert(
        fc.asyncProperty(arbitraryStream(shape, maxSegments), async (stimulus) => {
          const run = await engine.run(design, stimulusPorts(stimulus, shape));
          expectCycles(run.outputs, decoderTimeline(stimulus, shape).map(decoderPorts), 'BitmapDecoder');
        }),
        // Shrinking a 32-thread stream costs a simulation per step: bound it, keeping the best found.
        { seed, numRuns, interruptAfterTimeLimit: 20_000, markInterruptAsFailure: true },
      );
    },
  );

  it('presents the first operands one cycle after start and chains MMAs without a bubble', async () => {
    const bitmaps = Array.from(
      { length: 32 },
      (_, thread) => (BigInt(thread) * 0x9e3779b97f4a7c15n) & ((1n << 64n) - 1n),
    );
    const stimulus: DecoderStimulus[] = [
      { start: true, bitmaps },
      ...Array.from({ length: 15 }, () => ({})),
      { start: true, bitmaps: [...bitmaps].reverse() },
      ...Array.from({ length: 18 }, () => ({})),
    ];
    const run = await engine.run(elaborate(BitmapDecoder), stimulusPorts(stimulus, PAPER_DECODER_SHAPE));
    const valid = run.outputs.map((ports) => Number(ports['valid']));
    expect(valid).toEqual([0, ...new Array<number>(32).fill(1), 0, 0]);
    expect(run.outputs.map((ports) => Number(ports['pointer'])).slice(1, 18)).toEqual([
      ...Array.from({ length: 16 }, (_, cycle) => 4 * cycle),
      0,
    ]);
    expect(run.outputs[16]).toMatchObject({ last: 1n, first: 0n });
    expect(run.outputs[17]).toMatchObject({ last: 0n, first: 1n });
    expectCycles(run.outputs.slice(17, 33), decodeMma([...bitmaps].reverse()).map(decoderPorts), 'second MMA');
  });

  it('returns to idle on a reset in the middle of an MMA', async () => {
    const full = (1n << 64n) - 1n;
    const stimulus: DecoderStimulus[] = [
      { start: true, bitmaps: new Array<bigint>(32).fill(full) },
      {},
      {},
      { reset: true },
      {},
      {},
    ];
    const run = await engine.run(elaborate(BitmapDecoder), stimulusPorts(stimulus, PAPER_DECODER_SHAPE));
    expect(run.outputs.map((ports) => ports['valid'])).toEqual([0n, 1n, 1n, 1n, 0n, 0n]);
    expect(run.outputs[3]).toMatchObject({
      pointer: 8n,
      operand_31_3_register: 5n,
      operand_31_3_half: 1n,
      operand_31_3_zero: 0n,
    });
    expect(run.outputs[4]).toMatchObject({ pointer: 0n, operand_31_3_register: 0n, operand_31_3_zero: 1n });
  });
});
