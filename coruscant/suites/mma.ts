import fc from 'fast-check';
import { mmaLatency } from '../designs/tensor/mmaUnit.ts';
import type { PortValues } from '../../api/engines.ts';
import { coruscantMma, denseMma } from '../golden/models/mma.ts';
import type { Fp16Matrix, Fp32Matrix } from '../golden/matrix.ts';
import { scheduleMmas, type MmaJob } from '../mma/mmaSchedule.ts';
import { denseOutput, MMA_SHAPES, THREADS, type MmaMode } from '../mma/registerImages.ts';
import { mmaBenchDesign } from '../mma/runMmas.ts';
import { defineSuite, type RegressSuite } from '../../api/regress.ts';
import { fp16Bits, fp32Bits } from './fpOperands.ts';

/** One MMA of a case, as plain arrays so fast-check can shrink it (a zero-heavy A is sparse). */
interface MmaCase {
  readonly mode: MmaMode;
  readonly a: readonly number[];
  readonly b: readonly number[];
  readonly c: readonly number[];
  readonly resetAfter: number | null;
}

const PIPELINED = 0;
const sparseFp16 = fc.oneof(fc.constant(0), fp16Bits);

function mmaCase(mode: MmaMode): fc.Arbitrary<MmaCase> {
  const { m, n, k } = MMA_SHAPES[mode];
  const exactly = <T>(item: fc.Arbitrary<T>, length: number): fc.Arbitrary<T[]> =>
    fc.array(item, { minLength: length, maxLength: length });
  return fc.record({
    mode: fc.constant(mode),
    a: exactly(sparseFp16, m * k),
    b: exactly(fp16Bits, k * n),
    c: exactly(fp32Bits, m * n),
    // Mostly complete MMAs; sometimes one abandoned by a reset in its datapath cycles.
    resetAfter: fc.option(fc.integer({ min: 1, max: 16 }), { freq: 6 }),
  });
}

const fp16Matrix = (rows: number, cols: number, bits: readonly number[]): Fp16Matrix => ({
  rows,
  cols,
  bits: Uint16Array.from(bits),
});
const fp32Matrix = (rows: number, cols: number, bits: readonly number[]): Fp32Matrix => ({
  rows,
  cols,
  bits: Uint32Array.from(bits),
});

function toJob(mma: MmaCase): MmaJob {
  const { m, n, k } = MMA_SHAPES[mma.mode];
  return {
    mode: mma.mode,
    A: fp16Matrix(m, k, mma.a),
    B: fp16Matrix(k, n, mma.b),
    C: fp32Matrix(m, n, mma.c),
    ...(mma.resetAfter === null ? {} : { resetAfter: mma.resetAfter }),
  };
}

/**
 * The MmaBench (MmaUnit + register file) over a run of MMAs: in every write-back cycle the
 * schedule predicts, d_<t> of the output slot = the golden MMA's element; no write-back elsewhere.
 */
function mmaVectors(mmas: readonly MmaCase[]): { stimulus: PortValues[]; expected: PortValues[] } {
  const jobs = mmas.map(toJob);
  const schedule = scheduleMmas(jobs, mmaLatency(PIPELINED));
  const golden = jobs.map((job) => (job.mode === 'dense' ? denseMma : coruscantMma)(job.A, job.B, job.C));
  const expected: PortValues[] = schedule.inputs.map(() => ({ dValid: 0n }));
  for (const { job, slot, cycle } of schedule.writebacks) {
    const D = golden[job]!;
    const ports: PortValues = { dValid: 1n, dSlot: BigInt(slot) };
    for (let thread = 0; thread < THREADS; thread++) {
      const { row, col } = jobs[job]!.mode === 'dense' ? denseOutput(thread, slot) : { row: thread, col: 0 };
      ports[`d_${thread}`] = BigInt(D.bits[row * D.cols + col]!);
    }
    expected[cycle] = ports;
  }
  return { stimulus: schedule.inputs, expected };
}

/** MMA runs of one mode, or of both mixed (mode switches between back-to-back MMAs). */
function mmaSuite(name: string, modes: readonly MmaMode[], description: string): RegressSuite {
  return defineSuite({
    name,
    groups: ['mma'],
    description,
    arbitrary: fc.array(fc.oneof(...modes.map(mmaCase)), { minLength: 1, maxLength: 3 }),
    design: () => mmaBenchDesign(PIPELINED),
    vectors: mmaVectors,
    batchSize: 20,
    heavy: true,
  });
}

/** The MmaUnit through its bench, dense and Coruscant, against golden/models/mma.ts. */
export const mmaSuites: readonly RegressSuite[] = [
  mmaSuite(
    'MmaUnit',
    ['dense', 'coruscant'],
    'MmaUnit (bench with register file): back-to-back dense m16n8k16 and Coruscant m32n1k64 MMAs, some cut by reset = golden MMAs',
  ),
];
