import { describe, expect, it } from 'vitest';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ClockCrossingError,
  defineModule,
  DuplicateNameError,
  input,
  InvalidParameterError,
  output,
  type HdlError,
  type ModuleDefinition,
} from '../../../hw/core/index.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { emitVerilog } from '../../../hw/verilog/emit.ts';
import { printDesign } from '../../../hw/ir/print.ts';
import { Simulator } from '../../../hw/sim/simulator.ts';
import { Synchronizer } from '../../../hw/lib/cdc/index.ts';
import { Counter } from '../../../hw/examples/counter.ts';
import { proveDesign } from '../../../verif/formal/prove.ts';
import { caughtHdlError, markerLines } from '../../support/hdlErrors.ts';

const thisFile = fileURLToPath(import.meta.url);
/** The line of this file that ends in `// <marker>`: where the error must point. */
const lineOf = markerLines(import.meta.url);

function expectError(definition: ModuleDefinition, kind: abstract new (...args: never[]) => HdlError, marker: string) {
  const caught = caughtHdlError(definition);
  expect(caught).toBeInstanceOf(kind);
  const message = caught.message;
  expect(message.split('\n')).toHaveLength(1);
  expect(
    message.startsWith(`${basename(thisFile)}:${lineOf(marker)}:`) || message.includes(`:${lineOf(marker)}:`),
  ).toBe(true);
  return message;
}

/** Register `a` in the default domain, `b` in domain `fast` (async reset) fed by an input. */
const TwoDomains = defineModule({
  name: 'TwoDomains',
  defaults: {},
  ports: () => ({ x: input(4), a: output(4), b: output(4) }),
  build(m, io) {
    const fast = m.domain('fast', { reset: 'async' });
    const a = m.reg('a_reg', 4, { reset: 1 });
    a.set(a.add(1));
    const b = m.withDomain(fast, () => m.reg('b_reg', 4, { reset: 2 }));
    b.set(b.add(io.x));
    io.a.set(a);
    io.b.set(b);
  },
});

describe('clock domains in the DSL', () => {
  it('give a domain its own clock and reset ports and an always block with an asynchronous reset', () => {
    const design = elaborate(TwoDomains);
    const text = emitVerilog(design).get('TwoDomains.v')!;
    expect(text).toMatch(
      /input {2}wire clk, .*\n {2}input {2}wire reset, .*\n {2}input {2}wire clk_fast, .*\n {2}input {2}wire rst_fast,/,
    );
    expect(text).toContain('always @(posedge clk) begin');
    expect(text).toContain('always @(posedge clk_fast or posedge rst_fast) begin');
    expect(text).toContain("if (rst_fast) b_reg <= 4'd2;");
  });

  it('show in the printed IR: the module domains with their reset kind, each register domain', () => {
    const text = printDesign(elaborate(Synchronizer));
    expect(text).toContain('module Synchronizer definition=Synchronizer domain=dst:async');
    expect(text).toContain('register stage0: 1 <= async_in reset=0x0 domain=dst');
    expect(text).toContain('port input clk_dst: 1 = clk_dst\n  port input rst_dst: 1 = rst_dst\n  port input in: 1');
  });

  it('leave a one-clock design exactly as it was: no domain ports, the same Verilog', () => {
    const design = elaborate(Counter);
    expect(design.modules.every((module) => module.domains === undefined)).toBe(true);
    const text = emitVerilog(design).get('Counter.v')!;
    expect(text).not.toContain('rst_');
    expect(text).toContain('always @(posedge clk) begin');
  });

  it('step each clock on its own; an asynchronous reset acts without an edge', () => {
    const sim = new Simulator(elaborate(TwoDomains));
    sim.poke('x', 3);
    sim.tick('clk');
    expect([sim.peek('a'), sim.peek('b')]).toEqual([1n, 0n]);
    sim.tick('clk_fast');
    sim.tick('clk_fast');
    expect([sim.peek('a'), sim.peek('b')]).toEqual([1n, 6n]);
    sim.poke('rst_fast', 1);
    expect(sim.peek('b')).toBe(2n); // no edge yet
    sim.poke('rst_fast', 0);
    sim.poke('reset', 1);
    expect(sim.peek('a')).toBe(1n); // synchronous: waits for the edge
    sim.tick('clk_fast');
    expect([sim.peek('a'), sim.peek('b')]).toEqual([1n, 5n]);
    sim.tick('clk');
    expect(sim.peek('a')).toBe(1n);
    sim.step(); // both clocks at once
    expect([sim.peek('a'), sim.peek('b')]).toEqual([1n, 8n]);
    expect(() => sim.tick('clk_slow')).toThrow(/no clock 'clk_slow' \(clocks: clk, clk_fast\)/);
    sim.reset();
    expect([sim.peek('a'), sim.peek('b'), sim.peek('reset'), sim.peek('rst_fast')]).toEqual([1n, 2n, 0n, 0n]);
  });

  it('pass a domain down: withDomain sets a child default clock, `domains` renames its named ones', () => {
    const Parent = defineModule({
      name: 'Parent',
      defaults: {},
      ports: () => ({ enable: input(1), count: output(8), synced: output(1) }),
      build(m, io) {
        const fast = m.domain('fast');
        const counter = m.withDomain(fast, () => m.instance(Counter, { name: 'counter' }));
        counter.enable.set(io.enable);
        io.count.set(counter.count);
        const sync = m.instance(Synchronizer, { name: 'sync', domains: { dst: fast } });
        sync.in.set(io.enable);
        io.synced.set(sync.out);
      },
    });
    const design = elaborate(Parent);
    const text = emitVerilog(design).get('Parent.v')!;
    expect(text).not.toMatch(/input {2}wire clk,/);
    expect(text).toMatch(/\.clk\(clk_fast\),\s*\.reset\(rst_fast\)/);
    expect(text).toMatch(/\.clk_dst\(clk_fast\),\s*\.rst_dst\(rst_fast\)/);
    const sim = new Simulator(design);
    sim.poke('enable', 1);
    sim.tick('clk_fast');
    expect([sim.peek('count'), sim.peek('synced')]).toEqual([1n, 0n]);
    sim.tick('clk_fast');
    expect([sim.peek('count'), sim.peek('synced')]).toEqual([2n, 1n]);
  });

  it('refuse a register in domain B fed combinationally by a register of domain A, at the line that assigned it', () => {
    const Crossing = defineModule({
      name: 'Crossing',
      defaults: {},
      ports: () => ({ y: output(4) }),
      build(m, io) {
        const slow = m.domain('slow');
        const a = m.reg('a', 4);
        a.set(a.add(1));
        const b = m.reg('b', 4, { domain: slow });
        b.set(a.add(2)); // unsynchronized crossing
        io.y.set(b);
      },
    });
    const message = expectError(Crossing, ClockCrossingError, 'unsynchronized crossing');
    expect(message).toContain("register 'b' (clock clk_slow) depends combinationally on 'a' (clock clk)");
  });

  it('refuse a crossing through a child, at the line that connected it; a Synchronizer is the fix', () => {
    const ThroughChild = (synchronized: boolean) =>
      defineModule({
        name: synchronized ? 'Synchronized' : 'Unsynchronized',
        defaults: {},
        ports: () => ({ y: output(8), z: output(1) }),
        build(m, io) {
          const fast = m.domain('fast');
          const slow = m.domain('slow');
          const counter = m.withDomain(fast, () => m.instance(Counter, { name: 'counter' }));
          counter.enable.set(1);
          const sampled = m.withDomain(slow, () => m.instance(Counter, { name: 'sampled', params: { width: 1 } }));
          if (synchronized) {
            const sync = m.instance(Synchronizer, { name: 'sync', domains: { dst: slow } });
            sync.in.set(counter.count.bit(0));
            sampled.enable.set(sync.out);
          } else sampled.enable.set(counter.count.bit(0)); // crossing into a child
          io.y.set(counter.count);
          io.z.set(sampled.count);
        },
      });
    const message = expectError(ThroughChild(false), ClockCrossingError, 'crossing into a child');
    expect(message).toContain(
      "input 'enable' of instance 'sampled' (clock clk_slow) depends combinationally on 'counter.value' (clock clk_fast)",
    );
    expect(() => elaborate(ThroughChild(true))).not.toThrow();
  });

  it('are refused by gen prove, whose model steps one clock', async () => {
    await expect(proveDesign(elaborate(TwoDomains), { depth: 4, seconds: 5, out: '/nonexistent' })).rejects.toThrow(
      /TwoDomains is clocked by clk, clk_fast; gen prove handles designs with one clock, the default clk/,
    );
    await expect(proveDesign(elaborate(Synchronizer), { depth: 4, seconds: 5, out: '/nonexistent' })).rejects.toThrow(
      /Synchronizer is clocked by clk_dst;/,
    );
  });

  it('refuse a domain that is not the module own, a duplicate and a name taken by a port', () => {
    let other: unknown;
    const Maker = defineModule({
      name: 'Maker',
      defaults: {},
      ports: () => ({ y: output(1) }),
      build(m, io) {
        other = m.domain('elsewhere');
        io.y.set(0);
      },
    });
    elaborate(Maker);
    const Foreign = defineModule({
      name: 'Foreign',
      defaults: {},
      ports: () => ({ y: output(1) }),
      build(m, io) {
        const r = m.reg('r', 1, { domain: other as never }); // foreign domain
        io.y.set(r);
      },
    });
    expect(expectError(Foreign, InvalidParameterError, 'foreign domain')).toContain(
      "domain 'elsewhere' does not belong to module Foreign",
    );
    const Twice = defineModule({
      name: 'Twice',
      defaults: {},
      ports: () => ({ y: output(1) }),
      build(m, io) {
        m.domain('fast');
        m.domain('fast'); // second declaration
        io.y.set(0);
      },
    });
    expectError(Twice, DuplicateNameError, 'second declaration');
    const Clash = defineModule({
      name: 'Clash',
      defaults: {},
      ports: () => ({ clk_fast: input(1), y: output(1) }),
      build(m, io) {
        m.domain('fast'); // clashes with the port
        io.y.set(io.clk_fast);
      },
    });
    expectError(Clash, DuplicateNameError, 'clashes with the port');
  });
});
