import { describe, expect, it } from 'vitest';
import {
  InterfaceMismatchError,
  bundle,
  bundleWidth,
  connect,
  defineModule,
  flip,
  input,
  output,
  regs,
  vec,
  wires,
  WidthMismatchError,
  type ModuleDefinition,
} from '../../../hw/core/index.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { Simulator } from '../../../hw/sim/simulator.ts';
import { caughtHdlError as caught } from '../../support/hdlErrors.ts';

/** A request/response interface from the requester's side: `req` forward, `resp` flipped. */
const Port = (width: number) =>
  bundle({ req: { valid: output(1), addr: output(width) }, resp: { ready: input(1), data: input(width) } });

/** Passes a vec of interfaces through a register stage and a wire group, connected in one call each. */
const Through = defineModule({
  name: 'Through',
  defaults: { lanes: 2 },
  ports: (p) => ({ up: vec(p.lanes, flip(Port(4))), down: vec(p.lanes, Port(4)) }),
  build(m, io, p) {
    const middle = wires(m, 'middle', vec(p.lanes, Port(4)));
    connect(middle, io.up);
    const held = regs(m, 'held', { valid: output(1), addr: output(4) }, { reset: 0 });
    connect(held, middle[0]!.req);
    connect(io.down[0]!.req, held);
    middle[0]!.resp.ready.set(io.down[0]!.resp.ready);
    middle[0]!.resp.data.set(io.down[0]!.resp.data);
    for (let lane = 1; lane < p.lanes; lane++) connect(io.down[lane]!, middle[lane]!);
  },
});

describe('interfaces (bundles)', () => {
  it('flip turns every direction round, nested and in vecs', () => {
    const flipped = flip(vec(2, Port(3)));
    expect(flipped[1]!.req.valid.direction).toBe('input');
    expect(flipped[1]!.resp.data.direction).toBe('output');
    expect(bundleWidth(Port(3))).toBe(1 + 3 + 1 + 3);
  });

  it('ports, wires and registers of one bundle type connect in both directions', () => {
    const design = elaborate(Through, { lanes: 3 });
    const names = design.modules[0]!.nets.map((net) => net.name);
    expect(names).toEqual(expect.arrayContaining(['up_0_req_valid', 'middle_1_resp_data', 'held_addr']));
    const sim = new Simulator(design);
    sim.reset();
    sim.poke('up_0_req_valid', 1);
    sim.poke('up_0_req_addr', 9);
    sim.poke('down_0_resp_data', 5);
    sim.poke('down_0_resp_ready', 1);
    sim.poke('up_2_req_addr', 7);
    sim.poke('down_2_resp_data', 3);
    expect(sim.peek('down_0_req_valid')).toBe(0n); // through the register: next cycle
    expect(sim.peek('up_0_resp_data')).toBe(5n); // backward field, combinational
    expect(sim.peek('up_0_resp_ready')).toBe(1n);
    expect(sim.peek('down_2_req_addr')).toBe(7n);
    expect(sim.peek('up_2_resp_data')).toBe(3n);
    sim.step();
    expect(sim.peek('down_0_req_valid')).toBe(1n);
    expect(sim.peek('down_0_req_addr')).toBe(9n);
  });

  const Mismatch = (make: (m: Parameters<ModuleDefinition['build']>[0]) => void) =>
    defineModule({
      name: 'Mismatch',
      defaults: {},
      ports: () => ({ y: output(1) }),
      build: (m, io) => {
        make(m);
        io.y.set(m.lit(0, 1));
      },
    });

  it('a field on one side only is named', () => {
    const error = caught(
      Mismatch((m) =>
        connect(
          wires(m, 'a', Port(4)),
          wires(m, 'b', bundle({ req: { valid: output(1), adr: output(4) }, resp: Port(4).resp })),
        ),
      ),
    );
    expect(error).toBeInstanceOf(InterfaceMismatchError);
    expect(error.message).toMatch(/field 'req\.addr' is on the sink side only/);
  });

  it('a width, a vec length and a direction that differ are named', () => {
    const width = caught(Mismatch((m) => connect(wires(m, 'a', Port(4)), wires(m, 'b', Port(5)))));
    expect(width).toBeInstanceOf(WidthMismatchError);
    expect(width.message).toMatch(/field 'req\.addr': 'a_req_addr' is 4 bits, 'b_req_addr' is 5 bits/);
    const length = caught(Mismatch((m) => connect(wires(m, 'a', vec(2, Port(4))), wires(m, 'b', vec(3, Port(4))))));
    expect(length.message).toMatch(/a vec of 2 against a vec of 3/);
    const direction = caught(Mismatch((m) => connect(wires(m, 'a', Port(4)), wires(m, 'b', flip(Port(4))))));
    expect(direction).toBeInstanceOf(InterfaceMismatchError);
    expect(direction.message).toMatch(/field 'req\.valid' flows the same way on both sides/);
  });

  it('the error points at the connect line', () => {
    const error = caught(Mismatch((m) => connect(wires(m, 'a', Port(4)), wires(m, 'b', Port(5)))));
    expect(error.location.file).toMatch(/bundle\.test\.ts$/);
    expect(error.location.line).toBeGreaterThan(0);
  });
});
