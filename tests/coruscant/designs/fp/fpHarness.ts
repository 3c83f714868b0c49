/**
 * Drives a two-operand FP unit on the in-process simulator, vector after vector, and compares
 * every result with a golden function; failures are reported as hex so they can be replayed.
 */
import { expect } from 'vitest';
import type { IrDesign } from '../../../../hw/ir/ir.ts';
import { elaborate } from '../../../../hw/ir/elaborate.ts';
import { Simulator } from '../../../../hw/sim/simulator.ts';
import type { ModuleDefinition, Params, PortTree } from '../../../../hw/core/index.ts';

/** Bits in, bits out: a unit's golden model. */
export type Golden = (a: number, b: number) => number;

/** A design under test with ports a, b and one output. */
export interface BinaryUnit {
  readonly simulator: Simulator;
  readonly output: string;
  /** Cycles from operands to result (the `pipelined` parameter). */
  readonly latency: number;
}

const hex = (bits: number): string => `0x${(bits >>> 0).toString(16).padStart(8, '0')}`;

/** Elaborates `definition`, printing the time taken and each module's cell and register counts. */
export function elaborateAndReport<P extends Params, T extends PortTree>(
  definition: ModuleDefinition<P, T>,
  params: Partial<P> = {},
): IrDesign {
  const start = performance.now();
  const design = elaborate(definition, params);
  const milliseconds = performance.now() - start;
  const modules = design.modules.map(
    (module) => `${module.name}: ${module.cells.length} cells, ${module.registers.length} registers`,
  );
  console.log(`elaborated ${design.top} in ${milliseconds.toFixed(0)} ms — ${modules.join('; ')}`);
  return design;
}

/** The simulator of `definition` with `pipelined` stages, ready to stream operand pairs. */
export function binaryUnit<T extends PortTree>(
  definition: ModuleDefinition<{ pipelined: number }, T>,
  output: string,
  pipelined = 0,
): BinaryUnit {
  return { simulator: new Simulator(elaborateAndReport(definition, { pipelined })), output, latency: pipelined };
}

/**
 * Streams `count` pairs from `next` through the unit, one per cycle, and expects each result
 * (`latency` cycles later) to equal `golden`. Returns the number of vectors checked per second.
 */
export function expectMatchesGolden(
  unit: BinaryUnit,
  golden: Golden,
  count: number,
  next: (index: number) => readonly [number, number],
): number {
  const { simulator, output, latency } = unit;
  const expected = new Uint32Array(latency + 1);
  const inputs: (readonly [number, number])[] = new Array<readonly [number, number]>(latency + 1);
  const failures: string[] = [];
  const start = performance.now();
  for (let index = 0; index < count + latency; index++) {
    if (index < count) {
      const pair = next(index);
      simulator.poke('a', pair[0] >>> 0);
      simulator.poke('b', pair[1] >>> 0);
      inputs[index % (latency + 1)] = pair;
      expected[index % (latency + 1)] = golden(pair[0], pair[1]) >>> 0;
    }
    // The result of the pair applied `latency` cycles ago is visible now, before the edge.
    if (index >= latency) {
      const done = (index - latency) % (latency + 1);
      const got = simulator.peekNumber(output);
      if (got !== expected[done] && failures.length < 10) {
        const [a, b] = inputs[done]!;
        failures.push(`a=${hex(a)} b=${hex(b)}: got ${hex(got)}, golden ${hex(expected[done]!)}`);
      }
    }
    if (latency > 0) simulator.step();
  }
  expect(failures, failures.join('\n')).toEqual([]);
  return count / ((performance.now() - start) / 1000);
}

/** Vector counts for the bulk sweeps: `FP_PAIRS` overrides the default. */
export function pairCount(fallback: number): number {
  const fromEnvironment = process.env['FP_PAIRS'];
  return fromEnvironment === undefined ? fallback : Number(fromEnvironment);
}
