import { mulberry32 } from '../memory/seededRandom.ts';

/**
 * The grid's blocks in time on the SMs (gpu/probes/README.md, "Tenth batch": the marks of every
 * block of the harness's STC proxy).
 *
 * - **Dispatch.** The first blocks go to the SMs in turn, up to `slotsPerSm` each (at 9216², 50 %
 *   the 288 blocks land 3 on 24 SMs and 2 on 108, as on silicon). A later block takes the first
 *   slot that frees; slots that free at the same instant take the waiting blocks in a seeded
 *   random order — silicon's 116 late blocks of 16,384 × 2,048 landed 0 / 1 / 2 / 3 on 54 / 41 /
 *   36 / 1 SMs, as if thrown at random, where turns would give one each to 116.
 * - **A block's life.** Its start and end (`gapCycles`, while it asks the L2 for nothing), then its
 *   block-iterations. The blocks iterating on an SM share its pace, `paceCycles(blocks, gridBlocks)`
 *   per block-iteration with `blocks` on the SM and `gridBlocks` iterating in the grid.
 * - **The L2 slices' lookups** are the grid's (`lookupsPerCycle`, `lookupsPerIteration` per
 *   block-iteration): the SMs asking share them max-min fairly, none beyond its own pace. Where
 *   every SM holds the same work that is the lookups shared evenly; where some hold a block more,
 *   those run on at their own pace once the others have left (at 9216², 50 % the SMs with two
 *   blocks end at 36.7 µs, those with three at 47.3).
 */

/** What `scheduleBlocks` needs of the grid and the SMs. */
export interface BlockScheduleInput {
  readonly smCount: number;
  readonly slotsPerSm: number;
  /** Block-iterations of each block, in launch order. */
  readonly iterations: readonly number[];
  readonly gapCycles: number;
  /** Cycles per block-iteration of an SM holding `blocks` iterating blocks while `gridBlocks` iterate in the grid. */
  readonly paceCycles: (blocks: number, gridBlocks: number) => number;
  readonly lookupsPerCycle: number;
  readonly lookupsPerIteration: number;
  readonly seed?: number;
}

/** When every block ran, in SM cycles. */
export interface BlockSchedule {
  /** Per block, its SM. */
  readonly smOf: Int32Array;
  /** Per block, the start and end of each of its block-iterations. */
  readonly iterationStarts: readonly Float64Array[];
  readonly iterationEnds: readonly Float64Array[];
  /** Per SM, when its last block ended, and the most blocks it held at once. */
  readonly smFinish: Float64Array;
  readonly smPeakBlocks: Int32Array;
  readonly makespan: number;
}

/** Runs the grid's blocks to their end (see the module's comment). */
export function scheduleBlocks(input: BlockScheduleInput): BlockSchedule {
  const { smCount, slotsPerSm, iterations, gapCycles } = input;
  const blocks = iterations.length;
  const random = mulberry32(input.seed ?? 1);
  const smOf = new Int32Array(blocks).fill(-1);
  const iterationStarts = iterations.map((count) => new Float64Array(count));
  const iterationEnds = iterations.map((count) => new Float64Array(count));
  const smFinish = new Float64Array(smCount);
  const smPeakBlocks = new Int32Array(smCount);
  const held = new Int32Array(smCount);
  // Per block: its start phase's cycles left, then its iterations left.
  const gapLeft = new Float64Array(blocks);
  const left = new Float64Array(blocks);
  const running: number[] = [];
  let next = 0;
  let now = 0;

  const dispatch = (sm: number): void => {
    const block = next++;
    smOf[block] = sm;
    held[sm]!++;
    smPeakBlocks[sm] = Math.max(smPeakBlocks[sm]!, held[sm]!);
    gapLeft[block] = gapCycles;
    left[block] = iterations[block]!;
    running.push(block);
  };
  for (let turn = 0; turn < slotsPerSm; turn++) for (let sm = 0; sm < smCount && next < blocks; sm++) dispatch(sm);

  const iterating = new Int32Array(smCount);
  const smRate = new Float64Array(smCount);
  while (running.length > 0) {
    iterating.fill(0);
    let gridIterating = 0;
    for (const block of running)
      if (gapLeft[block]! <= 0) {
        iterating[smOf[block]!]!++;
        gridIterating++;
      }
    shareLookups(gridIterating);
    let step = Infinity;
    for (const block of running) {
      const sm = smOf[block]!;
      step = Math.min(step, gapLeft[block]! > 0 ? gapLeft[block]! : (left[block]! * iterating[sm]!) / smRate[sm]!);
    }
    const freed: number[] = [];
    for (let i = running.length - 1; i >= 0; i--) {
      const block = running[i]!;
      const sm = smOf[block]!;
      if (gapLeft[block]! > 0) {
        gapLeft[block]! -= step;
        if (gapLeft[block]! > 1e-9 * Math.max(1, now)) continue;
        gapLeft[block] = 0;
        if (left[block]! > 0) {
          iterationStarts[block]![0] = now + step;
          continue;
        }
      } else {
        const rate = smRate[sm]! / iterating[sm]!;
        const before = iterations[block]! - left[block]!;
        left[block]! -= step * rate;
        const after = iterations[block]! - left[block]!;
        // An iteration ends, and the next starts, when the block's progress passes a whole number.
        for (let k = Math.floor(before + 1e-9) + 1; k <= after + 1e-9 && k < iterations[block]!; k++) {
          iterationEnds[block]![k - 1] = now + (k - before) / rate;
          iterationStarts[block]![k] = iterationEnds[block]![k - 1]!;
        }
        if (left[block]! > 1e-9 * iterations[block]!) continue;
        if (iterations[block]! > 0) iterationEnds[block]![iterations[block]! - 1] = now + step;
      }
      running.splice(i, 1);
      held[sm]!--;
      smFinish[sm] = now + step;
      freed.push(sm);
    }
    now += step;
    // Slots freed at one instant take the waiting blocks in a seeded random order.
    for (let i = freed.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [freed[i], freed[j]] = [freed[j]!, freed[i]!];
    }
    for (const sm of freed) if (next < blocks) dispatch(sm);
  }
  return { smOf, iterationStarts, iterationEnds, smFinish, smPeakBlocks, makespan: now };

  /** Each SM's block-iterations per cycle: its own pace at most, the lookups shared max-min fairly. */
  function shareLookups(gridIterating: number): void {
    const asking: number[] = [];
    for (let sm = 0; sm < smCount; sm++) {
      smRate[sm] = 0;
      if (iterating[sm]! > 0) {
        smRate[sm] = 1 / input.paceCycles(iterating[sm]!, gridIterating);
        asking.push(sm);
      }
    }
    asking.sort((a, b) => smRate[a]! - smRate[b]!);
    let capacity = input.lookupsPerCycle / input.lookupsPerIteration;
    for (let i = 0; i < asking.length; i++) {
      const sm = asking[i]!;
      smRate[sm] = Math.min(smRate[sm]!, capacity / (asking.length - i));
      capacity -= smRate[sm]!;
    }
  }
}
