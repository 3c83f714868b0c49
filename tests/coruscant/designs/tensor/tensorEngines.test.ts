/**
 * The same stimulus through the in-process simulator, Verilator and Icarus gives identical
 * outputs every cycle: on a ThreadGroup (four lanes, seconds to build), and on the whole
 * MmaBench (MmaUnit + operand registers) over a few back-to-back MMAs of each mode, equal to the
 * golden MMAs too. The MmaBench's cold Verilator build is ~100 s of compiler CPU (measured: 3 min
 * on 2 cores at load 9, then 18 s warm); Icarus runs it at a few cycles per second, hence few
 * MMAs. MMA_ENGINES=<n> runs n MMAs per mode instead of 2. Replay with FC_SEED=<seed>.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { elaborate } from '../../../../hw/ir/elaborate.ts';
import { THREAD_GROUP_LANES, ThreadGroup } from '../../../../coruscant/designs/tensor/threadGroup.ts';
import { createEngine } from '../../../../engines/index.ts';
import type { EngineName, PortValues } from '../../../../hw/contract/engine.ts';
import { coruscantMma, denseMma, dot4Accumulate } from '../../../../coruscant/golden/models/mma.ts';
import { runMmasOnRtl } from '../../../../coruscant/mma/runMmas.ts';
import { fastCheckSeed } from '../../../support/seed.ts';
import { fp16, mmaJob } from './mmaJobs.ts';

const EXTERNAL: EngineName[] = ['verilator', 'icarus'];
const operands = fc.array(fp16, { minLength: 4, maxLength: 4 });
const lane = fc.record({ a: operands, b: operands, c: fc.nat(0xffffffff) });
const cycle = fc.record({
  enable: fc.nat(3).map((draw) => draw > 0),
  loadC: fc.nat(3).map((draw) => draw === 0),
  lanes: fc.array(lane, { minLength: THREAD_GROUP_LANES, maxLength: THREAD_GROUP_LANES }),
});

describe('tensor blocks on every engine', () => {
  it(
    'ThreadGroup: in-process = Verilator = Icarus = the golden lane step, cycle for cycle',
    { timeout: 600_000 },
    async () => {
      const seed = fastCheckSeed('ThreadGroup engines');
      const cycles = fc.sample(cycle, { seed, numRuns: 60 });
      const inputs: PortValues[] = cycles.map(({ enable, loadC, lanes }) => {
        const ports: PortValues = { enable: BigInt(enable), loadC: BigInt(loadC) };
        lanes.forEach(({ a, b, c }, index) => {
          a.forEach((value, k) => (ports[`lane_${index}_a_${k}`] = BigInt(value)));
          b.forEach((value, k) => (ports[`lane_${index}_b_${k}`] = BigInt(value)));
          ports[`lane_${index}_c`] = BigInt(c);
        });
        return ports;
      });
      const design = elaborate(ThreadGroup);
      const ts = await (await createEngine('ts')).run(design, inputs);

      // Golden: per lane, acc' = (loadC ? c : acc) + dot when enabled, seen one cycle later.
      const accumulators = new Array<number>(THREAD_GROUP_LANES).fill(0);
      cycles.forEach(({ enable, loadC, lanes }, t) => {
        accumulators.forEach((acc, index) =>
          expect(Number(ts.outputs[t]![`lane_${index}_acc`]), `cycle ${t} lane ${index}`).toBe(acc),
        );
        if (!enable) return;
        lanes.forEach(
          ({ a, b, c }, index) => (accumulators[index] = dot4Accumulate(loadC ? c : accumulators[index]!, a, b) >>> 0),
        );
      });

      for (const name of EXTERNAL) {
        const run = await (await createEngine(name)).run(design, inputs);
        expect(run.outputs, name).toEqual(ts.outputs);
      }
    },
  );

  // A cold Verilator build of the MmaBench takes minutes on a loaded machine: the timeout is the build's own.
  it(
    'MmaBench: Verilator and Icarus give the in-process and the golden results on back-to-back MMAs of both modes',
    { timeout: 900_000 },
    async () => {
      const seed = fastCheckSeed('MmaBench engines');
      const perMode = Number(process.env['MMA_ENGINES'] ?? 2) || 2;
      // Back to back within a mode, then a switch of mode between two back-to-back MMAs.
      const jobs = (['coruscant', 'dense'] as const).flatMap((mode) =>
        fc.sample(mmaJob(mode), { seed, numRuns: perMode }),
      );
      const golden = jobs.map((job) => (job.mode === 'dense' ? denseMma : coruscantMma)(job.A, job.B, job.C));
      const ts = await runMmasOnRtl(await createEngine('ts'), jobs);
      expect(ts.results).toEqual(golden);
      for (const name of EXTERNAL)
        expect((await runMmasOnRtl(await createEngine(name), jobs)).results, name).toEqual(golden);
    },
  );
});
