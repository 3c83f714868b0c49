import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { elaborate } from '../../hw/ir/elaborate.ts';
import type { PortValues } from '../../hw/contract/engine.ts';
import {
  MaskedRamRom,
  MaskedRamRomModel,
  ROM_DEPTH,
  ROM_FILE,
  parseRomText,
  type MaskedRamRomCycle,
} from '../../hw/examples/maskedRamRom.ts';
import { defineSuite, once, type RegressSuite } from '../regress/suite.ts';

const DEPTH = 100;
const WIDTH = 32;

/** The ROM file as the golden model reads it (its own plain parser, not the DSL's). */
const romWords = once(() =>
  parseRomText(readFileSync(fileURLToPath(new URL(`../../hw/examples/${ROM_FILE}`, import.meta.url)), 'utf8')),
);

/** Addresses mostly in a few hot words (so reads meet writes), sometimes past the last word. */
const address = (depth: number, bits: number): fc.Arbitrary<number> =>
  fc.oneof(
    { arbitrary: fc.integer({ min: 0, max: 3 }), weight: 3 },
    { arbitrary: fc.integer({ min: 0, max: depth - 1 }), weight: 2 },
    { arbitrary: fc.integer({ min: depth, max: 2 ** bits - 1 }), weight: 1 },
  );

/**
 * The memory example: byte-masked writes, read-first and write-first registered reads and a
 * combinational read of a 100-word RAM with initial words, and a ROM from a hex file, every
 * cycle against the golden model (arrays), out-of-range addresses included.
 */
export const memorySuites: readonly RegressSuite[] = [
  defineSuite<readonly MaskedRamRomCycle[]>({
    name: 'MaskedRamRom',
    groups: ['examples', 'memory'],
    description: 'MaskedRamRom (byte-masked RAM of 100 words, read-first/write-first reads, ROM from a file) = arrays',
    arbitrary: fc.array(
      fc.record({
        enable: fc.boolean(),
        address: address(DEPTH, 7),
        data: fc.bigInt({ min: 0n, max: (1n << 32n) - 1n }),
        mask: fc.integer({ min: 0, max: 15 }),
        readAddress: address(DEPTH, 7),
        romAddress: address(ROM_DEPTH, 5),
      }),
      { minLength: 1, maxLength: 40 },
    ),
    design: once(() => elaborate(MaskedRamRom)),
    vectors: (cycles) => {
      const model = new MaskedRamRomModel(DEPTH, WIDTH, romWords());
      const stimulus: PortValues[] = [];
      const expected: PortValues[] = [];
      for (const cycle of cycles) {
        stimulus.push({
          reset: 0n,
          write_enable: cycle.enable ? 1n : 0n,
          write_address: BigInt(cycle.address),
          write_data: cycle.data,
          write_mask: BigInt(cycle.mask),
          read_address: BigInt(cycle.readAddress),
          rom_address: BigInt(cycle.romAddress),
        });
        const out = model.step(cycle);
        expected.push({ read_comb: out.comb, read_old: out.old, read_new: out.new, rom_data: out.romData });
      }
      return { stimulus, expected };
    },
  }),
];
