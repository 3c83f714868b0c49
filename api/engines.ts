/**
 * `coruscant-hdl/engines`: the three simulation engines behind one interface — the in-process
 * compiled simulator (`ts`), Verilator and Icarus — and the JSON Lines vector format of `gen sim`.
 */
export {
  /** The engine of that name (`ts`, `verilator` or `icarus`); external ones load only when asked for. */
  createEngine,
  /** Every engine name. */
  ENGINE_NAMES,
  /** The engine table: name, description, the programs it needs, and how to make one. */
  ENGINES,
  /** The table row of an engine. */
  engineEntry,
  /** The engines this machine can run (`available`), and for the others the first program that is missing. */
  availableEngines,
  /** One row of the engine table. */
  type EngineEntry,
} from '../engines/index.ts';
export {
  /** What every engine does: `batch` (the one batch primitive, see EngineCore) and `open`, and the helpers over `batch`: `run` one stimulus (optionally tracing a VCD), `runMany` independent streams on one build, `compare` streams with their expected outputs inside the engine. */
  type Engine,
  /** What an engine implements: `batch(design, streams, sink, options)`, independent streams run on one build with their outputs handed to a sink, and `open`, an interactive session. */
  type EngineCore,
  /** Where a batch's outputs go: `{ kind: 'collect' }` (a CycleRun per stream), `{ kind: 'compare', expected, mismatches }` (a verdict per stream), `{ kind: 'digest' }` (the outputs' digest per stream). */
  type BatchSink,
  /** What `Engine.batch` answers for a sink: CycleRun[], OutputVerdict[] or digests. */
  type BatchResult,
  /** Options of a batch: those of a run; a VCD is of the first stream. */
  type BatchOptions,
  /** A live simulation on any engine: `poke`, `await peek`, `await step`, `await waitFor` (output values, waited for inside the Verilator and Icarus harnesses), `await runFrames` (a piece of input frames in, its output frames out), `printed` lines, `close` or `abort`; the same outputs, lines and VCD as a batch run of the same stream. */
  type EngineSession,
  /** Options of a session: those of a run (a VCD, internal nets, the check mode). */
  type SessionOptions,
  /** `ts`, `verilator` or `icarus`. */
  type EngineName,
  /** Values of top-level ports by name, as bigints. */
  type PortValues,
  /** The sampled outputs of a run: `frames` (typed), and `outputs`, one record per cycle, decoded from them when first read; `prints`, the printf lines. */
  type CycleRun,
  /** The inputs of one stream: per-cycle PortValues records, or PortFrames (the fast path). */
  type Stimulus,
  /** Options of a run: a VCD file to write, assertion mode, each clock's period and phase, and the initial state (`init`). */
  type RunOptions,
  /** What `Engine.compare` checks a stream's outputs against: expected frames (with an optional don't-care mask) or their digest. */
  type ExpectedOutputs,
  /** One stream of `Engine.compare`: its inputs and its expected outputs. */
  type ExpectedStream,
  /** Options of `Engine.compare`: the check mode, clock timings, and how many mismatches a verdict lists (default 8). */
  type CompareOptions,
  /** A stream's verdict from `Engine.compare`: equal or not, the outputs' digest, the mismatch count and the first mismatches. */
  type OutputVerdict,
  /** One output that differs from the expected frames: cycle, port, expected (compared bits), actual value and mask. */
  type OutputMismatch,
  /** The named phases of one cycle of the step contract: cycle_check, before_edge, at_edge, after_edge. */
  CYCLE_PHASES,
  /** One of CYCLE_PHASES. */
  type CyclePhase,
} from '../hw/contract/engine.ts';
export {
  /** The steps of a multi-clock run: every clock's rising edges in time order, simultaneous ones as one step, with sample times. */
  clockSchedule,
  /** A clock's period and phase in ns (rising at phase + k·period + period/2). */
  type ClockTiming,
  /** Clock timings by clock input name (`clk`, `clk_<domain>`), for `RunOptions.clocks`. */
  type ClockTimings,
  /** One step of a multi-clock run: the clocks that rise (a mask), its sample time and its edge time. */
  type ClockStep,
} from '../hw/contract/clockSchedule.ts';
export {
  /** Port values of many cycles as 32-bit words, one frame per cycle: build input frames with `from` or `empty` and `set`, read outputs with `value`, `row` or `rows`. */
  PortFrames,
  /** A port as frames lay it out: its name and width. */
  type FramePort,
} from '../hw/contract/portFrames.ts';
export {
  /** A design's input frames from per-cycle PortValues, checked as the engines check a stream. */
  inputFrames,
  /** Zero frames over a design's inputs, to fill with `PortFrames.set`. */
  emptyInputFrames,
} from '../engines/designFrames.ts';
export {
  /** The digest of output frames (FNV-1a over their words, 8 hex digits), as `OutputVerdict.digest` and the native benchmark harness give it. */
  outputDigest,
  /** Expected frames and a mask from golden per-cycle values that name only the ports they predict (the others are don't care). */
  expectedFrames,
  /** One line for a mismatch: `cycle 7, port count: expected 0x5, got 0x6`. */
  describeOutputMismatch,
} from '../engines/outputCompare.ts';
export {
  /** The base of an engine: implement `batch` and `open`, get `run`, `runMany` and `compare` as batches (an engine that wraps another wraps `batch` only). */
  BatchEngine,
} from '../engines/batchEngine.ts';
export {
  /** Runs two or more engines on one design and stimulus and reports the first difference: cycle, port, each engine's value. */
  runLockstep,
  /** One line for a difference: `cycle 7, port count: ts=0x6 icarus=0x7`. */
  describeDifference,
  /** What runLockstep found: the engines, the cycles compared, the first difference if any, each run. */
  type LockstepResult,
  /** Where engines first disagree. */
  type LockstepDifference,
} from '../engines/lockstep.ts';
export {
  /** Reads a JSON Lines vector file against a top's ports. */
  readVectors,
  /** The lines of a vector file one at a time as they are pulled: a long file in bounded memory. */
  vectorLines,
  /** Parses vector text (the file name is for messages). */
  parseVectors,
  /** Parses one vector value (`"0x1f"`, `"31"` or a JSON integer). */
  parseVectorValue,
  /** `0x…` text of a value, as vector outputs are written. */
  formatVectorValue,
  /** One line of a vector file: inputs, optional expectations, line number. */
  type VectorLine,
  /** The input and output widths a vector file is checked against. */
  type VectorPorts,
} from '../engines/vectors.ts';
export {
  /** One line per engine (name: what it is), for an option's help text. */
  engineHelp,
} from '../engines/index.ts';
