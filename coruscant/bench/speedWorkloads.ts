/**
 * What the engine-throughput benchmark (coruscant/bench/mmaSpeed.ts) runs: a seeded amount of work on one
 * design, the same for every engine, with a warm-up (elaboration and build, untimed) and a
 * check of every result against a golden model. Built from the project's own pieces: the MMA
 * runner, the regression suites' cases and golden vectors, and the fuzzer's batched designs.
 */
import fc from 'fast-check';
import type { IrDesign } from '../../hw/ir/ir.ts';
import type {
  BatchOptions,
  BatchResult,
  BatchSink,
  CycleRun,
  Engine,
  EngineSession,
  PortValues,
  SessionOptions,
  Stimulus,
} from '../../hw/contract/engine.ts';
import { BatchEngine } from '../../engines/batchEngine.ts';
import { emptyInputFrames, inputFrames } from '../../engines/designFrames.ts';
import { harnessPortsOf } from '../../engines/harness/harnessStimulus.ts';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { BenchPipeline } from '../../hw/examples/benchPipeline.ts';
import { mmaLatency } from '../designs/tensor/mmaUnit.ts';
import { scheduleMmas } from '../mma/mmaSchedule.ts';
import { mmaBenchDesign } from '../mma/runMmas.ts';
import { OutputChecksum } from '../../bench/nativeHarness.ts';
import { batchDesign, fuzzCaseArbitrary } from '../../verif/fuzz/differential.ts';
import { runReference } from '../../verif/fuzz/referenceSimulator.ts';
import { coruscantMma } from '../golden/models/mma.ts';
import type { Fp32Matrix } from '../golden/matrix.ts';
import { runMmasOnRtl } from '../mma/runMmas.ts';
import { firstMismatch } from '../../verif/regress/compare.ts';
import { decoderSuites } from '../suites/decoder.ts';
import type { CaseVectors } from '../../verif/regress/suite.ts';
import { randomCoruscantMmas } from './mmaStream.ts';

/** A finished timed run: cycles simulated, and the count of results that differ from golden. */
export interface WorkloadRun {
  readonly cycles: number;
  readonly mismatches: () => number;
  /** False when there is no golden model (only the checksum against the ts engine checks the run). */
  readonly golden?: boolean;
}

/** `count` units of work drawn from `seed`, ready to run on any engine. */
export interface PreparedWorkload {
  /** Untimed: elaborates and builds (the external engines cache their builds on disk). */
  warmUp(engine: Engine): Promise<void>;
  /** Timed: all the work, harness included. */
  run(engine: Engine): Promise<WorkloadRun>;
  /**
   * The same work as one design and its input streams, in the order `run` drives them (each a
   * fresh model): what verilator-native preloads, and what the output checksum covers.
   */
  streams(): { design: IrDesign; streams: readonly Stimulus[] };
}

/**
 * An engine that folds every run's output frames into the native harness's checksum (in call
 * order), timed with the engine: verilator-native folds inside its loop too.
 */
export class ChecksumEngine extends BatchEngine {
  readonly name: Engine['name'];
  private checksum: OutputChecksum | undefined;
  /** Seconds inside the engine's run and runMany calls (its harness, pipes, model), and folding their outputs. */
  engineSeconds = 0;
  /**
   * This process's CPU seconds (all its threads: V8's compiler and collector included) in those
   * calls: the per-core cost of an in-process engine. An external engine's harness process is not
   * in it.
   */
  engineCpuSeconds = 0;

  constructor(private readonly inner: Engine) {
    super();
    this.name = inner.name;
  }

  get value(): string {
    return this.checksum?.value ?? 'none';
  }

  private fold(design: IrDesign, runs: readonly CycleRun[]): void {
    this.checksum ??= new OutputChecksum(harnessPortsOf(design));
    for (const run of runs) this.checksum.add(run);
  }

  /** `call`'s result, its wall and CPU time added to the engine's. */
  private async timed<T>(call: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const result = await call();
    const spent = process.cpuUsage(cpu);
    this.engineSeconds += (performance.now() - started) / 1000;
    this.engineCpuSeconds += (spent.user + spent.system) / 1e6;
    return result;
  }

  /** Every batch timed; a collected batch's outputs folded (a verdict or a digest carries no frames to fold). */
  batch<Sink extends BatchSink>(
    design: IrDesign,
    streams: readonly Stimulus[],
    sink: Sink,
    options?: BatchOptions,
  ): Promise<BatchResult<Sink>> {
    return this.timed(async () => {
      const result = await this.inner.batch(design, streams, sink, options);
      if (sink.kind === 'collect') this.fold(design, result as CycleRun[]);
      return result;
    });
  }

  /** Sessions are not folded (the workloads run batches). */
  open(design: IrDesign, options?: SessionOptions): Promise<EngineSession> {
    return this.inner.open(design, options);
  }
}

/** One engine call of a workload: the design, its streams' inputs, and the output frames they gave. */
export interface RecordedCall {
  readonly design: IrDesign;
  readonly inputs: readonly Stimulus[];
  readonly outputs: readonly CycleRun['frames'][];
}

/**
 * An engine that records every run and runMany call (design, inputs, output frames) in order:
 * the reference run whose outputs become the expected ones of the same calls replayed through
 * Engine.compare (coruscant/bench/mmaSpeed.ts, the `verilator` row).
 */
export class RecordingEngine extends BatchEngine {
  readonly name: Engine['name'];
  readonly calls: RecordedCall[] = [];

  constructor(private readonly inner: Engine) {
    super();
    this.name = inner.name;
  }

  /** Every collected batch recorded (run and runMany are collected batches). */
  async batch<Sink extends BatchSink>(
    design: IrDesign,
    streams: readonly Stimulus[],
    sink: Sink,
    options?: BatchOptions,
  ): Promise<BatchResult<Sink>> {
    const result = await this.inner.batch(design, streams, sink, options);
    if (sink.kind === 'collect')
      this.calls.push({ design, inputs: streams, outputs: (result as CycleRun[]).map((run) => run.frames) });
    return result;
  }

  open(design: IrDesign, options?: SessionOptions): Promise<EngineSession> {
    return this.inner.open(design, options);
  }
}

export interface Workload {
  /** What the table calls one unit of work. */
  readonly unit: string;
  readonly description: string;
  prepare(count: number, seed: number): PreparedWorkload;
}

/** A of the MMA stream: exactly this share of zeros. */
export const MMA_SPARSITY = 0.5;

/**
 * Coruscant MMAs through the MmaBench, in batches of `batch` per engine run (one stimulus per
 * batch, as a regression would run them).
 */
function mmaWorkload(batch: number): Workload {
  return {
    unit: 'MMAs',
    description: `MmaUnit (coruscant mode, through MmaBench), random MMAs at ${MMA_SPARSITY * 100} % sparsity, ${batch} per engine run`,
    prepare: (count, seed) => {
      const jobs = randomCoruscantMmas(count, seed, MMA_SPARSITY);
      return {
        warmUp: async (engine) => void (await runMmasOnRtl(engine, jobs.slice(0, 1))),
        run: async (engine) => {
          let cycles = 0;
          const results: Fp32Matrix[] = [];
          for (let first = 0; first < count; first += batch) {
            const run = await runMmasOnRtl(engine, jobs.slice(first, first + batch));
            cycles += run.cycles;
            for (const D of run.results) results.push(D!);
          }
          const mismatches = (): number =>
            jobs.reduce(
              (total, job, index) =>
                total +
                coruscantMma(job.A, job.B, job.C).bits.filter((bits, element) => results[index]!.bits[element] !== bits)
                  .length,
              0,
            );
          return { cycles, mismatches };
        },
        streams: () => {
          const streams: PortValues[][] = [];
          for (let first = 0; first < count; first += batch)
            streams.push(scheduleMmas(jobs.slice(first, first + batch), mmaLatency(0)).inputs);
          return { design: mmaBenchDesign(), streams };
        },
      };
    },
  };
}

/** Streams of each warm-up round of a streams workload. */
const WARM_UP_STREAMS = 16;

/**
 * Independent streams on one design in one engine run, each checked against its golden vectors.
 * The stimulus is held as typed frames (what a regression hands the engines' fast path), and the
 * golden outputs are made again for the check after the timed run, so the run's heap holds no
 * per-cycle objects for the collector to walk.
 */
function streamsWorkload(
  prepareStreams: (count: number, seed: number) => { design: IrDesign; vectors: () => readonly CaseVectors[] },
): Workload['prepare'] {
  return (count, seed) => {
    const { design, vectors } = prepareStreams(count, seed);
    const stimuli = vectors().map((vector) => inputFrames(design, vector.stimulus));
    return {
      // Several streams, as the timed run gives them (in lanes, the lanes model warms up too).
      warmUp: async (engine) => void (await engine.runMany(design, stimuli.slice(0, WARM_UP_STREAMS))),
      run: async (engine) => {
        const runs = await engine.runMany(design, stimuli);
        return {
          cycles: stimuli.reduce((total, frames) => total + frames.cycles, 0),
          mismatches: () => {
            const golden = vectors();
            return runs.filter((run, index) => firstMismatch(run.outputs, golden[index]!.expected) !== undefined)
              .length;
          },
        };
      },
      streams: () => ({ design, streams: stimuli }),
    };
  };
}

const bitmapDecoderSuite = decoderSuites.find((suite) => suite.name === 'BitmapDecoder')!;

/** Random fuzz designs put under one top: one build, every member driven every cycle. */
const FUZZ_DESIGNS = 40;

/** BenchPipeline's one stream as frames: reset in cycle 0, enabled throughout. */
function pipelineStimulus(design: IrDesign, cycles: number): ReturnType<typeof emptyInputFrames> {
  const frames = emptyInputFrames(design, cycles);
  frames.set(0, 'reset', 1);
  for (let cycle = 0; cycle < cycles; cycle++) frames.set(cycle, 'enable', 1);
  return frames;
}

/** The workloads by name. */
export function workloads(mmaBatch: number): Readonly<Record<string, Workload>> {
  return {
    mma: mmaWorkload(mmaBatch),
    decoder: {
      unit: 'streams',
      description:
        'BitmapDecoder (32 threads, K = 64), random MMA streams of the BitmapDecoder regression suite vs its golden timeline',
      prepare: streamsWorkload((count, seed) => {
        const cases = fc.sample(bitmapDecoderSuite.arbitrary, { seed, numRuns: count });
        return {
          design: bitmapDecoderSuite.design(cases[0]),
          vectors: () => cases.map((testCase) => bitmapDecoderSuite.vectors(testCase)),
        };
      }),
    },
    pipeline: {
      unit: 'kcycles',
      description:
        'BenchPipeline (hw/examples: LFSR → 64-bit popcount → pipelined MAC), one stream of 1,000 cycles per unit',
      prepare: (count) => {
        const design = elaborate(BenchPipeline);
        const stimulus = pipelineStimulus(design, count * 1000);
        return {
          warmUp: async (engine) => void (await engine.run(design, pipelineStimulus(design, 10_000))),
          run: async (engine) => {
            const run = await engine.run(design, stimulus);
            // No golden model: the outputs are checked against the ts engine's by the output checksum.
            return { cycles: run.frames.cycles, mismatches: () => 0, golden: false };
          },
          streams: () => ({ design, streams: [stimulus] }),
        };
      },
    },
    fuzz: {
      unit: 'streams',
      description: `${FUZZ_DESIGNS} random fuzz designs (verif/fuzz) under one top, the batch's stimulus from reset again and again vs the reference netlist interpreter`,
      prepare: streamsWorkload((count, seed) => {
        const { design, stimulus } = batchDesign(
          fc.sample(fuzzCaseArbitrary, { seed, numRuns: FUZZ_DESIGNS }),
          'FuzzBatch',
        );
        const vector: CaseVectors = { stimulus, expected: runReference(design, stimulus) };
        return { design, vectors: () => Array.from({ length: count }, () => vector) };
      }),
    },
  };
}
