/**
 * Turns a list of MMAs into the MmaBench's per-cycle inputs and the write-backs it must produce.
 * Cycle 0 resets. MMA i uses register bank i mod 2 and loads in four cycles (register groups
 * 0–3) while the previous MMA runs on the other bank, so MMAs start every 16 cycles, back to back.
 * An MMA with `resetAfter` = r gets `reset` r cycles after its start; the next one loads after it.
 */
import type { PortValues } from '../../api/engines.ts';
import type { Fp16Matrix, Fp32Matrix } from '../golden/matrix.ts';
import { C_SLOTS, registerImage, THREADS, type MmaMode, type RegisterImage } from './registerImages.ts';

/** One MMA for the bench. */
export interface MmaJob {
  readonly mode: MmaMode;
  readonly A: Fp16Matrix;
  readonly B: Fp16Matrix;
  readonly C: Fp32Matrix;
  /** Assert reset this many cycles (1 … 16) after start, abandoning the MMA. */
  readonly resetAfter?: number;
}

/** A write-back the bench must show: job, output slot and the cycle it appears in. */
export interface ExpectedWriteback {
  readonly job: number;
  readonly slot: number;
  readonly cycle: number;
}

export interface MmaSchedule {
  readonly inputs: PortValues[];
  readonly starts: number[];
  readonly writebacks: ExpectedWriteback[];
}

/** Datapath cycles per MMA (64 / 4 and 4 chunks × 4 outputs alike). */
export const DATAPATH_CYCLES = 16;
/** Cycles to load one MMA's registers (four register groups of eight). */
const LOAD_CYCLES = 4;
const REGISTERS_PER_WRITE = 8;

/** Cycles after start at which each output slot of an MMA is written back. */
function writebackOffsets(mode: MmaMode, latency: number): number[] {
  // Chunk i is read in cycle start + 1 + i; an output is final after its last chunk + latency.
  const lastChunks = mode === 'dense' ? [3, 7, 11, 15] : [15];
  return lastChunks.map((chunk) => 1 + chunk + latency);
}

/** The write-port inputs that load `image` into `bank`, one object per load cycle. */
function loadCycles(image: RegisterImage, bank: number): PortValues[] {
  return Array.from({ length: LOAD_CYCLES }, (_, group) => {
    const cycle: PortValues = {
      write_enable: 1n,
      write_bank: BigInt(bank),
      write_group: BigInt(group),
      write_cEnable: group === 0 ? 1n : 0n,
    };
    for (let index = 0; index < REGISTERS_PER_WRITE; index++) {
      const register = group * REGISTERS_PER_WRITE + index;
      cycle[`write_vector_${index}`] = BigInt(image.vector[register]!);
      for (let thread = 0; thread < THREADS; thread++)
        cycle[`write_data_${thread}_${index}`] = BigInt(image.values[thread]![register]!);
    }
    if (group === 0) {
      for (let thread = 0; thread < THREADS; thread++) {
        for (let slot = 0; slot < C_SLOTS; slot++) cycle[`write_c_${thread}_${slot}`] = BigInt(image.c[thread]![slot]!);
      }
    }
    return cycle;
  });
}

/** The bench inputs for `jobs` and the write-backs a correct MmaUnit of that latency produces. */
export function scheduleMmas(jobs: readonly MmaJob[], latency: number): MmaSchedule {
  const cycles: PortValues[] = [{ reset: 1n }];
  const at = (cycle: number): PortValues => {
    while (cycles.length <= cycle) cycles.push({});
    return cycles[cycle]!;
  };
  const starts: number[] = [];
  const writebacks: ExpectedWriteback[] = [];
  let loadStart = 1;
  let earliestStart = 1;
  jobs.forEach((job, index) => {
    const bank = index % 2;
    const image = registerImage(job.mode, job.A, job.B, job.C);
    loadCycles(image, bank).forEach((inputs, offset) => Object.assign(at(loadStart + offset), inputs));
    const start = Math.max(earliestStart, loadStart + LOAD_CYCLES);
    Object.assign(at(start), { start: 1n, mode: job.mode === 'dense' ? 0n : 1n, bank: BigInt(bank) });
    image.bitmaps.forEach((bitmap, thread) => (at(start)[`bitmap_${thread}`] = bitmap));
    starts.push(start);
    if (job.resetAfter === undefined) {
      for (const [slot, offset] of writebackOffsets(job.mode, latency).entries())
        writebacks.push({ job: index, slot, cycle: start + offset });
      loadStart = start + 1;
      earliestStart = start + DATAPATH_CYCLES;
    } else {
      const reset = start + job.resetAfter;
      at(reset).reset = 1n;
      // A reset clears the write-back pipeline: outputs not yet shown by then are lost.
      for (let i = writebacks.length - 1; i >= 0 && writebacks[i]!.cycle > reset; i--) writebacks.splice(i, 1);
      for (const [slot, offset] of writebackOffsets(job.mode, latency).entries()) {
        if (start + offset <= reset) writebacks.push({ job: index, slot, cycle: start + offset });
      }
      loadStart = reset + 1;
      earliestStart = reset + 1;
    }
  });
  const end = Math.max(...writebacks.map((writeback) => writeback.cycle), ...starts) + 2;
  at(end);
  // Every cycle states the strobes, so a value from an earlier cycle never lingers.
  return {
    inputs: cycles.map((inputs) => ({ reset: 0n, start: 0n, write_enable: 0n, write_cEnable: 0n, ...inputs })),
    starts,
    writebacks,
  };
}
