import fc from 'fast-check';
import { elaborate } from '../../hw/ir/elaborate.ts';
import type { PortValues } from '../../hw/contract/engine.ts';
import { SerialTransmitter, SerialTransmitterModel } from '../../hw/examples/serialTransmitter.ts';
import { defineSuite, once, type RegressSuite } from '../regress/suite.ts';

/** Per cycle: whether a byte is offered, and which (held until the transmitter takes it). */
interface TxCycle {
  readonly offer: boolean;
  readonly byte: number;
}

/** The FSM example: the transmitter's serial line, ready and busy every cycle = its golden model. */
export const fsmSuites: readonly RegressSuite[] = [
  defineSuite<readonly TxCycle[]>({
    name: 'SerialTransmitter',
    groups: ['examples', 'fsm'],
    description: 'SerialTransmitter (FSM over an enum): tx, in_ready and busy every cycle = golden model',
    arbitrary: fc.array(fc.record({ offer: fc.boolean(), byte: fc.integer({ min: 0, max: 255 }) }), {
      minLength: 1,
      maxLength: 60,
    }),
    design: once(() => elaborate(SerialTransmitter)),
    vectors: (cycles) => {
      const model = new SerialTransmitterModel();
      const stimulus: PortValues[] = [{ reset: 1n, in_valid: 0n, in_data: 0n }];
      const expected: PortValues[] = [{}];
      let held: number | undefined;
      for (const cycle of cycles) {
        if (held === undefined && cycle.offer) held = cycle.byte;
        const inputs = { reset: 0n, in_valid: held === undefined ? 0n : 1n, in_data: BigInt(held ?? 0) };
        const outputs = model.outputs();
        stimulus.push(inputs);
        expected.push(outputs);
        model.step(held !== undefined, held ?? 0);
        if (held !== undefined && outputs.in_ready === 1n) held = undefined;
      }
      return { stimulus, expected };
    },
  }),
];
