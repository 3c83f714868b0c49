import fc from 'fast-check';
import { elaborate } from '../../hw/ir/elaborate.ts';
import type { PortValues } from '../../hw/contract/engine.ts';
import { Crc8Stream, crc8 } from '../../hw/examples/crc8Stream.ts';
import { defineSuite, once, type RegressSuite } from '../regress/suite.ts';

/** Per cycle: a byte offered or not, and whether `clear` starts a new message. */
interface CrcCycle {
  readonly valid: boolean;
  readonly byte: number;
  readonly clear: boolean;
}

/**
 * The black-box example: the Verilog file on Verilator and Icarus, its TypeScript model on ts,
 * and software CRC-8 as the golden model, every cycle.
 */
export const blackBoxSuites: readonly RegressSuite[] = [
  defineSuite<readonly CrcCycle[]>({
    name: 'Crc8Stream',
    groups: ['examples', 'blackbox'],
    description: 'Crc8Stream (black-box Verilog CRC step, TypeScript model on ts): crc every cycle = software CRC-8',
    arbitrary: fc.array(
      fc.record({
        valid: fc.boolean(),
        byte: fc.integer({ min: 0, max: 255 }),
        clear: fc.oneof({ arbitrary: fc.constant(false), weight: 9 }, { arbitrary: fc.constant(true), weight: 1 }),
      }),
      { minLength: 1, maxLength: 40 },
    ),
    design: once(() => elaborate(Crc8Stream)),
    vectors: (cycles) => {
      const stimulus: PortValues[] = [{ reset: 1n, in_valid: 0n, in_data: 0n, clear: 0n }];
      const expected: PortValues[] = [{}];
      let crc = 0;
      for (const cycle of cycles) {
        stimulus.push({
          reset: 0n,
          in_valid: cycle.valid ? 1n : 0n,
          in_data: BigInt(cycle.byte),
          clear: cycle.clear ? 1n : 0n,
        });
        expected.push({ crc: BigInt(crc), in_ready: 1n });
        crc = cycle.clear ? 0 : cycle.valid ? crc8([cycle.byte], crc) : crc;
      }
      return { stimulus, expected };
    },
  }),
];
