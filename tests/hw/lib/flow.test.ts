import { describe, expect, it } from 'vitest';
import {
  connect,
  defineModule,
  fieldsOf,
  flip,
  HdlError,
  input,
  InterfaceMismatchError,
  output,
  vec,
} from '../../../hw/core/index.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { Simulator } from '../../../hw/sim/simulator.ts';
import { Flow, flowOf } from '../../../hw/lib/stream/index.ts';

const Beat = flowOf(
  { slot: output(2), lane: vec(2, output(4)) },
  { valid: 'start', description: 'a beat: slot and lanes this cycle' },
);

/** Takes a Flow of beats and a Flow of bytes and passes both on, the beats one cycle later. */
const FlowThrough = defineModule({
  name: 'FlowThrough',
  defaults: {},
  ports: () => ({
    ...flip(Beat),
    busy: output(1),
    bytes: flip(Flow(8)),
    out: { ...Beat },
    copy: Flow(8),
  }),
  build(m, io) {
    const held = {
      start: m.reg('held_start', 1, { reset: 0 }),
      slot: m.reg('held_slot', 2),
      lane: [m.reg('held_lane_0', 4), m.reg('held_lane_1', 4)],
    };
    connect(held, fieldsOf(io, Beat));
    connect(io.out, held);
    io.busy.set(held.start);
    connect(io.copy, io.bytes);
  },
});

describe('Flow interfaces (valid-only streams)', () => {
  it('flowOf spreads its payload beside a valid bit of the given name, all forward', () => {
    expect(Object.keys(Beat)).toEqual(['start', 'slot', 'lane']);
    expect(Beat.start).toEqual({ direction: 'output', width: 1, description: 'a beat: slot and lanes this cycle' });
    expect(flip(Beat).lane[1]!.direction).toBe('input');
    expect(Object.keys(Flow(3))).toEqual(['valid', 'data']);
  });

  it('keeps the payload names as ports and connects through fieldsOf in one call', () => {
    const design = elaborate(FlowThrough);
    const ports = design.modules[0]!.ports.map((port) => `${port.direction} ${port.name}`);
    expect(ports).toEqual(
      expect.arrayContaining(['input start', 'input slot', 'input lane_1', 'output out_start', 'output out_lane_0']),
    );
    const sim = new Simulator(design);
    sim.reset();
    sim.poke('start', 1);
    sim.poke('slot', 2);
    sim.poke('lane_1', 9);
    sim.poke('bytes_valid', 1);
    sim.poke('bytes_data', 0xa5);
    expect(sim.peek('copy_data')).toBe(0xa5n);
    expect(sim.peek('out_start')).toBe(0n);
    sim.step();
    sim.poke('start', 0);
    expect(sim.peek('out_start')).toBe(1n);
    expect(sim.peek('out_slot')).toBe(2n);
    expect(sim.peek('out_lane_1')).toBe(9n);
    expect(sim.peek('busy')).toBe(1n);
    sim.step();
    expect(sim.peek('out_start')).toBe(0n);
  });

  it('refuses a payload that flows back or takes the valid bit name, at the caller line', () => {
    expect(() => flowOf({ ready: input(1) })).toThrow(/payload field 'ready' is an input/);
    expect(() => flowOf({ start: output(1) }, { valid: 'start' })).toThrow(HdlError);
    expect(() => flowOf({ valid: output(1) })).toThrow(/flow\.test\.ts:\d+.*the name of the valid bit/);
  });

  it('fieldsOf names a field the interface lacks', () => {
    const Missing = defineModule({
      name: 'Missing',
      defaults: {},
      ports: () => ({ start: input(1), lane: vec(2, input(4)) }),
      build(m, io) {
        fieldsOf(io, Beat);
      },
    });
    expect(() => elaborate(Missing)).toThrow(InterfaceMismatchError);
    expect(() => elaborate(Missing)).toThrow(/field 'slot' of the bundle is not in the interface/);
  });
});
