import { mmaLatency } from '../../coruscant/designs/tensor/mmaUnit.ts';
import { TsEngine } from '../../engines/ts/tsEngine.ts';
import { coruscantMma } from '../../coruscant/golden/models/mma.ts';
import type { Fp16Matrix } from '../../coruscant/golden/matrix.ts';
import { zerosFp32 } from '../../coruscant/golden/matrix.ts';
import { runMmasOnRtl } from '../../coruscant/mma/runMmas.ts';
import { mulberry32 } from '../memory/seededRandom.ts';
import { numberToFp16 } from '../../coruscant/golden/numerics/fp16.ts';
import { layoutPatch, type SparseWeightLayout } from './sparseLayout.ts';

/**
 * The tensor core's cycle counts, taken from the RTL rather than assumed, and the numeric check
 * of sampled tiles on it: sampled 32×64 tiles of the pruned A run back to back as Coruscant
 * m32n1k64 MMAs through the MmaUnit (docs/spec.md §4.2, on its MmaBench) on the in-process engine. The
 * period is the cycles between consecutive MMA starts, the latency what remains of start → last
 * write-back after the 16 datapath cycles; runMmasOnRtl checks every write-back comes in the cycle
 * the unit's documented latency predicts, and each D is compared with golden coruscantMma.
 */
export interface MmaCycles {
  /** Cycles between the starts of back-to-back MMAs (16 datapath cycles, docs/spec.md §4.2). */
  readonly periodCycles: number;
  /** Cycles from an MMA's last datapath cycle to its last write-back. */
  readonly latencyCycles: number;
  /** MmaUnit's documented latency for the same configuration (mmaLatency). */
  readonly documentedLatencyCycles: number;
  readonly pipelined: number;
  readonly source: string;
}

/** Result of running sampled tiles through the RTL. */
export interface NumericsCheck {
  /** MMAs run. */
  readonly mmas: number;
  /** Output elements that differ from golden. */
  readonly mismatches: number;
  readonly firstMismatch?: string;
}

/** Datapath cycles of one MMA, as docs/spec.md fixes them (what the measurement is checked against). */
const DATAPATH_CYCLES = 16;

/** Runs `tiles` (each 32×64, pruned positions zero) against B (64×1) back to back on the MmaUnit; measures and checks. */
export async function measureMmaUnit(
  tiles: readonly Fp16Matrix[],
  b: Fp16Matrix,
  pipelined = 0,
): Promise<{ cycles: MmaCycles; check: NumericsCheck }> {
  if (tiles.length < 2) throw new RangeError('need at least two MMAs to measure a period');
  const jobs = tiles.map((A) => ({ mode: 'coruscant' as const, A, B: b, C: zerosFp32(32, 1) }));
  const run = await runMmasOnRtl(new TsEngine(), jobs, { pipelined });
  const periods = run.starts.slice(1).map((start, i) => start - run.starts[i]!);
  const spans = run.startToLastWriteback.map((span) => span ?? NaN);
  let mismatches = 0;
  let firstMismatch: string | undefined;
  jobs.forEach((job, i) => {
    const golden = coruscantMma(job.A, job.B, job.C).bits;
    const rtl = run.results[i]!.bits;
    golden.forEach((bits, row) => {
      if (bits === rtl[row]) return;
      mismatches++;
      firstMismatch ??= `MMA ${i} row ${row}: golden 0x${(bits >>> 0).toString(16)}, RTL 0x${(rtl[row]! >>> 0).toString(16)}`;
    });
  });
  return {
    cycles: {
      periodCycles: Math.max(...periods),
      latencyCycles: Math.max(...spans) - DATAPATH_CYCLES,
      documentedLatencyCycles: mmaLatency(pipelined),
      pipelined,
      source: `measured on MmaUnit (MmaBench, pipelined=${pipelined}) in the in-process simulator: ${tiles.length} back-to-back m32n1k64 MMAs of sampled tiles`,
    },
    check: { mmas: tiles.length, mismatches, ...(firstMismatch === undefined ? {} : { firstMismatch }) },
  };
}

/**
 * `count` sampled 32×64 tiles of the layout's pruning pattern (32 rows at evenly spread places in
 * M, the first K tile), kept positions given seeded random FP16 values in ±[1/64, 2), and a random
 * B column: the operands of one model run's numeric check.
 */
export function sampledTiles(
  layout: SparseWeightLayout,
  count: number,
  seed: number,
): { tiles: Fp16Matrix[]; b: Fp16Matrix } {
  const random = mulberry32(seed);
  const value = (): number => numberToFp16((random() < 0.5 ? -1 : 1) * 2 ** (random() * 7 - 6));
  const tiles = Array.from({ length: count }, (_, s) => {
    const patch = layoutPatch(layout, Math.floor((s * (layout.m - 32)) / Math.max(1, count - 1) / 32) * 32, 0, 32, 64);
    return { ...patch, bits: patch.bits.map((bits) => (bits === 0 ? 0 : value())) };
  });
  return { tiles, b: { rows: 64, cols: 1, bits: Uint16Array.from({ length: 64 }, value) } };
}
