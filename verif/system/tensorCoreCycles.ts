import { TensorLane, tensorLaneLatency } from '../../hw/designs/tensor/TensorLane.ts';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { Simulator } from '../../hw/sim/simulator.ts';
import { DOT_WIDTH } from '../golden/mma.ts';
import { spmm } from '../golden/spmm.ts';
import type { Fp16Matrix } from '../matrix.ts';
import { zerosFp32 } from '../matrix.ts';
import { mulberry32 } from '../memory/seededRandom.ts';
import { numberToFp16 } from '../numerics/fp16.ts';
import { layoutPatch, type SparseWeightLayout } from './sparseLayout.ts';

/**
 * The tensor core's cycle counts, taken from the RTL rather than assumed, and the numeric check
 * of sampled tiles on it. The MmaUnit (SPEC §4.2) is 32 TensorLanes in lockstep, one per thread of
 * the warp, each walking its row tile's 16 K chunks one per cycle; so one lane run on the
 * in-process simulator gives both the MMA period (cycles between back-to-back MMA results) and its
 * pipeline latency, and checks the lane's numbers against the golden SpMM on real sampled rows.
 */
export interface MmaCycles {
  /** Cycles between the results of back-to-back MMAs (16 datapath cycles, SPEC §4.2). */
  readonly periodCycles: number;
  /** Cycles from an MMA's last K chunk entering the lane to its result in the accumulator. */
  readonly latencyCycles: number;
  /** TensorLane's documented latency for the same configuration (tensorLaneLatency). */
  readonly documentedLatencyCycles: number;
  readonly pipelined: number;
  readonly source: string;
}

/** Result of running sampled rows of A through the lane. */
export interface LaneNumericsCheck {
  readonly rows: number;
  readonly mismatches: number;
  readonly firstMismatch?: string;
}

/** K chunks of one m32n1k64 MMA per lane. */
const CHUNKS_PER_MMA = 64 / DOT_WIDTH;

/**
 * Runs `rows` (each a 64-element FP16 row tile of A, pruned positions zero-filled as the decoder
 * does) against the 64-element column `b` back to back through one TensorLane, one MMA per row
 * with C = +0, and measures when each result appears. Returns the cycle counts and the check of
 * every result against golden spmm (SPEC §2 order).
 */
export function runLaneMmas(rows: Fp16Matrix, b: Fp16Matrix, pipelined = 0): { cycles: MmaCycles; check: LaneNumericsCheck } {
  if (rows.cols !== 64 || b.rows !== 64 || b.cols !== 1) throw new RangeError('lane MMAs take 64-element row tiles and a 64×1 B column');
  const golden = spmm(rows, b, zerosFp32(rows.rows, 1)).bits;
  const simulator = new Simulator(elaborate(TensorLane, { pipelined }));
  simulator.reset();
  const chunkCycles = rows.rows * CHUNKS_PER_MMA;
  const drain = tensorLaneLatency(pipelined) + 4;
  const lastChunkCycle = (row: number): number => row * CHUNKS_PER_MMA + CHUNKS_PER_MMA - 1;
  const accumulator: number[] = [];
  for (let cycle = 0; cycle < chunkCycles + drain; cycle++) {
    const active = cycle < chunkCycles;
    const row = Math.floor(cycle / CHUNKS_PER_MMA);
    const chunk = cycle % CHUNKS_PER_MMA;
    for (let k = 0; k < DOT_WIDTH; k++) {
      simulator.poke(`a_${k}`, active ? rows.bits[row * 64 + chunk * DOT_WIDTH + k]! : 0);
      simulator.poke(`b_${k}`, active ? b.bits[chunk * DOT_WIDTH + k]! : 0);
    }
    simulator.poke('enable', active ? 1 : 0);
    simulator.poke('loadC', active && chunk === 0 ? 1 : 0);
    simulator.poke('c', 0);
    simulator.step();
    accumulator.push(simulator.peekNumber('acc'));
  }
  // The latency is measured on the first MMA (the first cycle its golden result shows, counted
  // from its last chunk); every MMA must then show its result exactly one period later.
  const firstShown = accumulator.findIndex((acc, cycle) => cycle >= lastChunkCycle(0) && acc === golden[0]);
  if (firstShown === -1) throw new Error(`TensorLane never produced the golden result 0x${(golden[0]! >>> 0).toString(16)} of the first sampled MMA`);
  const latency = firstShown - lastChunkCycle(0) + 1;
  const wrong = Array.from({ length: rows.rows }, (_, r) => r).filter((r) => accumulator[lastChunkCycle(r) + latency - 1] !== golden[r]);
  const first = wrong[0];
  return {
    cycles: {
      periodCycles: CHUNKS_PER_MMA,
      latencyCycles: latency,
      documentedLatencyCycles: tensorLaneLatency(pipelined),
      pipelined,
      source: `measured on TensorLane (pipelined=${pipelined}) in the in-process simulator: ${rows.rows} back-to-back m32n1k64 row MMAs of 16 K chunks`,
    },
    check: {
      rows: rows.rows,
      mismatches: wrong.length,
      ...(first === undefined ? {} : { firstMismatch: `row ${first}: golden 0x${(golden[first]! >>> 0).toString(16)}, lane 0x${(accumulator[lastChunkCycle(first) + latency - 1]! >>> 0).toString(16)}` }),
    },
  };
}

/**
 * `count` sampled 64-element row tiles of the layout's pruning pattern (rows spread over M, the
 * first K tile), kept positions given seeded random FP16 values in ±[1/64, 2), and a random B
 * column: the operands of the numeric check of one model run.
 */
export function sampledRowTiles(layout: SparseWeightLayout, count: number, seed: number): { rows: Fp16Matrix; b: Fp16Matrix } {
  const random = mulberry32(seed);
  const value = (): number => numberToFp16((random() < 0.5 ? -1 : 1) * 2 ** (random() * 7 - 6));
  const bits = new Uint16Array(count * 64);
  for (let s = 0; s < count; s++) {
    const row = Math.floor((s * layout.m) / count);
    const patch = layoutPatch(layout, row, 0, 1, 64);
    for (let c = 0; c < 64; c++) if (patch.bits[c] !== 0) bits[s * 64 + c] = value();
  }
  return { rows: { rows: count, cols: 64, bits }, b: { rows: 64, cols: 1, bits: Uint16Array.from({ length: 64 }, value) } };
}
