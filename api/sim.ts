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
  /** A testbench that reacts on a live engine session (`Testbench.open`): `await peek`, `await step`, `await waitFor` (a closure of peeks, or output values: one round trip per wait on Verilator and Icarus); concurrent processes with `fork`, `rising`, `falling`, `cycles`, `until`, `untilEdge`, `join`, `joinAll`, `joinAny`. */
  ReactiveTestbench,
  /** What `ReactiveTestbench.waitFor` is given: how many cycles it may step before giving up. */
  type WaitOptions,
  /** What `until` and `untilEdge` are given: the cycles they may wait and the clock whose edges they check at. */
  type UntilOptions,
  /** What `join`, `joinAll` and `joinAny` are given: the cycles they may wait (default 100,000). */
  type JoinOptions,
  /** A clock input: `clk`, or `clk_<domain>` for a named domain (what `rising` and `falling` wait for). */
  type ClockName,
  /** Every port's value as a rising edge sampled it (what `await tb.rising()` resolves with): inputs as driven, outputs before the edge. */
  type EdgeSample,
  /** The results of `joinAll`, in the order of the processes joined. */
  type JoinResults,
} from '../verif/testbench.ts';
export {
  /** A process forked with `tb.fork(body, { name })`: its `name`, `state` and `result`; `cancel()` ends it at its wait. */
  Process,
  /** Where a process is: 'waiting', 'running', 'done', 'cancelled' or 'failed'. */
  type ProcessState,
  /** What `fork` is given: the process's name in messages (default: where it was forked). */
  type ForkOptions,
} from '../verif/processes/scheduler.ts';
export {
  /** A process failure; its message names the process (name and fork site) and the cycle (`process`, `cycle`). */
  ProcessError,
  /** An exception in a process failed the testbench: the cause's first line and the values the process read. */
  ProcessFailedError,
  /** `until`, `untilEdge`, `waitFor` or a join waited longer than its timeout. */
  ProcessTimeoutError,
  /** A cancelled process's pending wait rejects with it; so does joining a cancelled process. */
  ProcessCancelledError,
  /** Every live process waits on another to finish. */
  ProcessDeadlockError,
} from '../verif/processes/processErrors.ts';
export {
  /** Forks a valid/ready driver: offers words in order, holds each until an edge samples `ready`, idles between words with a seeded chance. */
  validReadyDriver,
  /** Forks a valid/ready monitor: drives `ready` with seeded backpressure and records every word that moves. */
  validReadyMonitor,
  /** Checks each output word against a golden model's outputs for the accepted inputs, in order. */
  Scoreboard,
  /** Thrown by a Scoreboard: an output that differs from the model's, comes unexpected, or never comes. */
  ScoreboardMismatchError,
  /** One word that moved on a valid/ready stream: the cycle whose edge took it, and its data. */
  type Transaction,
  /** The ports a driver drives: a stream the design consumes (`valid`, `data` inputs; `ready` output). */
  type DriverPorts,
  /** The ports a monitor watches: a stream the design produces (`valid`, `data` outputs; `ready` input). */
  type MonitorPorts,
  /** Options of the agent's processes: stall chance, seed, name, per-word callback, timeout. */
  type AgentOptions,
} from '../verif/agents/validReady.ts';
export {
  /** A seeded source of numbers in [0, 1) (mulberry32): the same stalls on every engine and every run. */
  seededRandom,
} from '../verif/agents/seededRandom.ts';
