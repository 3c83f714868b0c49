import type { IrDesign } from '../hw/ir/ir.ts';

/** Values of named top-level ports; bigint so any width is exact. */
export type PortValues = Record<string, bigint>;

/**
 * The one step contract all engines share (written down once, tested against all three):
 * for cycle t = 0, 1, …
 *   1. the inputs of cycle t are applied (ports not given keep their previous value, 0 at start);
 *   2. combinational logic settles; the outputs are sampled: that is `outputs[t]`;
 *   3. the clock rises: registers and memory writes take their new values.
 * Reset is the ordinary synchronous input `reset`: set it in a cycle's inputs.
 * A purely combinational design is the same with step 3 doing nothing.
 */
export interface CycleRun {
  /** Per cycle, every output port, sampled before that cycle's clock edge. */
  readonly outputs: PortValues[];
}

export interface RunOptions {
  /** Write a VCD of the run here (hierarchical names as Verilator/Icarus name them). */
  readonly vcd?: string;
}

export type EngineName = 'ts' | 'verilator' | 'icarus';

/**
 * A simulator behind the testbench API: the in-process compiled simulator, Verilator or Icarus.
 * External engines build once per design (cached) and run many stimulus streams per build.
 */
export interface Engine {
  readonly name: EngineName;
  /** Runs the design's top on per-cycle inputs and returns the sampled outputs. */
  run(design: IrDesign, inputs: readonly PortValues[], options?: RunOptions): Promise<CycleRun>;
  /** Runs several independent streams (each from reset state) on one build. */
  runMany(design: IrDesign, streams: readonly (readonly PortValues[])[]): Promise<CycleRun[]>;
}
