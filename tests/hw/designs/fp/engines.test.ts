/**
 * The FP units and the lane on Verilator and Icarus, against the same golden models as the
 * in-process runs. Opt-in (FP_ENGINES=1): Verilator builds take ~20 s per design, too long for
 * every `make test`. FP_PAIRS sets the vectors per run (default 20 000).
 */
import { describe, expect, it } from 'vitest';
import { Fp16Multiplier } from '../../../../hw/designs/fp/Fp16Multiplier.ts';
import { Fp32Adder } from '../../../../hw/designs/fp/Fp32Adder.ts';
import { elaborate } from '../../../../hw/ir/elaborate.ts';
import type { ModuleDefinition } from '../../../../hw/core/index.ts';
import type { Engine } from '../../../../verif/engines/engine.ts';
import { VerilatorEngine } from '../../../../verif/engines/verilator.ts';
import { IcarusEngine } from '../../../../verif/engines/icarus.ts';
import { fp16Product, fp32Add } from '../../../../verif/numerics/fp32.ts';
import { seededRandom } from '../../../verif/numerics/seededRandom.ts';
import { hardPair } from './fp32HardCases.ts';
import { pairCount, type Golden } from './fpHarness.ts';

const ENGINES: readonly (() => Engine)[] = [() => new VerilatorEngine(), () => new IcarusEngine()];

describe.skipIf(process.env['FP_ENGINES'] === undefined)('FP units on external engines', () => {
  type Random = ReturnType<typeof seededRandom>;
  const units: { definition: ModuleDefinition; output: string; golden: Golden; pair: (random: Random) => readonly [number, number] }[] = [
    { definition: Fp32Adder as unknown as ModuleDefinition, output: 's', golden: fp32Add, pair: (random) => hardPair(random.below) },
    { definition: Fp16Multiplier as unknown as ModuleDefinition, output: 'p', golden: fp16Product, pair: (random) => { const bits = random.uint32(); return [bits & 0xffff, bits >>> 16]; } },
  ];
  for (const makeEngine of ENGINES) {
    const engine = makeEngine();
    for (const { definition, output, golden, pair } of units) {
      it.each([0, 2])(`${engine.name}: ${definition.name} pipelined=%i matches golden`, async (pipelined) => {
        const random = seededRandom(`${engine.name} ${definition.name} pipelined=${pipelined}`);
        const pairs = Array.from({ length: pairCount(20_000) }, () => pair(random));
        const drain = Array.from({ length: pipelined }, () => pairs[0]!);
        const run = await engine.run(elaborate(definition, { pipelined }), [...pairs, ...drain].map(([a, b]) => ({ a: BigInt(a >>> 0), b: BigInt(b >>> 0) })));
        const failures = pairs.flatMap(([a, b], index) => {
          const got = run.outputs[index + pipelined]![output];
          const want = BigInt(golden(a, b) >>> 0);
          return got === want ? [] : [`a=0x${a.toString(16)} b=0x${b.toString(16)}: got 0x${got?.toString(16)}, golden 0x${want.toString(16)}`];
        });
        expect(failures.slice(0, 10)).toEqual([]);
      });
    }
  }
});
