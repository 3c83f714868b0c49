/**
 * The MmaUnit (through the MmaBench and its register-file model) against the golden MMAs, bit for
 * bit, on the in-process engine: both modes, 30–70 % sparse A, NaN/∞ operands and C, MMAs back to
 * back, a reset in the middle of an MMA, and every write-back in the cycle the documented latency
 * gives (16 datapath cycles + mmaLatency). Replay with FC_SEED=<seed>.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MMA_DATAPATH_CYCLES, mmaLatency } from '../../../../coruscant/designs/tensor/mmaUnit.ts';
import { TsEngine } from '../../../../engines/ts/tsEngine.ts';
import { coruscantMma, denseMma } from '../../../../coruscant/golden/models/mma.ts';
import { coruscantMmaFromRegisters } from '../../../../coruscant/golden/models/stcMma.ts';
import { encodeStc, stcThreadRegisters } from '../../../../coruscant/golden/formats/stcFormat.ts';
import type { MmaJob } from '../../../../coruscant/mma/mmaSchedule.ts';
import { runMmasOnRtl } from '../../../../coruscant/mma/runMmas.ts';
import type { Fp32Matrix } from '../../../../coruscant/golden/matrix.ts';
import { fastCheckSeed } from '../../../support/seed.ts';
import { mmaJob } from './mmaJobs.ts';

const engine = new TsEngine();
const hex = (matrix: Fp32Matrix | undefined): string[] => [...(matrix?.bits ?? [])].map((bits) => bits.toString(16));

function golden(job: MmaJob): Fp32Matrix {
  return job.mode === 'dense' ? denseMma(job.A, job.B, job.C) : coruscantMma(job.A, job.B, job.C);
}

describe('MmaUnit', () => {
  it(
    'equals the golden MMAs in both modes, back to back and across a reset mid-MMA, with the documented cycle count',
    { timeout: 240_000 },
    async () => {
      const seed = fastCheckSeed('MmaUnit');
      const dense = fc.sample(mmaJob('dense'), { seed, numRuns: 4 });
      const coruscant = fc.sample(mmaJob('coruscant'), { seed, numRuns: 4 });
      const jobs: MmaJob[] = [
        dense[0]!,
        coruscant[0]!,
        coruscant[1]!,
        dense[1]!,
        { ...coruscant[2]!, resetAfter: 9 },
        dense[2]!,
        dense[3]!,
        coruscant[3]!,
      ];
      const run = await runMmasOnRtl(engine, jobs);
      jobs.forEach((job, index) => {
        if (job.resetAfter !== undefined) return expect(run.results[index]).toBeUndefined();
        expect(hex(run.results[index]), `MMA ${index} (${job.mode}), seed ${seed}`).toEqual(hex(golden(job)));
        // Measured: start to the last write-back is 16 datapath cycles + the documented latency.
        expect(run.startToLastWriteback[index]).toBe(MMA_DATAPATH_CYCLES + mmaLatency(0));
      });
      // No bubbles: MMAs that follow each other start exactly 16 cycles apart.
      expect(run.starts.slice(1, 5).map((start, i) => start - run.starts[i]!)).toEqual([16, 16, 16, 16]);
      expect(run.starts[7]! - run.starts[6]!).toBe(16);

      // Coruscant mode = the dense MMA of the decompressed matrix = the golden MMA straight from
      // the STC registers through the decoder's selects.
      for (const index of [1, 2, 7]) {
        const job = jobs[index]!;
        const registers = encodeStc(job.A).tiles.map(stcThreadRegisters);
        expect(hex(run.results[index])).toEqual(hex(coruscantMmaFromRegisters(registers, job.B, job.C)));
      }
    },
  );

  it(
    'passes `pipelined` through to the FP units: pipelined=1 adds 3 cycles of latency and nothing else',
    { timeout: 240_000 },
    async () => {
      const seed = fastCheckSeed('MmaUnit pipelined=1');
      const jobs = [
        fc.sample(mmaJob('coruscant'), { seed, numRuns: 1 })[0]!,
        fc.sample(mmaJob('dense'), { seed, numRuns: 1 })[0]!,
      ];
      const run = await runMmasOnRtl(engine, jobs, { pipelined: 1 });
      jobs.forEach((job, index) =>
        expect(hex(run.results[index]), `MMA ${index}, seed ${seed}`).toEqual(hex(golden(job))),
      );
      expect(mmaLatency(1)).toBe(mmaLatency(0) + 3);
      expect(run.startToLastWriteback).toEqual([16 + mmaLatency(1), 16 + mmaLatency(1)]);
      expect(run.starts[1]! - run.starts[0]!).toBe(16);
    },
  );
});
