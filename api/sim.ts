/**
 * `coruscant-hdl/sim`: the in-process compiled simulator and the typed poke / step / expect
 * testbench that runs unchanged on every engine.
 */
export {
  /** The in-process simulator: `poke`, `peek`, `step` (every clock) or `tick` (some clocks); 2-state, all state zero at start. */
  Simulator,
  /** Compiles a design to JavaScript once (cached per design) for many simulators. */
  compileDesign,
  /** A design compiled for the simulator. */
  type CompiledDesign,
} from '../hw/sim/simulator.ts';
export {
  /** Traces every named signal of a simulator to a VCD file as it steps (same timing as the Verilator and Icarus harnesses). */
  traceToVcd,
  /** The running trace `traceToVcd` returns; `close()` writes the file. */
  type SimulationTrace,
} from '../hw/sim/vcdTrace.ts';
export {
  /** A testbench of pokes and expectations per cycle; `run(engine)` checks every expectation on that engine. */
  Testbench,
  /** Thrown by `Testbench.run`: every mismatch with its cycle, signal, expected and actual value. */
  ExpectationError,
  /** A testbench that reacts on a live engine session (`Testbench.open`): `await peek`, `await step`, `await waitFor` (a closure of peeks, or output values: one round trip per wait on Verilator and Icarus). */
  ReactiveTestbench,
  /** What `ReactiveTestbench.waitFor` is given: how many cycles it may step before giving up. */
  type WaitOptions,
} from '../verif/testbench.ts';
