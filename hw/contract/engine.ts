import type { IrDesign } from '../ir/ir.ts';
import type { CheckMode, CheckResults } from './checks.ts';
import type { PrintedLine } from '../ir/prints.ts';
import type { InitialState } from '../ir/randomInit.ts';
import type { ClockTimings } from './clockSchedule.ts';
import type { PortFrames, PortValues } from './portFrames.ts';

export type { PortValues } from './portFrames.ts';

/**
 * The inputs of one stream: per cycle the ports it sets (an input a cycle leaves out keeps its
 * value), or the same as typed frames (portFrames.ts), the fast path that needs no object or
 * bigint per cycle.
 */
export type Stimulus = readonly PortValues[] | PortFrames;

/**
 * The phases of one cycle, in order: the one step contract all engines share (written down here
 * once, tested against all of them; Hardcaml's Cyclesim names the same phases). For cycle
 * t = 0, 1, …:
 *   1. `cycle_check` — the inputs of cycle t are checked against the top's ports (an unknown name
 *      or a value wider than its port is an error, never a silent 0) and applied; ports not given
 *      keep their previous value (0 at the start of a stream).
 *   2. `before_edge` — combinational logic settles; every output is sampled: that is `outputs[t]`.
 *   3. `at_edge` — the clock rises: registers and memory writes take their new values, all at
 *      once (no register sees another's new value).
 *   4. `after_edge` — logic settles again and the clock falls; nothing is sampled (the next
 *      cycle's `before_edge` sees these values once its inputs are applied).
 * All state (registers, memory words) is 0 at the start of every stream, except the words of
 * memories declared with initial contents (`init`, ROMs), which start at them, and, with
 * `RunOptions.init` random, registers without a reset and memories without contents, which start
 * at the seed's values (hw/ir/randomInit.ts). A printf prints in `at_edge` with the values of
 * `before_edge`, outside reset. Reset is the ordinary
 * synchronous input `reset`: set it in a cycle's inputs. A purely combinational design is the same
 * with `at_edge` changing nothing. The ts engine runs the phases in Simulator.poke/peek/step,
 * Verilator in its harness (engines/verilator/harness.cpp), Icarus in its testbench
 * (engines/icarus/testbench.v), both over one binary protocol (hw/contract/harnessProtocol.ts);
 * runLockstep (lockstep.ts) compares engines phase 2 by phase 2. A session (Engine.open) walks
 * the same phases one command at a time: `poke` is phase 1, `peek` phase 2 of the current cycle
 * (it may come more than once, and pokes after it change what the next peek sees), `step` the
 * rest of the cycle and whole further cycles.
 *
 * Several clocks (named domains, hw/core `m.domain`): the same phases, per *step* instead of per
 * cycle. Each clock input (`clk`, `clk_<domain>`) has a period and a phase in ns
 * (`RunOptions.clocks`; default period 10, phase 0: low from phase + k·period, rising at
 * phase + k·period + period/2). The rising edges of all clocks, in time order, are the steps;
 * edges at the same time are one step, in which all those clocks rise at once (every register and
 * memory of those domains samples before any of them changes, as in one-clock `at_edge`); the
 * other domains keep their state. Step i has one stimulus entry and one sampled output record,
 * exactly as a cycle does: its inputs are applied (`cycle_check`) and its outputs sampled
 * (`before_edge`) at its sample point, halfway back to the previous edge (rounded towards it;
 * step 0 at 0), which is where cocotb users drive a synchronous input: after the previous edge
 * settled, before the next. An asynchronous reset acts at `cycle_check` as soon as it is high
 * (no edge needed) and holds its registers while it stays high. With all clocks at the same
 * timing every step raises every clock, so a one-clock stimulus file runs unchanged, and a
 * one-clock design steps exactly as above. hw/contract/clockSchedule.ts computes the steps for every
 * engine; traces use the same times (the clocks high from their edge to the next sample point).
 */
export const CYCLE_PHASES = ['cycle_check', 'before_edge', 'at_edge', 'after_edge'] as const;

export type CyclePhase = (typeof CYCLE_PHASES)[number];

export interface CycleRun {
  /** Per cycle, every output port, sampled in that cycle's `before_edge` phase (decoded from `frames` when first read). */
  readonly outputs: PortValues[];
  /** The same outputs as typed frames (the top's outputs in port order): read them without decoding every cycle. */
  readonly frames: PortFrames;
  /**
   * The design's assertions, assumptions and cover points in this run (absent when it has none).
   * In stop mode a failure is thrown as CheckFailedError (hw/contract/checks.ts) instead.
   */
  readonly checks?: CheckResults;
  /** The lines the design's printfs printed in this run, in order (absent when it has no printf; hw/ir/prints.ts). */
  readonly prints?: readonly PrintedLine[];
}

export interface RunOptions {
  /** Write a VCD of the run here: one waveform on every engine (scopes, names, time base: waves/README.md). */
  readonly vcd?: string;
  /** Keep the internal nets (`_n27`) in the VCD too: Verilator and Icarus only (the ts engine keeps no values for them). */
  readonly internal?: boolean;
  /** A failing assertion stops the run with CheckFailedError (default), or is counted in `checks`. */
  readonly checks?: CheckMode;
  /** Period and phase of each clock input (see "Several clocks" above); default 10 ns, phase 0 for each. */
  readonly clocks?: ClockTimings;
  /** The state a run starts from: all 0 (default), or random for unreset state (hw/ir/randomInit.ts). */
  readonly init?: InitialState;
}

/**
 * What a stream's outputs must be, checked inside the engine (Engine.compare) instead of moved out:
 * expected output frames (the top's outputs in port order, one frame per cycle of the stimulus),
 * with an optional mask of the same layout whose 0 bits are "don't care" (`expectedFrames` makes
 * both from golden PortValues rows that leave ports out), or only the digest the outputs must have
 * (`outputDigest` of a known-good run's frames), which says equal or not but not where.
 */
export type ExpectedOutputs = { readonly frames: PortFrames; readonly mask?: PortFrames } | { readonly digest: string };

/** One stream of Engine.compare: its inputs and what its outputs must be. */
export interface ExpectedStream {
  readonly inputs: Stimulus;
  readonly expected: ExpectedOutputs;
}

/** Where an output differs from the expected frames: the cycle, the port, and the values (compared bits only where masked). */
export interface OutputMismatch {
  readonly cycle: number;
  readonly port: string;
  readonly width: number;
  /** The expected value, compared bits only. */
  readonly expected: bigint;
  readonly actual: bigint;
  /** The compared bits of the port in that cycle (all ones without a mask). */
  readonly mask: bigint;
}

/** The verdict of one stream of Engine.compare. */
export interface OutputVerdict {
  /** Every compared bit as expected (or, against a digest, the digest equal). */
  readonly equal: boolean;
  /** Cycles run. */
  readonly cycles: number;
  /** FNV-1a of every output word of the stream, in cycle and port order, mask or not (outputDigest). */
  readonly digest: string;
  /** (cycle, port) pairs that differ from the expected frames (0 against a digest). */
  readonly mismatchCount: number;
  /** The first of them, in cycle order and, within a cycle, in port order (at most CompareOptions.mismatches). */
  readonly mismatches: readonly OutputMismatch[];
  /** The design's checks in this stream, in count mode (absent when it has none). */
  readonly checks?: CheckResults;
}

/** Options of Engine.compare: those of runMany, and how many mismatches a verdict lists. */
export interface CompareOptions {
  readonly checks?: CheckMode;
  readonly clocks?: ClockTimings;
  readonly init?: InitialState;
  /** The first mismatches of a stream a verdict lists (default 8); all are counted. */
  readonly mismatches?: number;
}

/** What a session is opened with: the run options (the same meanings as in a batch run). */
export type SessionOptions = RunOptions;

/**
 * A simulation driven one command at a time (cocotb's and ChiselTest's peek / poke / step), the
 * same on every engine: the in-process simulator, or a Verilator or Icarus process kept running
 * behind the binary protocol. Pokes are checked at once and take effect from the current cycle
 * on; `peek` answers with the outputs as the current cycle's `before_edge` samples them (the
 * step contract above); `step` runs cycles and, in stop mode, rejects with the CheckFailedError
 * of the first failing check (its file:line and cycle, as batch runs report it). A waveform is
 * complete when `close` resolves; a session of the same pokes and steps as a batch stream gives
 * the same outputs and the same VCD, byte for byte. An external session's process is killed by
 * `close`, by a failure, by its watchdog and with this process.
 */
export interface EngineSession {
  readonly engine: EngineName;
  /** Cycles stepped so far. */
  readonly cycle: number;
  /** The lines the design's printfs printed so far, in order (empty when it has no printf). */
  readonly printed: readonly PrintedLine[];
  /** Drives an input from the current cycle on (a UserError for an unknown name or a value that does not fit). */
  poke(name: string, value: bigint | number): void;
  /** An output of the top in the current cycle, sampled before its clock edge. */
  peek(name: string): Promise<bigint>;
  /** Every output of the top in the current cycle, in one answer. */
  peekAll(): Promise<PortValues>;
  /** Runs `cycles` clock cycles (default 1). */
  step(cycles?: number): Promise<void>;
  /**
   * Steps until every output named in `values` has its value (checked in the current cycle
   * first, then after each step) and resolves with the cycles stepped, or with undefined after
   * `limit` steps without it; the same cycles and outputs as a loop of peekAll and step. Verilator
   * and Icarus evaluate it inside their harness, one round trip for the whole wait (a design
   * with several clocks, or with checks in stop mode, is stepped from here instead).
   */
  waitFor(values: Readonly<Record<string, bigint | number>>, limit: number): Promise<number | undefined>;
  /**
   * Runs one cycle per frame of `inputs` (frames of the top's inputs, as a batch stream's) from
   * the current cycle on and answers with each cycle's sampled outputs as frames (the top's
   * outputs in port order): a long run fed and read piece by piece, in memory bounded by the
   * piece, with the outputs a batch run of the whole stream gives. The inputs keep the last
   * frame's values afterwards; in stop mode a failing check rejects as `step` does.
   */
  runFrames(inputs: PortFrames): Promise<PortFrames>;
  /** Ends the session: the waveform is written, the process gone; in count mode, the checks' results. */
  close(): Promise<{ readonly checks?: CheckResults }>;
  /**
   * Ends the session without its waveform (a caller that failed part way: nothing appears under
   * the VCD's name, no temporary is left), the process gone. After `close`, nothing more happens.
   */
  abort(): Promise<void>;
}

/** The engines of the engine table (engines/index.ts). */
export type EngineName = 'ts' | 'verilator' | 'icarus';

/**
 * Where a batch's outputs go, stream by stream (Engine.batch): `collect` keeps each stream's
 * output frames (a CycleRun), `compare` checks them against what they must be and keeps only a
 * verdict (OutputVerdict; `mismatches` as CompareOptions'), `digest` keeps only their digest
 * (outputDigest, engines/outputCompare.ts). Compare and digest keep no output frames per stream:
 * Verilator's harness folds them in C++ (one clock, untraced), the ts engine in one reused buffer.
 */
export type BatchSink =
  | { readonly kind: 'collect' }
  | { readonly kind: 'compare'; readonly expected: readonly ExpectedOutputs[]; readonly mismatches?: number }
  | { readonly kind: 'digest' };

/** What Engine.batch answers, per stream: a CycleRun (collect), an OutputVerdict (compare) or a digest. */
export type BatchResult<Sink extends BatchSink> = Sink extends { readonly kind: 'collect' }
  ? CycleRun[]
  : Sink extends { readonly kind: 'compare' }
    ? OutputVerdict[]
    : string[];

/**
 * Options of a batch: those of a run. A waveform (`vcd`, `internal`) is of the batch's first
 * stream, as the harness protocol traces it; a traced batch is collected, then compared or
 * digested in this process.
 */
export type BatchOptions = RunOptions;

/**
 * What an engine implements: one batch primitive and sessions. `batch` runs independent streams
 * (each from its initial state) on one build and hands each stream's outputs to the sink; in
 * stop mode the first failing check (by stream) is thrown as CheckFailedError. Stimulus of other
 * ports, expected frames of another shape, a malformed digest: a UserError naming the stream.
 */
export interface EngineCore {
  readonly name: EngineName;
  /** The one batch primitive: `streams` run as one batch, their outputs into `sink`. */
  batch<Sink extends BatchSink>(
    design: IrDesign,
    streams: readonly Stimulus[],
    sink: Sink,
    options?: BatchOptions,
  ): Promise<BatchResult<Sink>>;
  /** Starts an interactive session on the design's top (all state 0 or as `init` says, inputs 0). */
  open(design: IrDesign, options?: SessionOptions): Promise<EngineSession>;
}

/**
 * A simulator behind the testbench API: the in-process compiled simulator, Verilator or Icarus.
 * External engines build once per design (cached) and run many stimulus streams per build
 * (engines/harness/externalEngine.ts is their common base). `run`, `runMany` and `compare` are
 * helpers over `batch`, written once for every engine (engines/batchEngine.ts).
 */
export interface Engine extends EngineCore {
  /** Runs the design's top on per-cycle inputs and returns the sampled outputs: a collected batch of one stream. */
  run(design: IrDesign, inputs: Stimulus, options?: RunOptions): Promise<CycleRun>;
  /** Runs several independent streams (each from reset state) on one build: a collected batch. */
  runMany(
    design: IrDesign,
    streams: readonly Stimulus[],
    options?: { readonly checks?: CheckMode; readonly clocks?: ClockTimings; readonly init?: InitialState },
  ): Promise<CycleRun[]>;
  /**
   * Runs independent streams as runMany does, but checks each stream's outputs against what they
   * must be inside the engine and returns only a verdict per stream: equal or not, the outputs'
   * digest, and the first mismatches (cycle, port, expected, got): a compared batch. Verilator
   * compares in its C++ harness, so no output frame leaves it; the ts engine compares in this
   * process; Icarus (and Verilator with several clocks) reads its outputs back and compares them
   * here. Expected frames of other ports or another length, or a malformed digest, are a
   * UserError naming the stream.
   */
  compare(design: IrDesign, streams: readonly ExpectedStream[], options?: CompareOptions): Promise<OutputVerdict[]>;
}
