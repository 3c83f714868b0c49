/**
 * DotProduct4 and TensorLane against the golden lane step of docs/spec.md §2 (golden/models/mma.ts),
 * combinational and pipelined, on the in-process engine. Replay with FC_SEED=<seed>.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DotProduct4, dotProductLatency } from '../../../../coruscant/designs/tensor/dotProduct4.ts';
import { TensorLane, tensorLaneLatency } from '../../../../coruscant/designs/tensor/tensorLane.ts';
import { TsEngine } from '../../../../engines/ts/tsEngine.ts';
import type { PortValues } from '../../../../hw/contract/engine.ts';
import { dot4Accumulate } from '../../../../coruscant/golden/models/mma.ts';
import { fp16Product, fp32Add } from '../../../../coruscant/golden/numerics/fp32.ts';
import { fastCheckSeed } from '../../../support/seed.ts';
import { elaborateAndReport } from '../fp/fpHarness.ts';

const engine = new TsEngine();
const hex = (bits: number | bigint | undefined): string => `0x${(bits ?? 0).toString(16)}`;

/** FP16 operands: mostly values whose sums stay finite, some of any pattern, some specials. */
const fp16 = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .record({ sign: fc.nat(1), exponent: fc.integer({ min: 6, max: 22 }), fraction: fc.nat(0x3ff) })
      .map(({ sign, exponent, fraction }) => (sign << 15) | (exponent << 10) | fraction),
  },
  { weight: 1, arbitrary: fc.nat(0xffff) },
  { weight: 1, arbitrary: fc.constantFrom(0x0000, 0x8000, 0x0001, 0x83ff, 0x7c00, 0xfc00, 0x7e00, 0x7bff) },
);
const fp32 = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .float({ noNaN: true, min: -1e4, max: 1e4 })
      .map((x) => new Uint32Array(new Float32Array([x]).buffer)[0]!),
  },
  { weight: 1, arbitrary: fc.nat(0xffffffff) },
);
const operands = fc.array(fp16, { minLength: 4, maxLength: 4 });
const chunk = fc.record({ a: operands, b: operands });

/** The dot product alone, in the tree order of docs/spec.md §2. */
function goldenDot(a: readonly number[], b: readonly number[]): number {
  const p = a.map((value, k) => fp16Product(value, b[k]!));
  return fp32Add(fp32Add(p[0]!, p[1]!), fp32Add(p[2]!, p[3]!)) >>> 0;
}

function operandPorts(a: readonly number[], b: readonly number[]): PortValues {
  const ports: PortValues = {};
  a.forEach((value, k) => (ports[`a_${k}`] = BigInt(value)));
  b.forEach((value, k) => (ports[`b_${k}`] = BigInt(value)));
  return ports;
}

describe('DotProduct4', () => {
  it.each([0, 1, 2])('pipelined=%i equals (p0 + p1) + (p2 + p3) after 3 × pipelined cycles', async (pipelined) => {
    const seed = fastCheckSeed(`DotProduct4 pipelined=${pipelined}`);
    const design = elaborateAndReport(DotProduct4, { pipelined });
    const latency = dotProductLatency(pipelined);
    const chunks = fc.sample(chunk, { seed, numRuns: 500 });
    const run = await engine.run(
      design,
      [...chunks, ...Array.from({ length: latency }, () => chunks[0]!)].map(({ a, b }) => operandPorts(a, b)),
    );
    chunks.forEach(({ a, b }, index) => {
      expect(hex(run.outputs[index + latency]!['dot']), `a=${a.map(hex)} b=${b.map(hex)}`).toBe(hex(goldenDot(a, b)));
    });
  });
});

/** One cycle of lane stimulus. */
interface LaneCycle {
  a: number[];
  b: number[];
  enable: boolean;
  loadC: boolean;
  c: number;
}

const laneCycle = fc.record({ a: operands, b: operands, enable: fc.boolean(), loadC: fc.boolean(), c: fp32 });
const laneCycles = fc.array(
  fc.oneof(
    { weight: 1, arbitrary: laneCycle },
    { weight: 3, arbitrary: laneCycle.map((cycle): LaneCycle => ({ ...cycle, enable: true, loadC: false })) },
  ),
  { minLength: 1, maxLength: 40 },
);

/** The accumulator after each cycle's edge: the golden lane step applied where enabled. */
function goldenAccumulator(cycles: readonly LaneCycle[]): number[] {
  let acc = 0;
  return cycles.map(({ a, b, enable, loadC, c }) => (acc = enable ? dot4Accumulate(loadC ? c : acc, a, b) >>> 0 : acc));
}

function lanePorts(cycle: LaneCycle): PortValues {
  return {
    ...operandPorts(cycle.a, cycle.b),
    enable: BigInt(cycle.enable),
    loadC: BigInt(cycle.loadC),
    c: BigInt(cycle.c),
    reset: 0n,
  };
}

describe('TensorLane', () => {
  it.each([0, 1, 2])(
    'pipelined=%i accumulates like the golden lane, 3 × pipelined + 1 cycles later',
    async (pipelined) => {
      const seed = fastCheckSeed(`TensorLane pipelined=${pipelined}`);
      const design = elaborateAndReport(TensorLane, { pipelined });
      const latency = tensorLaneLatency(pipelined);
      const idle: LaneCycle = { a: [0, 0, 0, 0], b: [0, 0, 0, 0], enable: false, loadC: false, c: 0 };
      await fc.assert(
        fc.asyncProperty(laneCycles, async (cycles) => {
          // Reset first; the drain cycles hold (enable low) so the last results come out.
          const stimulus = [
            { ...lanePorts(idle), reset: 1n },
            ...[...cycles, ...Array.from({ length: latency }, () => idle)].map(lanePorts),
          ];
          const run = await engine.run(design, stimulus);
          const expected = goldenAccumulator(cycles);
          expected.forEach((acc, index) =>
            expect(hex(run.outputs[1 + index + latency]!['acc']), `after cycle ${index}`).toBe(hex(acc)),
          );
        }),
        { seed, numRuns: 20 },
      );
    },
  );

  it('walks one K = 16 dot product (4 chunks, 4 cycles) from C, then holds while idle', async () => {
    const design = elaborateAndReport(TensorLane);
    // Chunk i: (1·1 + 2·1) + (−1·2 + (0.5 + i·2^-11)·4) = 3 + i·2^-9, all exact; from C = 10
    // the four chunks give 22 + 6·2^-9 = 22.01171875 (FP32 0x41b01800).
    const cycles: LaneCycle[] = [0, 1, 2, 3].map((index) => ({
      a: [0x3c00, 0x4000, 0xbc00, 0x3800 + index],
      b: [0x3c00, 0x3c00, 0x4000, 0x4400],
      enable: true,
      loadC: index === 0,
      c: 0x41200000,
    }));
    const run = await engine.run(
      design,
      [...cycles, { ...cycles[0]!, enable: false }, { ...cycles[0]!, enable: false }].map(lanePorts),
    );
    expect(hex(run.outputs[4]!['acc'])).toBe('0x41b01800');
    expect(hex(run.outputs[5]!['acc'])).toBe('0x41b01800');
    expect(goldenAccumulator(cycles).at(-1)).toBe(0x41b01800);
  });
});
