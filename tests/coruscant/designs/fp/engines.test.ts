/**
 * The FP units on Verilator and Icarus against the same golden models as the in-process runs.
 * By default a smaller sample than the in-process sweeps (FP_PAIRS pairs per unit, default 3 000:
 * hard cases and uniform pairs), all in one stimulus stream per simulator run, so the file stays
 * around half a minute on a cold build cache. FP_ENGINES=1 also runs the pipelined units and
 * raises the default to 20 000 pairs. Replay with FC_SEED=<seed>.
 */
import { describe, expect, it } from 'vitest';
import { Fp16Multiplier } from '../../../../coruscant/designs/fp/fp16Multiplier.ts';
import { Fp32Adder } from '../../../../coruscant/designs/fp/fp32Adder.ts';
import { elaborate } from '../../../../hw/ir/elaborate.ts';
import type { ModuleDefinition } from '../../../../hw/core/index.ts';
import type { Engine } from '../../../../hw/contract/engine.ts';
import { VerilatorEngine } from '../../../../engines/verilator/verilatorEngine.ts';
import { IcarusEngine } from '../../../../engines/icarus/icarusEngine.ts';
import { fp16Product, fp32Add } from '../../../../coruscant/golden/numerics/fp32.ts';
import { seededRandom, type SeededRandom } from '../../golden/numerics/seededRandom.ts';
import { hardPair } from './fp32HardCases.ts';
import { pairCount, type Golden } from './fpHarness.ts';

const ENGINES: readonly (() => Engine)[] = [() => new VerilatorEngine(), () => new IcarusEngine()];
const FULL = process.env['FP_ENGINES'] !== undefined;
const PIPELINED = FULL ? [0, 2] : [0];

/** FP16 fractions rounding and normalization care about: zero, all ones, lone top/bottom bits. */
const FP16_FRACTIONS = [0, 0x3ff, 0x200, 1];

/**
 * FP16 pairs for the multiplier: half uniform, half an exponent pair drawn from all 32 × 32
 * (zeros/subnormals at 0, ∞/NaN at 31) with edge fractions, so specials, subnormal inputs,
 * FP32-subnormal-free tiny products and the largest products all occur in a few thousand pairs.
 */
function multiplierPair(random: SeededRandom): readonly [number, number] {
  if (random.below(2)) {
    const bits = random.uint32();
    return [bits & 0xffff, bits >>> 16];
  }
  const operand = (): number => {
    const fraction = random.below(2) ? FP16_FRACTIONS[random.below(FP16_FRACTIONS.length)]! : random.below(0x400);
    return (random.below(2) << 15) | (random.below(32) << 10) | fraction;
  };
  return [operand(), operand()];
}

describe('FP units on external engines', () => {
  const units: {
    definition: ModuleDefinition;
    output: string;
    golden: Golden;
    pair: (random: SeededRandom) => readonly [number, number];
  }[] = [
    {
      definition: Fp32Adder,
      output: 's',
      golden: fp32Add,
      pair: (random) => hardPair(random.below),
    },
    {
      definition: Fp16Multiplier,
      output: 'p',
      golden: fp16Product,
      pair: multiplierPair,
    },
  ];
  for (const makeEngine of ENGINES) {
    const engine = makeEngine();
    for (const { definition, output, golden, pair } of units) {
      it.each(PIPELINED)(`${engine.name}: ${definition.name} pipelined=%i matches golden`, async (pipelined) => {
        const random = seededRandom(`${engine.name} ${definition.name} pipelined=${pipelined}`);
        const pairs = Array.from({ length: pairCount(FULL ? 20_000 : 3_000) }, () => pair(random));
        const drain = Array.from({ length: pipelined }, () => pairs[0]!);
        const run = await engine.run(
          elaborate(definition, { pipelined }),
          [...pairs, ...drain].map(([a, b]) => ({ a: BigInt(a >>> 0), b: BigInt(b >>> 0) })),
        );
        const failures = pairs.flatMap(([a, b], index) => {
          const got = run.outputs[index + pipelined]![output];
          const want = BigInt(golden(a, b) >>> 0);
          return got === want
            ? []
            : [
                `a=0x${a.toString(16)} b=0x${b.toString(16)}: got 0x${got?.toString(16)}, golden 0x${want.toString(16)}`,
              ];
        });
        expect(failures.slice(0, 10)).toEqual([]);
      });
    }
  }
});
