/** The MMA cycles the model uses come from the RTL, and sampled tiles' numbers equal golden. */
import { describe, expect, it } from 'vitest';
import { mmaLatency } from '../../../coruscant/designs/tensor/mmaUnit.ts';
import { randomLayout } from '../../../gpu/system/sparseLayout.ts';
import { measureTensorCore } from '../../../gpu/system/sweep.ts';
import { MEASURED_MMA } from './support.ts';

describe('tensor core cycles from the MmaUnit', () => {
  it('back-to-back sampled MMAs: period 16, the documented latency, results equal golden', async () => {
    const { mma, numerics } = await measureTensorCore(randomLayout(512, 512, 0.5, 9), 9);
    expect(mma.periodCycles).toBe(16);
    expect(mma.latencyCycles).toBe(mmaLatency(0));
    expect(numerics).toEqual({ mmas: 2, mismatches: 0 });
    // The other model tests use these numbers without re-running the RTL.
    expect({ ...mma, source: MEASURED_MMA.source }).toEqual(MEASURED_MMA);
  }, 120_000);
});
