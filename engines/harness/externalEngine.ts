import { ToolError, UserError } from '../../common/errors.ts';
import { quoteValue } from '../../common/optionValues.ts';
import { moduleByName, type IrDesign } from '../../hw/ir/ir.ts';
import { emitVerilog } from '../../hw/verilog/emit.ts';
import type {
  BatchOptions,
  BatchResult,
  BatchSink,
  CycleRun,
  EngineName,
  EngineSession,
  ExpectedOutputs,
  OutputMismatch,
  OutputVerdict,
  PortValues,
  SessionOptions,
  Stimulus,
} from '../../hw/contract/engine.ts';
import { BatchEngine } from '../batchEngine.ts';
import { comparedStreams, digestHex, foldCollected, mismatchAt, mismatchLimit } from '../outputCompare.ts';
import { frameStride, PortFrames, stimulusFrames, wordsOf } from '../../hw/contract/portFrames.ts';
import { framedRun } from '../framedRun.ts';
import { CheckFailedError, hasChecks, type CheckMode, type CheckResults } from '../../hw/contract/checks.ts';
import { CheckLogReader, parseCheckLog } from './checkLog.ts';
import { conditionHolds, outputCondition, waitByStepping, waitLimit } from '../outputCondition.ts';
import { hasPrints, type PrintedLine } from '../../hw/ir/prints.ts';
import { PrintLogReader, parsePrintLog } from './printLog.ts';
import { withInitialState } from '../../hw/ir/randomInit.ts';
import {
  compareCommands,
  decodeOutputs,
  frameCommands,
  harnessPortsOf,
  HarnessCommands,
  storeOutputs,
  streamCommands,
  type FrameHandlers,
  type HarnessPorts,
} from './harnessStimulus.ts';
import { STEP_ACK, STEP_PEEK, STEP_SAMPLE } from '../../hw/contract/harnessProtocol.ts';
import { HarnessProcess, runHarness, runServed, type HarnessLaunch } from './harnessProcess.ts';
import { withEngineTrace } from './engineTrace.ts';
import { closeSync, openSync, readFileSync, readSync, writevSync } from 'node:fs';
import { join } from 'node:path';
import { withWorkspace } from '../../tools/runTool.ts';
import { clockSchedule, clockSteps, type ClockStep, type ClockTimings } from '../../hw/contract/clockSchedule.ts';

/**
 * The adapter base of every engine that runs an external simulator (Verilator, Icarus, and
 * Icarus on a mutant's Verilog). What they share lives here: emit the Verilog, build once per
 * design (the build is cached by the tool layer), and drive the build as a harness of the binary
 * protocol (hw/contract/harnessProtocol.ts): a batch run sends all its streams' commands to one process
 * without waiting and reads every cycle's outputs back (checking every stream produced every
 * cycle); a session (open) sends each poke, peek and step as it comes. Either way a VCD is
 * written under a temporary name, renamed into place only when the run succeeded. A subclass
 * says how to build and how to start a build; nothing else.
 */
export abstract class ExternalEngine<Build> extends BatchEngine {
  /** The Verilog of each design object this engine ran: a second run of a design skips emitting it. */
  private readonly emitted = new WeakMap<IrDesign, ReadonlyMap<string, string>>();

  /**
   * The watchdog's bound on one cycle of one IR cell (cells, registers and memories of the
   * flattened design), µs: a run is killed after RUN_BASE_MS + cycles × (RUN_CYCLE_MS + cells ×
   * this), the per-cycle part four times when tracing. Chosen 10× or more above what the slowest design measured
   * (Icarus: about 3.5 µs per cell-cycle on the 86 k-cell MmaBench at a few cycles per second).
   */
  protected abstract readonly cellCycleMicros: number;

  /**
   * The harness runs batches through files (hw/contract/harnessProtocol.ts, Transport): its commands, each
   * stream one OP_FRAMES of its input frames as they are, from one, its output frames into the other.
   */
  protected readonly fileBatches: boolean = false;

  /** Builds the harness or testbench around `files` (cached by content). */
  protected abstract build(
    design: IrDesign,
    files: ReadonlyMap<string, string>,
    ports: HarnessPorts,
    traced: boolean,
  ): Promise<Build>;

  /**
   * How to start a build as a harness; `vcd` is where it writes its raw trace (its first stream's),
   * `files` the commands and frames files of a batch run (only when `fileBatches`).
   */
  protected abstract launch(build: Build, vcd: string | undefined, files?: BatchFiles): HarnessLaunch;

  /**
   * How to start a build as a harness kept running for batch after batch through files (OP_BATCH,
   * hw/contract/harnessProtocol.ts), when it can be (untraced runs only); undefined: a process per run.
   */
  protected served(_build: Build): HarnessLaunch | undefined {
    return undefined;
  }

  /**
   * The build of `design` (traced or not). The Verilog is emitted once per design object (on the
   * MmaBench that was most of a short run's cost), but the build goes through the disk cache every
   * run: hashing the text is ~2 ms, and the cache's integrity check is what heals an entry whose
   * binary was truncated or deleted since the last run (a build kept in memory would run it).
   */
  private buildOf(design: IrDesign, ports: HarnessPorts, traced: boolean): Promise<Build> {
    let files = this.emitted.get(design);
    if (!files) this.emitted.set(design, (files = this.verilogOf(design)));
    return this.build(design, files, ports, traced);
  }

  /** Sees what the simulator printed in a batch run of a design with checks (tests look at the lines). */
  protected printed(_log: string): void {}

  /** The Verilog simulated: the design's own; the mutation engine gives a mutant's instead. */
  protected verilogOf(design: IrDesign): ReadonlyMap<string, string> {
    return emitVerilog(design);
  }

  /**
   * The batch primitive: collected streams run as one batch (simulate); compare and digest, through
   * files (Verilator, one clock or none, untraced), are one OP_FRAMES with STEP_COMPARE a stream,
   * and the harness writes only its verdict (hw/contract/harnessProtocol.ts); otherwise the streams
   * are collected and compared or digested here.
   */
  async batch<Sink extends BatchSink>(
    design: IrDesign,
    streams: readonly Stimulus[],
    sink: Sink,
    options: BatchOptions = {},
  ): Promise<BatchResult<Sink>> {
    design = withInitialState(design, options.init);
    const ports = harnessPortsOf(design);
    if (sink.kind === 'collect' || !this.fileBatches || ports.clocks || options.vcd !== undefined)
      return foldCollected(ports, streams, sink, (each) =>
        this.simulate(design, each, options.vcd, options.checks, options.internal, options.clocks),
      );
    const folded = await this.foldInHarness(
      design,
      ports,
      streams,
      sink as Exclude<BatchSink, { readonly kind: 'collect' }>,
      options.checks,
    );
    return folded as BatchResult<Sink>;
  }

  /** A compare or digest sink folded in the harness: the streams' verdicts, or their digests. */
  private async foldInHarness(
    design: IrDesign,
    ports: HarnessPorts,
    streams: readonly Stimulus[],
    sink: Exclude<BatchSink, { readonly kind: 'collect' }>,
    mode: CheckMode = 'stop',
  ): Promise<OutputVerdict[] | string[]> {
    const checked =
      sink.kind === 'compare'
        ? comparedStreams(ports, streams, sink)
        : streams.map((stimulus) => ({ inputs: stimulusFrames(ports, stimulus), expected: ANY_DIGEST }));
    const limit = sink.kind === 'compare' ? mismatchLimit(sink) : 0;
    if (checked.length === 0) return [];
    const cycles = checked.map((stream) => stream.inputs.cycles);
    const { result, log } = await this.throughFiles(
      design,
      ports,
      compareCommands(ports, checked, limit),
      cycles,
      (file) => readVerdicts(this.name, file, ports, checked, limit),
    );
    let verdicts = result;
    // A design with printfs only has a log too; a verdict carries no printed lines.
    if (log !== undefined && hasChecks(design)) {
      const checks = parseCheckLog(design, log, checked.length, this.name);
      if (mode === 'stop')
        for (const each of checks) if (each.failures[0]) throw new CheckFailedError(each.failures[0], this.name);
      verdicts = verdicts.map((verdict, index) => ({ ...verdict, checks: checks[index]! }));
    }
    return sink.kind === 'compare' ? verdicts : verdicts.map((verdict) => verdict.digest);
  }

  /**
   * A batch run through files (hw/contract/harnessProtocol.ts, Transport): `commands` into the commands file,
   * the harness run on it, and `read` of the frames file it wrote; with checks in the design, what
   * the simulator printed.
   */
  private async throughFiles<T>(
    design: IrDesign,
    ports: HarnessPorts,
    commands: readonly Buffer[],
    cycles: readonly number[],
    read: (frames: string) => T,
    { vcd, internal = false, clocks }: { vcd?: string; internal?: boolean; clocks?: ClockTimings } = {},
  ): Promise<{ result: T; log?: string }> {
    const build = await this.buildOf(design, ports, vcd !== undefined);
    const work = cycles.reduce((sum, count) => sum + count, 0);
    const timeout = runTimeout(work, flatCells(design), this.cellCycleMicros, vcd !== undefined);
    const log: string[] = [];
    const trace = { vcd, internal, endTime: () => this.endTime(ports, cycles[0] ?? 0, clocks) };
    const result = await withWorkspace('batch', {}, async (dir) => {
      const files = { commands: join(dir, 'commands.bin'), frames: join(dir, 'frames.bin') };
      writeParts(files.commands, commands);
      const line = (text: string): void => {
        if (ports.checked) log.push(text);
      };
      const served = vcd === undefined ? this.served(build) : undefined;
      if (served) {
        await runServed(served, outputWordsOf(ports), { ...files, log: join(dir, 'log.txt') }, timeout, line);
        return read(files.frames);
      }
      await withEngineTrace(this.name, design, trace, (raw) =>
        runHarness(this.launch(build, raw, files), outputWordsOf(ports), [], timeout, {
          outputs: () => {
            throw new ToolError(this.name, 'harness wrote a frame to standard output in a batch run');
          },
          ack: () => {},
          line,
        }),
      );
      return read(files.frames);
    });
    if (!ports.checked) return { result };
    const text = log.join('\n');
    this.printed(text);
    return { result, log: text };
  }

  async open(design: IrDesign, options: SessionOptions = {}): Promise<EngineSession> {
    design = withInitialState(design, options.init);
    const ports = harnessPortsOf(design);
    const build = await this.buildOf(design, ports, options.vcd !== undefined);
    const cells = flatCells(design);
    const traced = options.vcd !== undefined;
    let session: ExternalSession | undefined;
    const finished = withEngineTrace(
      this.name,
      design,
      {
        vcd: options.vcd,
        internal: options.internal,
        endTime: () => this.endTime(ports, session?.cycle ?? 0, options.clocks),
      },
      (raw) => {
        session = new ExternalSession(this.name, design, ports, this.launch(build, raw), {
          mode: options.checks ?? 'stop',
          clocks: options.clocks,
          timeout: (cycles) => runTimeout(cycles, cells, this.cellCycleMicros, traced),
        });
        return session.ended;
      },
    );
    // withEngineTrace starts the run before its first wait, so the session exists by now, unless
    // the trace's folder could not be made.
    if (!session) {
      await finished;
      throw new Error('internal: the session did not start');
    }
    session.attach(finished);
    return session;
  }

  /** The time a trace of `cycles` cycles (steps) must reach: every cycle's clock edges, or none to check. */
  private endTime(ports: HarnessPorts, cycles: number, timings: ClockTimings | undefined): number {
    const end = ports.clocks ? clockSchedule(ports.clocks, timings, cycles).end : 10 * cycles;
    return ports.clocked || ports.clocks || this.name === 'icarus' ? end : 0;
  }

  /**
   * Runs the streams; with checks in the design, reads each stream's failures from what the
   * simulator printed (checkLog.ts) and, in stop mode, throws the first as CheckFailedError.
   */
  private async simulate(
    design: IrDesign,
    streams: readonly Stimulus[],
    vcd?: string,
    mode: CheckMode = 'stop',
    internal = false,
    clocks?: ClockTimings,
  ): Promise<CycleRun[]> {
    const runs = await this.simulateStreams(design, streams, vcd, internal, clocks);
    if (runs.log === undefined) return runs.runs;
    const checks = hasChecks(design) ? parseCheckLog(design, runs.log, streams.length, this.name) : undefined;
    const prints = hasPrints(design) ? parsePrintLog(design, runs.log, streams.length, this.name) : undefined;
    if (mode === 'stop')
      for (const result of checks ?? [])
        if (result.failures[0]) throw new CheckFailedError(result.failures[0], this.name);
    return runs.runs.map((run, index) => framedRun(run.frames, checks?.[index], prints?.[index]));
  }

  private async simulateStreams(
    design: IrDesign,
    streams: readonly Stimulus[],
    vcd?: string,
    internal = false,
    clocks?: ClockTimings,
  ): Promise<{ runs: CycleRun[]; log?: string }> {
    if (streams.length === 0) return { runs: [] };
    const ports = harnessPortsOf(design);
    const inputs = streams.map((stream) => stimulusFrames(ports, stream));
    const commands = streamCommands(ports, inputs, { timings: clocks, frames: this.fileBatches });
    const cycles = inputs.map((frames) => frames.cycles);
    if (this.fileBatches) {
      const { result, log } = await this.throughFiles(
        design,
        ports,
        commands,
        cycles,
        (file) => readFrames(this.name, file, ports, cycles),
        { vcd, internal, clocks },
      );
      return { runs: result.map((frames) => framedRun(frames)), ...(log === undefined ? {} : { log }) };
    }
    const build = await this.buildOf(design, ports, vcd !== undefined);
    const work = cycles.reduce((sum, count) => sum + count, 0);
    const timeout = runTimeout(work, flatCells(design), this.cellCycleMicros, vcd !== undefined);
    const log: string[] = [];
    const handlers = (outputs: (bytes: Buffer, offset: number, fourState: boolean) => void): FrameHandlers => ({
      outputs,
      ack: () => {},
      line: (text) => {
        if (ports.checked) log.push(text);
      },
    });
    const trace = { vcd, internal, endTime: () => this.endTime(ports, cycles[0]!, clocks) };
    const outputs = await this.pipedStreams(design, ports, build, commands, cycles, timeout, trace, handlers);
    const runs = outputs.map((frames) => framedRun(frames));
    if (!ports.checked) return { runs };
    const text = log.join('\n');
    this.printed(text);
    return { runs, log: text };
  }

  /** A batch run over the harness's standard input and output: every outputs frame read as it comes. */
  private async pipedStreams(
    design: IrDesign,
    ports: HarnessPorts,
    build: Build,
    commands: readonly Buffer[],
    cycles: readonly number[],
    timeout: number,
    trace: Parameters<typeof withEngineTrace>[2],
    handlers: (outputs: FrameHandlers['outputs']) => FrameHandlers,
  ): Promise<PortFrames[]> {
    const outputs = cycles.map((count) => PortFrames.empty(ports.outputs, count));
    let stream = 0;
    let filled = 0;
    await withEngineTrace(this.name, design, trace, (raw) =>
      runHarness(
        this.launch(build, raw),
        outputWordsOf(ports),
        commands,
        timeout,
        handlers((bytes, offset, fourState) => {
          while (stream < cycles.length && filled === cycles[stream]) {
            stream++;
            filled = 0;
          }
          if (stream === cycles.length) throw new ToolError(this.name, 'harness wrote more cycles than it was given');
          storeOutputs(this.name, outputs[stream]!, filled++, bytes, offset, fourState);
        }),
      ),
    );
    const produced = cycles.map((count, index) => (index < stream ? count : index === stream ? filled : 0));
    if (produced.some((count, index) => count !== cycles[index])) throw stoppedEarly(this.name, cycles, produced);
    return outputs;
  }
}

/** What a digest sink's streams are compared with in the harness: any digest, since only the digest it folds is kept. */
const ANY_DIGEST = { digest: '00000000' } as const;

/** The commands and frames files of a batch run through files (hw/contract/harnessProtocol.ts, Transport). */
export interface BatchFiles {
  readonly commands: string;
  readonly frames: string;
}

function stoppedEarly(tool: string, cycles: readonly number[], produced: readonly number[]): ToolError {
  return new ToolError(tool, `harness stopped early: expected ${cycles.join('+')} cycles, got ${produced.join('+')}`);
}

/** Buffers one writev takes (Linux's IOV_MAX). */
const WRITEV_PARTS = 1024;

/** Writes the pieces of a command list into one file, many pieces a call (a stream is 2–4 of them). */
function writeParts(file: string, parts: readonly Buffer[]): void {
  const descriptor = openSync(file, 'w');
  try {
    for (let first = 0; first < parts.length; first += WRITEV_PARTS) {
      const pending = parts.slice(first, first + WRITEV_PARTS).filter((part) => part.length > 0);
      while (pending.length > 0) {
        let wrote = writevSync(descriptor, pending);
        // A short write (a full disk says so by throwing): the rest again, from where it stopped.
        while (pending.length > 0 && wrote >= pending[0]!.length) wrote -= pending.shift()!.length;
        if (wrote > 0) pending[0] = pending[0]!.subarray(wrote);
      }
    }
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Reads the verdicts of a compare from its frames file (hw/contract/harnessProtocol.ts, STEP_COMPARE): one per
 * stream, its listed mismatches with the values the expected frames and mask give; against a digest
 * the verdict is the digests' equality. A file of another shape is a ToolError.
 */
function readVerdicts(
  tool: string,
  file: string,
  ports: HarnessPorts,
  streams: readonly { readonly inputs: PortFrames; readonly expected: ExpectedOutputs }[],
  limit: number,
): OutputVerdict[] {
  const bytes = readFileSync(file);
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.length / 4));
  const widths = ports.outputs.map((port) => wordsOf(port.width));
  const malformed = (): ToolError => new ToolError(tool, 'harness wrote a malformed verdict');
  let at = 0;
  const verdicts = streams.map(({ inputs, expected }) => {
    if (at + 4 > words.length) throw stoppedEarly(tool, [inputs.cycles], [0]);
    const mismatchCount = words[at]! + words[at + 1]! * 2 ** 32;
    const digest = digestHex(words[at + 2]!);
    const listed = words[at + 3]!;
    at += 4;
    if (listed > limit || listed > mismatchCount) throw malformed();
    const mismatches: OutputMismatch[] = [];
    for (let index = 0; index < listed; index++) {
      const cycle = words[at]!;
      const port = ports.outputs[words[at + 1]!];
      if (!port || cycle >= inputs.cycles || !('frames' in expected)) throw malformed();
      const count = widths[words[at + 1]!]!;
      if (at + 2 + count > words.length) throw malformed();
      let value = 0n;
      for (let word = count - 1; word >= 0; word--) value = (value << 32n) | BigInt(words[at + 2 + word]!);
      mismatches.push(mismatchAt(value, expected, cycle, port.name));
      at += 2 + count;
    }
    const equal = 'digest' in expected ? digest === expected.digest : mismatchCount === 0;
    return { equal, cycles: inputs.cycles, digest, mismatchCount, mismatches };
  });
  if (at !== words.length || bytes.length % 4 !== 0) throw malformed();
  return verdicts;
}

/**
 * Reads a batch's frames file back as each stream's output frames (one read into one array, each
 * stream a view of it); a file of any other length than the streams' frames is a ToolError.
 */
function readFrames(tool: string, file: string, ports: HarnessPorts, cycles: readonly number[]): PortFrames[] {
  const stride = outputWordsOf(ports);
  const total = cycles.reduce((sum, count) => sum + count, 0);
  // Every byte is read from the file (or the run fails), so the array needs no zeroing first.
  const bytes = Buffer.allocUnsafeSlow(total * stride * 4);
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, total * stride);
  const descriptor = openSync(file, 'r');
  let read = 0;
  try {
    for (let got = -1; got !== 0 && read < bytes.length; read += got)
      got = readSync(descriptor, bytes, read, bytes.length - read, null);
    if (read === bytes.length && readSync(descriptor, Buffer.alloc(1), 0, 1, null) !== 0)
      throw new ToolError(tool, 'harness wrote more cycles than it was given');
  } finally {
    closeSync(descriptor);
  }
  let produced = Math.floor(read / (4 * Math.max(1, stride)));
  if (read < bytes.length)
    throw stoppedEarly(
      tool,
      cycles,
      cycles.map((count) => {
        const took = Math.min(count, produced);
        produced -= took;
        return took;
      }),
    );
  let at = 0;
  return cycles.map((count) => PortFrames.of(ports.outputs, words.subarray(at, (at += count * stride)), count));
}

/** Words of one 2-state outputs frame. */
export function outputWordsOf(ports: HarnessPorts): number {
  return frameStride(ports.outputs);
}

/** A session on a running harness (ExternalEngine.open). */
class ExternalSession implements EngineSession {
  private readonly commands: HarnessCommands;
  private readonly harness: HarnessProcess;
  private readonly waiters: {
    readonly kind: 'outputs' | 'ack' | 'frames';
    readonly resolve: (value: PortValues | number | PortFrames) => void;
    readonly reject: (error: unknown) => void;
  }[] = [];
  /** The outputs frames of a runFrames being filled as the harness answers, frame by frame. */
  private filling: { readonly frames: PortFrames; filled: number } | undefined;
  private readonly checkLog: CheckLogReader | undefined;
  private readonly printLog: PrintLogReader | undefined;
  private readonly inputs: Map<string, { index: number; width: number; value: bigint }>;
  private readonly outputNames: ReadonlySet<string>;
  private stepped = 0;
  private schedule: { next(): ClockStep } | undefined;
  private upcoming: ClockStep | undefined;
  private sampled: PortValues | undefined;
  private failure: Error | undefined;
  private finished: Promise<void> | undefined;
  private closing: Promise<{ checks?: CheckResults }> | undefined;
  /** Settles when the harness process has ended (rejects when it crashed). */
  readonly ended: Promise<void>;

  constructor(
    readonly engine: EngineName,
    private readonly design: IrDesign,
    private readonly ports: HarnessPorts,
    launch: HarnessLaunch,
    private readonly options: {
      readonly mode: CheckMode;
      readonly clocks: ClockTimings | undefined;
      readonly timeout: (cycles: number) => number;
    },
  ) {
    this.commands = new HarnessCommands(ports);
    this.checkLog = hasChecks(design) ? new CheckLogReader(design, engine) : undefined;
    this.printLog = hasPrints(design) ? new PrintLogReader(design, engine) : undefined;
    this.inputs = new Map(ports.inputs.map((port, index) => [port.name, { index, width: port.width, value: 0n }]));
    this.outputNames = new Set(ports.outputs.map((port) => port.name));
    this.harness = new HarnessProcess(
      launch,
      outputWordsOf(ports),
      {
        outputs: (bytes, offset, fourState) => {
          const filling = this.filling;
          if (filling) {
            storeOutputs(engine, filling.frames, filling.filled++, bytes, offset, fourState);
            if (filling.filled === filling.frames.cycles) {
              this.filling = undefined;
              this.next('frames').resolve(filling.frames);
            }
            return;
          }
          const waiter = this.next('outputs');
          try {
            waiter.resolve(decodeOutputs(engine, ports.outputs, bytes, offset, fourState));
          } catch (error) {
            waiter.reject(error);
          }
        },
        ack: (cycle) => this.next('ack').resolve(cycle),
        line: (text) => {
          this.checkLog?.line(text);
          this.printLog?.line(text);
        },
      },
      (error) =>
        this.fail(
          new ToolError(error.tool, `${error.message.slice(error.tool.length + 2)} (session in cycle ${this.stepped})`),
        ),
    );
    this.ended = this.harness.ended.catch((error: unknown) => {
      // A crash was reported to the waiters; a session that is being closed reports it from close.
      throw this.failure ?? error;
    });
    this.ended.catch(() => {});
    this.commands.stream();
    // An idle session keeps nothing alive: a script that forgets close() still ends (and its process with it).
    this.harness.unwatch();
  }

  /** The trace's completion (withEngineTrace around the whole session). */
  attach(finished: Promise<void>): void {
    this.finished = finished;
    finished.catch(() => {});
  }

  get cycle(): number {
    return this.stepped;
  }

  get printed(): readonly PrintedLine[] {
    return this.printLog?.printed ?? [];
  }

  /** The process group of the harness (tests check it ends). */
  get pid(): number {
    return this.harness.pid;
  }

  private next(kind: 'outputs' | 'ack' | 'frames'): (typeof this.waiters)[number] {
    const waiter = this.waiters.shift();
    if (!waiter || waiter.kind !== kind)
      throw new ToolError(this.engine, `harness answered with an unexpected ${kind} frame`);
    if (this.waiters.length === 0) this.harness.unwatch();
    return waiter;
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiter of this.waiters.splice(0)) waiter.reject(this.failure);
    this.harness.kill();
  }

  private live(): void {
    if (this.failure) throw this.failure;
    if (this.closing) throw new UserError(`the ${this.engine} session of ${this.ports.top} is closed`);
  }

  /** Sends the commands so far and waits for one answer, watched for `cycles` cycles of work. */
  private ask<T extends PortValues | number | PortFrames>(
    kind: 'outputs' | 'ack' | 'frames',
    cycles: number,
  ): Promise<T> {
    return this.askAll([kind], cycles)[0] as Promise<T>;
  }

  /**
   * Sends the commands so far and waits for their answers, in order, under one watchdog. Every
   * answer is marked handled: when an earlier one rejects, the caller never awaits the later ones.
   */
  private askAll(kinds: readonly ('outputs' | 'ack' | 'frames')[], cycles: number): Promise<unknown>[] {
    const answers = kinds.map((kind) => {
      const answer = new Promise<unknown>((resolve, reject) => this.waiters.push({ kind, resolve, reject }));
      answer.catch(() => {});
      return answer;
    });
    this.harness.watch(this.options.timeout(cycles));
    void this.harness.write(this.commands.take());
    return answers;
  }

  poke(name: string, value: bigint | number): void {
    this.live();
    const input = this.inputs.get(name);
    if (!input)
      throw new UserError(
        `${this.ports.top} has no input '${name}' (inputs: ${[...this.inputs.keys()].join(', ') || 'none'})`,
      );
    const big = typeof value === 'bigint' ? value : Number.isInteger(value) ? BigInt(value) : -1n;
    if (big < 0n || big >> BigInt(input.width) !== 0n)
      throw new UserError(`value ${value} does not fit the ${input.width}-bit input '${name}'`);
    if (big === input.value) return;
    input.value = big;
    this.sampled = undefined;
    this.commands.poke(input.index, big);
  }

  async peek(name: string): Promise<bigint> {
    if (!this.outputNames.has(name))
      throw new UserError(
        `${this.ports.top} has no output '${name}' (outputs: ${[...this.outputNames].join(', ') || 'none'})`,
      );
    return (await this.peekAll())[name]!;
  }

  async peekAll(): Promise<PortValues> {
    this.live();
    if (this.sampled) return { ...this.sampled };
    this.commands.peek();
    this.sampled = await this.ask<PortValues>('outputs', 1);
    return { ...this.sampled };
  }

  async step(cycles = 1): Promise<void> {
    this.live();
    if (!Number.isSafeInteger(cycles) || cycles < 0 || cycles > 0xffffffff)
      throw new UserError(`step: ${cycles} is not a count of cycles`);
    if (cycles === 0) return;
    this.sampled = undefined;
    if (this.ports.clocks) {
      // Several clocks: one step command per step of the clock schedule, acknowledged after the last.
      for (let index = 0; index < cycles; index++) this.clockStep(index === cycles - 1 ? STEP_ACK : 0);
    } else this.commands.step(cycles, STEP_ACK | (this.waitsInHarness ? STEP_PEEK : 0));
    // With STEP_PEEK the new cycle's outputs come with the ack: a peek after the step is answered here.
    const [ack, outputs] = this.askAll(this.waitsInHarness ? ['ack', 'outputs'] : ['ack'], cycles);
    this.stepped = (await ack) as number;
    // Outputs that cannot be read (X or Z on Icarus) fail the peek that asks for them, not the step.
    if (outputs) this.sampled = (await outputs.catch(() => undefined)) as PortValues | undefined;
    await this.stopAtFailure();
  }

  /**
   * The harness samples after a step and waits on output values by itself (STEP_PEEK, OP_WAIT):
   * one clock (several step through the clock schedule from here) and no checks, whose lines an
   * extra sample could add to and a stop-mode wait must stop at.
   */
  private get waitsInHarness(): boolean {
    return !this.ports.clocks && !this.ports.checked;
  }

  async waitFor(values: Readonly<Record<string, bigint | number>>, limit: number): Promise<number | undefined> {
    this.live();
    const condition = outputCondition(this.ports, values);
    const cycles = waitLimit(limit);
    if (!this.waitsInHarness) return waitByStepping(this, condition, cycles);
    if (this.sampled && conditionHolds(condition, this.sampled)) return 0;
    this.sampled = undefined;
    this.commands.wait(cycles, condition.value.words, condition.mask.words);
    const [outputs, ack] = this.askAll(['outputs', 'ack'], cycles);
    // The ack comes after the outputs: once it is here, the cycles stepped are known even when the
    // outputs could not be read (X or Z on Icarus).
    const stepped = (await ack) as number;
    const waited = stepped - this.stepped;
    this.stepped = stepped;
    const sampled = (await outputs) as PortValues;
    this.sampled = sampled;
    return conditionHolds(condition, sampled) ? waited : undefined;
  }

  async runFrames(inputs: PortFrames): Promise<PortFrames> {
    this.live();
    const frames = stimulusFrames(this.ports, inputs);
    if (frames.cycles === 0) return PortFrames.empty(this.ports.outputs, 0);
    this.sampled = undefined;
    // The inputs as the harness holds them, as words: a run pokes only the ones that change.
    const held = PortFrames.empty(this.ports.inputs, 1);
    for (const [name, input] of this.inputs) held.set(0, name, input.value);
    frameCommands(
      this.commands,
      this.ports,
      frames,
      held.words,
      this.ports.clocks ? () => this.clockStep(STEP_SAMPLE) : undefined,
    );
    for (const [name, input] of this.inputs) input.value = held.value(0, name);
    this.filling = { frames: PortFrames.empty(this.ports.outputs, frames.cycles), filled: 0 };
    const outputs = await this.ask<PortFrames>('frames', frames.cycles);
    this.stepped += frames.cycles;
    await this.stopAtFailure();
    return outputs;
  }

  /** One step of the clock schedule of a design with several clocks (engine.ts). */
  private clockStep(flags: number): void {
    this.schedule ??= clockSteps(this.ports.clocks!, this.options.clocks);
    this.upcoming ??= this.schedule.next();
    const step = this.upcoming;
    this.upcoming = this.schedule.next();
    this.commands.clockStep(step, this.upcoming.sample, flags);
  }

  /** In stop mode, the first failing check ends the session, as in a batch run (the waveform up to here kept). */
  private async stopAtFailure(): Promise<void> {
    const failure = this.options.mode === 'stop' ? this.checkLog?.failures[0] : undefined;
    if (failure) {
      await this.close();
      throw new CheckFailedError(failure, this.engine);
    }
  }

  async abort(): Promise<void> {
    if (this.closing) return;
    // The harness killed, the trace run fails: withEngineTrace removes its raw file and temporary.
    this.fail(new ToolError(this.engine, 'the session was aborted'));
    this.closing = Promise.resolve({});
    await (this.finished ?? this.ended).catch(() => {});
  }

  close(): Promise<{ checks?: CheckResults }> {
    this.closing ??= (async () => {
      if (!this.failure) {
        this.commands.end();
        await this.harness.write(this.commands.take());
        this.harness.closeInput();
        this.harness.watch(this.options.timeout(0));
      }
      try {
        await (this.finished ?? this.ended);
      } finally {
        this.harness.unwatch();
        this.harness.kill();
      }
      if (this.failure) throw this.failure;
      return this.checkLog ? { checks: this.checkLog.results(1)[0]! } : {};
    })();
    return this.closing;
  }
}

/** Fixed allowance of every run (process start, loading the model), ms. */
const RUN_BASE_MS = 30_000;
/** Per cycle whatever the design (reading the stimulus, writing results), ms. */
const RUN_CYCLE_MS = 1;

/**
 * Set to a whole number of ms, replaces every bound runTimeout derives (a batch run's, each wait
 * of a session's) by that fixed bound; unset or empty, the derived bounds hold. The tests of the
 * watchdog itself use it to run a session into its watchdog in seconds instead of RUN_BASE_MS.
 */
export const WATCHDOG_ENV = 'GEN_WATCHDOG_MS';

/** The watchdog of one run: derived from its work (cycles × design size), never a fixed quarter hour. */
export function runTimeout(cycles: number, cells: number, cellCycleMicros: number, traced: boolean): number {
  const fixed = process.env[WATCHDOG_ENV];
  if (fixed !== undefined && fixed !== '') {
    const ms = Number(fixed);
    if (!/^\d+$/.test(fixed) || !Number.isSafeInteger(ms) || ms <= 0)
      throw new UserError(`${WATCHDOG_ENV} must be a whole number of milliseconds above 0, got ${quoteValue(fixed)}`);
    return ms;
  }
  const perCycle = RUN_CYCLE_MS + (cells * cellCycleMicros) / 1000;
  return Math.ceil(RUN_BASE_MS + (traced ? 4 : 1) * cycles * perCycle);
}

/** Cells, registers and memories of the flattened design (each instance counted). */
export function flatCells(design: IrDesign): number {
  const sizes = new Map<string, number>();
  const size = (name: string): number => {
    const known = sizes.get(name);
    if (known !== undefined) return known;
    const module = moduleByName(design, name);
    const total =
      module.cells.length +
      module.registers.length +
      module.memories.length +
      module.instances.reduce((sum, instance) => sum + size(instance.module), 0);
    sizes.set(name, total);
    return total;
  };
  return size(design.top);
}
