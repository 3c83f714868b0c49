import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { topModule, CLOCK_PORT } from '../../../hw/ir/ir.ts';
import { TsEngine } from '../../../engines/ts/tsEngine.ts';
import { buildRandomDesign, fuzzDesignArbitrary } from '../../../verif/fuzz/randomDesign.ts';
import { runReference } from '../../../verif/fuzz/referenceSimulator.ts';
import { fastCheckSeed } from '../../support/seed.ts';

const seed = fastCheckSeed('simulator-vs-reference');

describe('compiled simulator equals the plain netlist interpreter', () => {
  it('on random designs (every operator, widths 1–80, registers, instances) and random stimulus', async () => {
    const engine = new TsEngine();
    await fc.assert(
      fc.asyncProperty(
        fuzzDesignArbitrary,
        fc.array(fc.bigInt({ min: 0n, max: (1n << 80n) - 1n }), { minLength: 8 * 12, maxLength: 8 * 12 }),
        async (spec, noise) => {
          const design = elaborate(buildRandomDesign(spec, 'Fuzz'));
          const inputs = topModule(design).ports.filter(
            (port) => port.direction === 'input' && port.name !== CLOCK_PORT,
          );
          const stimulus = Array.from({ length: 12 }, (_, cycle) =>
            Object.fromEntries(
              inputs.map((port, index) => [
                port.name,
                port.name === 'reset'
                  ? cycle === 0
                    ? 1n
                    : 0n
                  : noise[(cycle * 8 + index) % noise.length]! & ((1n << BigInt(port.width)) - 1n),
              ]),
            ),
          );
          const expected = runReference(design, stimulus);
          const actual = await engine.run(design, stimulus);
          expect(actual.outputs).toEqual(expected);
        },
      ),
      { seed, numRuns: 150 },
    );
  });
});
