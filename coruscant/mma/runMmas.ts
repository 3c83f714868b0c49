/**
 * Runs MMAs on the MmaBench RTL through any engine and reads D back from the write-back stream,
 * checking that every write-back comes exactly in the cycle the documented latency predicts.
 */
import type { IrDesign } from '../../api/ir.ts';
import { elaborate } from '../../api/ir.ts';
import { MmaBench } from '../designs/tensor/mmaBench.ts';
import { mmaLatency } from '../designs/tensor/mmaUnit.ts';
import type { Engine } from '../../api/engines.ts';
import { inputFrames } from '../../api/engines.ts';
import { zerosFp32, type Fp32Matrix } from '../golden/matrix.ts';
import { denseOutput, MMA_SHAPES, THREADS } from './registerImages.ts';
import { scheduleMmas, type MmaJob } from './mmaSchedule.ts';

const designs = new Map<number, IrDesign>();

/** The elaborated MmaBench for `pipelined` (elaborated once per process). */
export function mmaBenchDesign(pipelined = 0): IrDesign {
  let design = designs.get(pipelined);
  if (!design) {
    design = elaborate(MmaBench, { pipelined });
    designs.set(pipelined, design);
  }
  return design;
}

export interface MmaRunResult {
  /** D of every MMA; undefined for one abandoned by a reset. */
  readonly results: (Fp32Matrix | undefined)[];
  /** Cycles simulated, reset and register loads included. */
  readonly cycles: number;
  /** Cycle of each MMA's start. */
  readonly starts: number[];
  /** Per MMA, cycles from its start to the write-back of its last output (undefined if abandoned). */
  readonly startToLastWriteback: (number | undefined)[];
}

/** Runs `jobs` on the bench; throws if a write-back is missing, extra or in the wrong cycle. */
export async function runMmasOnRtl(
  engine: Engine,
  jobs: readonly MmaJob[],
  options: { pipelined?: number; vcd?: string } = {},
): Promise<MmaRunResult> {
  const pipelined = options.pipelined ?? 0;
  const schedule = scheduleMmas(jobs, mmaLatency(pipelined));
  const design = mmaBenchDesign(pipelined);
  // The schedule as typed frames (the engines' fast path), and the write-backs read from the output
  // frames: nothing is decoded per cycle.
  const run = await engine.run(
    design,
    inputFrames(design, schedule.inputs),
    options.vcd === undefined ? {} : { vcd: options.vcd },
  );
  const { frames } = run;
  const word = (cycle: number, name: string): number => frames.words[cycle * frames.stride + frames.slotOf(name).at]!;
  const seen: { cycle: number; slot: number }[] = [];
  for (let cycle = 0; cycle < frames.cycles; cycle++)
    if (word(cycle, 'dValid')) seen.push({ cycle, slot: word(cycle, 'dSlot') });
  const describe = (list: readonly { cycle: number; slot: number }[]): string =>
    list.map(({ cycle, slot }) => `${cycle}:${slot}`).join(' ');
  if (describe(seen) !== describe(schedule.writebacks)) {
    throw new Error(
      `${engine.name}: write-backs (cycle:slot) ${describe(seen) || 'none'}, expected ${describe(schedule.writebacks) || 'none'}`,
    );
  }
  const results = jobs.map((job) =>
    job.resetAfter === undefined ? zerosFp32(MMA_SHAPES[job.mode].m, MMA_SHAPES[job.mode].n) : undefined,
  );
  schedule.writebacks.forEach(({ job, slot }, index) => {
    const D = results[job]!;
    const { cycle } = seen[index]!;
    for (let thread = 0; thread < THREADS; thread++) {
      const value = word(cycle, `d_${thread}`);
      const { row, col } = jobs[job]!.mode === 'dense' ? denseOutput(thread, slot) : { row: thread, col: 0 };
      D.bits[row * D.cols + col] = value;
    }
  });
  const startToLastWriteback = jobs.map((job, index) => {
    if (job.resetAfter !== undefined) return undefined;
    return (
      Math.max(
        ...schedule.writebacks.filter((writeback) => writeback.job === index).map((writeback) => writeback.cycle),
      ) - schedule.starts[index]!
    );
  });
  return { results, cycles: frames.cycles, starts: schedule.starts, startToLastWriteback };
}
