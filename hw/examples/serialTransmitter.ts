import { defineEnum, defineModule, flip, fsm, mux, output } from '../core/index.ts';
import { Stream } from '../lib/stream/index.ts';

/** The transmitter's states: named in the Verilog (localparams) and in `gen wave show`. */
export const TxPhase = defineEnum('TxPhase', ['idle', 'start', 'data', 'stop']);

/**
 * A serial transmitter as an FSM: takes a byte from a stream when idle, then sends a start bit
 * (0), the eight data bits least significant first, and a stop bit (1), one bit per cycle.
 */
export const SerialTransmitter = defineModule({
  name: 'SerialTransmitter',
  description: 'Byte stream to start/8 data/stop serial bits, one per cycle (FSM example)',
  defaults: {},
  ports: () => ({ in: flip(Stream(8)), tx: output(1), busy: output(1) }),
  build(m, io) {
    const shift = m.reg('shift', 8, { reset: 0 });
    const sent = m.reg('sent', 3, { reset: 0 });
    const machine = fsm(m, 'phase', TxPhase, {
      reset: 'idle',
      states: {
        idle: (go) =>
          m.when(io.in.valid, () => {
            shift.set(io.in.data);
            go('start');
          }),
        start: (go) => {
          sent.set(m.lit(0, 3));
          go('data');
        },
        data: (go) => {
          shift.set(shift.shr(1));
          sent.set(sent.add(1));
          m.when(sent.eq(m.lit(7, 3)), () => go('stop'));
        },
        stop: (go) => go('idle'),
      },
    });
    io.in.ready.set(machine.is('idle'));
    io.busy.set(machine.is('idle').not());
    io.tx.set(mux(machine.is('start'), m.lit(0, 1), mux(machine.is('data'), shift.bit(0), m.lit(1, 1))));
  },
});

/** The golden model, cycle by cycle: the outputs of a cycle, then the edge. */
export class SerialTransmitterModel {
  private phase: (typeof TxPhase.names)[number] = 'idle';
  private shift = 0;
  private sent = 0;

  outputs(): { in_ready: bigint; tx: bigint; busy: bigint } {
    const tx = this.phase === 'start' ? 0 : this.phase === 'data' ? this.shift & 1 : 1;
    return { in_ready: this.phase === 'idle' ? 1n : 0n, tx: BigInt(tx), busy: this.phase === 'idle' ? 0n : 1n };
  }

  step(inValid: boolean, inData: number): void {
    switch (this.phase) {
      case 'idle':
        if (inValid) {
          this.shift = inData & 0xff;
          this.phase = 'start';
        }
        break;
      case 'start':
        this.sent = 0;
        this.phase = 'data';
        break;
      case 'data':
        this.shift >>= 1;
        if (this.sent === 7) this.phase = 'stop';
        this.sent = (this.sent + 1) & 7;
        break;
      case 'stop':
        this.phase = 'idle';
    }
  }
}
