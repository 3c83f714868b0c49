import type { IrDesign } from '../../hw/ir/ir.ts';
import { outputCondition, waitByStepping, waitLimit } from '../outputCondition.ts';
import { Simulator, compileDesign, type CompiledDesign, type FrameTransfer } from '../../hw/sim/simulator.ts';
import type {
  BatchOptions,
  BatchResult,
  BatchSink,
  CycleRun,
  EngineSession,
  OutputVerdict,
  PortValues,
  RunOptions,
  SessionOptions,
  Stimulus,
} from '../../hw/contract/engine.ts';
import { BatchEngine } from '../batchEngine.ts';
import { comparedStreams, compareOutputs, foldCollected, mismatchLimit, outputDigest } from '../outputCompare.ts';
import { PortFrames, stimulusFrames } from '../../hw/contract/portFrames.ts';
import { framedRun } from '../framedRun.ts';
import { runManyInLanes } from './tsLanes.ts';
import { laneable } from '../../hw/sim/laneSimulator.ts';
import { harnessPortsOf, type HarnessPorts } from '../harness/harnessStimulus.ts';
import { frameTransfer } from '../../hw/sim/frameTransfer.ts';
import { traceToVcd } from '../../hw/sim/vcdTrace.ts';
import { clockSchedule, clockSteps, type ClockStep, type ClockTimings } from '../../hw/contract/clockSchedule.ts';
import { FieldError, UserError } from '../../common/errors.ts';
import { CheckFailedError, type CheckMode, type CheckResults } from '../../hw/contract/checks.ts';
import type { PrintedLine } from '../../hw/ir/prints.ts';
import { withInitialState } from '../../hw/ir/randomInit.ts';

/** Cycles simulated between chances for a VCD stream to drain. */
const DRAIN_EVERY_CYCLES = 4096;

/**
 * How the ts engine runs many streams: `lanes`, streams per model (default 1: one after another).
 * Lanes are asked for, not chosen: measured per CPU-second they run no faster than one stream at
 * a time and cost more to compile (docs/performance.md, "What lanes measured").
 */
export interface TsEngineOptions {
  readonly lanes?: number;
}

/** The in-process compiled simulator behind the engine contract. */
export class TsEngine extends BatchEngine {
  readonly name = 'ts' as const;

  constructor(private readonly options: TsEngineOptions = {}) {
    super();
  }

  /**
   * Untraced compare and digest run stream after stream, each compared or digested as soon as it
   * ends, in one output buffer reused by every stream (no output frames kept or zero-filled per
   * stream); the rest is collected (lanes when asked for, see tsLanes.ts).
   */
  async batch<Sink extends BatchSink>(
    design: IrDesign,
    streams: readonly Stimulus[],
    sink: Sink,
    options: BatchOptions = {},
  ): Promise<BatchResult<Sink>> {
    refuseInternal(options);
    design = withInitialState(design, options.init);
    const compiledDesign = compileDesign(design);
    if (sink.kind === 'collect' || options.vcd !== undefined || this.inLanes(compiledDesign, streams))
      return foldCollected(harnessPortsOf(design), streams, sink, async (each) =>
        this.collect(design, compiledDesign, each, options),
      );
    return this.fold(design, compiledDesign, streams, sink, options) as BatchResult<Sink>;
  }

  /** Lanes when asked for, of a one-clock design and several streams (the same results, see tsLanes.ts). */
  private inLanes(compiledDesign: CompiledDesign, streams: readonly Stimulus[]): boolean {
    return streams.length > 1 && (this.options.lanes ?? 1) > 1 && laneable(compiledDesign);
  }

  /** Every stream's output frames; with a VCD, the first stream's traced. */
  private async collect(
    design: IrDesign,
    compiledDesign: CompiledDesign,
    streams: readonly Stimulus[],
    options: BatchOptions,
  ): Promise<CycleRun[]> {
    if (options.vcd !== undefined && streams.length > 0)
      return [
        await traced(compiledDesign, design, streams[0]!, options.vcd, options),
        ...(await this.collect(design, compiledDesign, streams.slice(1), { ...options, vcd: undefined })),
      ];
    if (this.inLanes(compiledDesign, streams))
      return runManyInLanes(design, compiledDesign, streams, { ...options, lanes: this.options.lanes! });
    const transfer = runTransfer(compiledDesign, design);
    return streams.map((inputs) => {
      const stimulus = stimulusFrames(transfer.ports, inputs);
      const outputs = PortFrames.empty(transfer.ports.outputs, stimulus.cycles);
      const { checks, prints } = runStream(transfer, stimulus, outputs.words, options);
      return framedRun(outputs, checks, prints);
    });
  }

  /** A compare or digest sink, each stream folded as it ends. */
  private fold(
    design: IrDesign,
    compiledDesign: CompiledDesign,
    streams: readonly Stimulus[],
    sink: Exclude<BatchSink, { readonly kind: 'collect' }>,
    options: BatchOptions,
  ): OutputVerdict[] | string[] {
    const transfer = runTransfer(compiledDesign, design);
    const compared = sink.kind === 'compare' ? comparedStreams(transfer.ports, streams, sink) : undefined;
    const limit = sink.kind === 'compare' ? mismatchLimit(sink) : 0;
    let buffer = new Uint32Array(0);
    const folded = streams.map((stimulus, index) => {
      const inputs = compared ? compared[index]!.inputs : stimulusFrames(transfer.ports, stimulus);
      const size = inputs.cycles * transfer.outputStride;
      // Every output word of every frame is written by the run: the buffer needs no clearing.
      if (buffer.length < size) buffer = new Uint32Array(size);
      const outputs = PortFrames.of(transfer.ports.outputs, buffer.subarray(0, size), inputs.cycles);
      const { checks } = runStream(transfer, inputs, outputs.words, options);
      return compared ? compareOutputs(outputs, compared[index]!.expected, limit, checks) : outputDigest(outputs);
    });
    return folded as OutputVerdict[] | string[];
  }

  async open(design: IrDesign, options: SessionOptions = {}): Promise<EngineSession> {
    refuseInternal(options);
    design = withInitialState(design, options.init);
    const simulator = new Simulator(compileDesign(design));
    simulator.checkMode = options.checks ?? 'stop';
    const clocks = simulator.design.flat.clocks;
    return new TsSession(
      simulator,
      harnessPortsOf(design),
      options.vcd ? traceToVcd(simulator, options.vcd, options.clocks) : undefined,
      clocks.length > 1 ? clockSteps(clocks, options.clocks) : undefined,
    );
  }
}

/** One stream traced into `vcd`, the trace drained as it goes; a failing check keeps it up to its cycle. */
async function traced(
  compiledDesign: CompiledDesign,
  design: IrDesign,
  inputs: Stimulus,
  vcd: string,
  options: BatchOptions,
): Promise<CycleRun> {
  const simulator = new Simulator(compiledDesign);
  simulator.checkMode = options.checks ?? 'stop';
  const stream = framesOf(simulator, design, inputs);
  const masks = stepMasks(simulator, options.clocks, stream.cycles);
  const tracer = traceToVcd(simulator, vcd, options.clocks);
  try {
    for (let first = 0; first < stream.cycles; first += DRAIN_EVERY_CYCLES) {
      simulator.runFrames(
        stream.transfer,
        stream.words,
        first,
        Math.min(DRAIN_EVERY_CYCLES, stream.cycles - first),
        masks,
      );
      await tracer.drainIfNeeded();
    }
    await tracer.close();
    return framedRun(stream.outputs, checksOf(simulator).checks, printsOf(simulator));
  } catch (error) {
    // A failing assertion keeps the trace up to its cycle: that is the waveform to look at.
    if (error instanceof CheckFailedError) await tracer.close().catch(() => tracer.abort());
    else tracer.abort();
    throw error;
  }
}

function refuseInternal(options: RunOptions): void {
  if (options.internal)
    throw new FieldError(
      'internal',
      'cannot be traced here: the ts engine keeps no values for internal nets; trace them on verilator or icarus',
    );
}

/** A session over the in-process Simulator: its poke, peek and step, the VCD written as it goes. */
class TsSession implements EngineSession {
  readonly engine = 'ts' as const;
  private closing: Promise<{ checks?: CheckResults }> | undefined;
  private readonly outputs: readonly string[];
  private transfer: FrameTransfer | undefined;

  constructor(
    private readonly simulator: Simulator,
    private readonly ports: HarnessPorts,
    private readonly tracer: ReturnType<typeof traceToVcd> | undefined,
    /** Several clocks: the schedule's steps, which clocks rise in each (engine.ts). */
    private readonly schedule: { next(): ClockStep } | undefined,
  ) {
    this.outputs = [...simulator.design.flat.outputs.keys()];
  }

  get cycle(): number {
    return this.simulator.cycle;
  }

  get printed(): readonly PrintedLine[] {
    return this.simulator.printed;
  }

  private live(): void {
    if (this.closing) throw new UserError(`the ts session of ${this.simulator.design.flat.top.name} is closed`);
  }

  poke(name: string, value: bigint | number): void {
    this.live();
    this.simulator.poke(name, value);
  }

  async peek(name: string): Promise<bigint> {
    this.live();
    if (!this.outputs.includes(name))
      throw new UserError(
        `${this.simulator.design.flat.top.name} has no output '${name}' (outputs: ${this.outputs.join(', ') || 'none'})`,
      );
    return this.simulator.peek(name);
  }

  async peekAll(): Promise<PortValues> {
    this.live();
    const values: PortValues = {};
    for (const name of this.outputs) values[name] = this.simulator.peek(name);
    return values;
  }

  async step(cycles = 1): Promise<void> {
    this.live();
    if (!Number.isSafeInteger(cycles) || cycles < 0) throw new UserError(`step: ${cycles} is not a count of cycles`);
    await this.running(cycles, (count) => {
      if (this.schedule) for (let index = 0; index < count; index++) this.simulator.stepMask(this.schedule.next().mask);
      else this.simulator.step(count);
    });
  }

  waitFor(values: Readonly<Record<string, bigint | number>>, limit: number): Promise<number | undefined> {
    this.live();
    return waitByStepping(this, outputCondition(this.ports, values), waitLimit(limit));
  }

  async runFrames(inputs: PortFrames): Promise<PortFrames> {
    this.live();
    const frames = stimulusFrames(this.ports, inputs);
    const outputs = PortFrames.empty(this.ports.outputs, frames.cycles);
    this.transfer ??= frameTransfer(this.simulator.design, this.ports.inputs, this.ports.outputs);
    const words = { inputs: frames.words, outputs: outputs.words };
    const masks = this.schedule ? Array.from({ length: frames.cycles }, () => this.schedule!.next().mask) : undefined;
    let first = 0;
    await this.running(frames.cycles, (count) => {
      this.simulator.runFrames(this.transfer!, words, first, count, masks);
      first += count;
    });
    return outputs;
  }

  /** Runs `cycles` cycles by `run(count)` in pieces, the trace drained between them. */
  private async running(cycles: number, run: (count: number) => void): Promise<void> {
    try {
      for (let done = 0; done < cycles; done += DRAIN_EVERY_CYCLES) {
        run(Math.min(DRAIN_EVERY_CYCLES, cycles - done));
        await this.tracer?.drainIfNeeded();
      }
    } catch (error) {
      // A failing assertion keeps the trace up to its cycle, as in a batch run.
      if (error instanceof CheckFailedError) await this.close();
      else {
        this.tracer?.abort();
        this.closing = Promise.resolve({});
      }
      throw error;
    }
  }

  async abort(): Promise<void> {
    if (this.closing) return;
    this.tracer?.abort();
    this.closing = Promise.resolve({});
  }

  close(): Promise<{ checks?: CheckResults }> {
    this.closing ??= (async () => {
      if (this.tracer)
        await this.tracer.close().catch((error: unknown) => {
          this.tracer!.abort();
          throw error;
        });
      return checksOf(this.simulator);
    })();
    return this.closing;
  }
}

/** The run's check results, when the design has checks. */
function checksOf(simulator: Simulator): { checks?: CheckResults } {
  return (simulator.design.flat.checks?.length ?? 0) > 0 ? { checks: simulator.checkResults } : {};
}

/** The run's printed lines, when the design has printfs. */
function printsOf(simulator: Simulator): readonly PrintedLine[] | undefined {
  return (simulator.design.flat.prints?.length ?? 0) > 0 ? [...simulator.printed] : undefined;
}

/** Which clocks rise in each step (engine.ts, several clocks); undefined: every step raises every clock. */
function stepMasks(simulator: Simulator, timings: ClockTimings | undefined, steps: number): number[] | undefined {
  const clocks = simulator.design.flat.clocks;
  const schedule = clockSchedule(clocks, timings, clocks.length > 1 ? steps : 0);
  return clocks.length > 1 ? schedule.steps.map((step) => step.mask) : undefined;
}

/** What every stream of a batch shares: the design, its harness ports and the frame transfer. */
interface BatchTransfer {
  readonly compiled: CompiledDesign;
  readonly ports: HarnessPorts;
  readonly transfer: FrameTransfer;
  readonly outputStride: number;
}

function runTransfer(compiled: CompiledDesign, design: IrDesign): BatchTransfer {
  const ports = harnessPortsOf(design);
  const transfer = frameTransfer(compiled, ports.inputs, ports.outputs);
  return { compiled, ports, transfer, outputStride: transfer.outputStride };
}

/** One stream of a batch from its initial state, its outputs into `outputs` (every word written); its check results and printed lines. */
function runStream(
  batch: BatchTransfer,
  inputs: PortFrames,
  outputs: Uint32Array,
  options: { readonly checks?: CheckMode; readonly clocks?: ClockTimings },
): { readonly checks?: CheckResults; readonly prints?: readonly PrintedLine[] } {
  const simulator = new Simulator(batch.compiled);
  simulator.checkMode = options.checks ?? 'stop';
  const masks = stepMasks(simulator, options.clocks, inputs.cycles);
  simulator.runFrames(batch.transfer, { inputs: inputs.words, outputs }, 0, inputs.cycles, masks);
  return { checks: checksOf(simulator).checks, prints: printsOf(simulator) };
}

/** A stream's input frames, the output frames it fills, and the simulator's transfer between them. */
function framesOf(simulator: Simulator, design: IrDesign, stimulus: Stimulus) {
  const ports = harnessPortsOf(design);
  const inputs = stimulusFrames(ports, stimulus);
  const outputs = PortFrames.empty(ports.outputs, inputs.cycles);
  return {
    cycles: inputs.cycles,
    outputs,
    words: { inputs: inputs.words, outputs: outputs.words },
    transfer: frameTransfer(simulator.design, ports.inputs, ports.outputs),
  };
}
