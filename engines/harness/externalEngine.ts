import { ToolError } from '../../common/errors.ts';
import { type IrDesign } from '../../hw/ir/ir.ts';
import { emitVerilog } from '../../hw/verilog/emit.ts';
import type {
  BatchOptions,
  BatchResult,
  BatchSink,
  CycleRun,
  EngineSession,
  OutputVerdict,
  SessionOptions,
  Stimulus,
} from '../../hw/contract/engine.ts';
import { BatchEngine } from '../batchEngine.ts';
import { comparedStreams, foldCollected, mismatchLimit } from '../outputCompare.ts';
import { PortFrames, stimulusFrames } from '../../hw/contract/portFrames.ts';
import { framedRun } from '../framedRun.ts';
import { CheckFailedError, hasChecks, type CheckMode } from '../../hw/contract/checks.ts';
import { parseCheckLog } from './checkLog.ts';
import { hasPrints } from '../../hw/ir/prints.ts';
import { parsePrintLog } from './printLog.ts';
import { withInitialState } from '../../hw/ir/randomInit.ts';
import {
  compareCommands,
  harnessPortsOf,
  storeOutputs,
  streamCommands,
  type FrameHandlers,
  type HarnessPorts,
} from './harnessStimulus.ts';
import { runHarness, runServed, type HarnessLaunch } from './harnessProcess.ts';
import { withEngineTrace } from './engineTrace.ts';
import { join } from 'node:path';
import { withWorkspace } from '../../tools/runTool.ts';
import { clockSchedule, type ClockTimings } from '../../hw/contract/clockSchedule.ts';

import { outputWordsOf, readFrames, readVerdicts, stoppedEarly, writeParts, type BatchFiles } from './batchFiles.ts';
import { ExternalSession } from './externalSession.ts';
import { flatCells, runTimeout } from './runBounds.ts';
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
