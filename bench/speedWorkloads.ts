/**
 * What the engine-throughput benchmark (bench/mmaSpeed.ts) runs: a seeded amount of work on one
 * design, the same for every engine, with a warm-up (elaboration and build, untimed) and a
 * check of every result against a golden model. Built from the project's own pieces: the MMA
 * runner, the regression suites' cases and golden vectors, and the fuzzer's batched designs.
 */
import fc from 'fast-check';
import type { IrDesign } from '../hw/ir/ir.ts';
import type { Engine } from '../engines/engine.ts';
import { batchDesign, fuzzCaseArbitrary } from '../verif/fuzz/differential.ts';
import { runReference } from '../verif/fuzz/referenceSimulator.ts';
import { coruscantMma } from '../golden/models/mma.ts';
import type { Fp32Matrix } from '../golden/matrix.ts';
import { runMmasOnRtl } from '../verif/mma/runMmas.ts';
import { firstMismatch } from '../verif/regress/compare.ts';
import { decoderSuites } from '../verif/suites/decoder.ts';
import type { CaseVectors } from '../verif/regress/suite.ts';
import { randomCoruscantMmas } from './mmaStream.ts';

/** A finished timed run: cycles simulated, and the count of results that differ from golden. */
export interface WorkloadRun {
  readonly cycles: number;
  readonly mismatches: () => number;
}

/** `count` units of work drawn from `seed`, ready to run on any engine. */
export interface PreparedWorkload {
  /** Untimed: elaborates and builds (the external engines cache their builds on disk). */
  warmUp(engine: Engine): Promise<void>;
  /** Timed: all the work, harness included. */
  run(engine: Engine): Promise<WorkloadRun>;
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
 * Coruscant MMAs through the MmaBench, in batches of `batch` per engine run (one stimulus text
 * per batch: 10^4 MMAs at ~1.8 KB per cycle would not fit in one string).
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
      };
    },
  };
}

/** Independent streams on one design in one engine run, each checked against its golden vectors. */
function streamsWorkload(
  prepareStreams: (count: number, seed: number) => { design: IrDesign; vectors: readonly CaseVectors[] },
): Workload['prepare'] {
  return (count, seed) => {
    const { design, vectors } = prepareStreams(count, seed);
    return {
      warmUp: async (engine) => void (await engine.runMany(design, [vectors[0]!.stimulus])),
      run: async (engine) => {
        const runs = await engine.runMany(
          design,
          vectors.map((vector) => vector.stimulus),
        );
        return {
          cycles: vectors.reduce((total, vector) => total + vector.stimulus.length, 0),
          mismatches: () =>
            runs.filter((run, index) => firstMismatch(run.outputs, vectors[index]!.expected) !== undefined).length,
        };
      },
    };
  };
}

const bitmapDecoderSuite = decoderSuites.find((suite) => suite.name === 'BitmapDecoder')!;

/** Random fuzz designs put under one top: one build, every member driven every cycle. */
const FUZZ_DESIGNS = 40;

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
          vectors: cases.map((testCase) => bitmapDecoderSuite.vectors(testCase)),
        };
      }),
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
        return { design, vectors: Array.from({ length: count }, () => vector) };
      }),
    },
  };
}
