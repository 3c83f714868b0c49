/**
 * Scale checks shared by the fast tests and the soak: a design of a given size elaborates,
 * simulates, emits Verilog and traces, and computes what a plain TypeScript model says it should.
 */
import { expect } from 'vitest';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { Simulator } from '../../hw/sim/simulator.ts';
import { emitVerilog } from '../../hw/verilog/emit.ts';
import { ChainDesign, InstanceChainDesign, WideDesign } from '../../bench/scaleDesigns.ts';

/** What ScaleChain computes, step by step, in plain 32-bit arithmetic. */
export function chainModel(x: number, nodes: number): number {
  let value = x >>> 0;
  for (let index = 0; index < nodes; index++)
    value = index % 2 === 0 ? (value + ((index * 2654435761) >>> 0)) >>> 0 : (value ^ index) >>> 0;
  return value;
}

/** A chain of `nodes` operators goes through every backend without overflowing the stack. */
export function checkChain(nodes: number): void {
  const design = elaborate(ChainDesign, { nodes });
  const simulator = new Simulator(design);
  for (const x of [0, 1, 0xdeadbeef]) {
    simulator.poke('x', x);
    expect(simulator.peekNumber('y')).toBe(chainModel(x, nodes));
  }
  const [verilog] = [...emitVerilog(design).values()];
  expect(verilog).toMatch(/^module ScaleChain[\s\S]*endmodule\s*$/m);
}

/** A pipeline of `instances` registered stages: after `instances` cycles, y = x + instances. */
export function checkInstanceChain(instances: number): void {
  const design = elaborate(InstanceChainDesign, { instances });
  const simulator = new Simulator(design);
  simulator.poke('x', 100);
  simulator.step(instances);
  expect(simulator.peekNumber('y')).toBe((100 + instances) & 0xffff);
  const files = emitVerilog(design);
  expect([...files.keys()].sort()).toEqual(['ScaleInstances_instances_' + instances + '.v', 'ScaleStage.v'].sort());
  const top = files.get('ScaleInstances_instances_' + instances + '.v')!;
  expect(top.match(/ScaleStage stage\d+/g)).toHaveLength(instances);
}

/** ScaleWide's accumulator in bigint arithmetic: acc' = ((acc + x) mod 2^w) xor (acc >> 7). */
export function wideModel(width: number, inputs: readonly bigint[]): bigint {
  const mask = (1n << BigInt(width)) - 1n;
  return inputs.reduce((acc, x) => ((acc + x) & mask) ^ (acc >> 7n), 0n);
}

/** Wide arithmetic is exact: the simulator agrees with the bigint model cycle by cycle. */
export function checkWide(width: number, inputs: readonly bigint[]): Simulator {
  const simulator = new Simulator(elaborate(WideDesign, { width }));
  inputs.forEach((x, cycle) => {
    expect(simulator.peek('sum'), `cycle ${cycle}`).toBe(wideModel(width, inputs.slice(0, cycle)));
    simulator.poke('x', x);
    simulator.step();
  });
  const final = wideModel(width, inputs);
  expect(simulator.peek('sum')).toBe(final);
  const parity = [...final.toString(2)].filter((bit) => bit === '1').length % 2;
  expect(simulator.peekNumber('parity')).toBe(parity);
  return simulator;
}
