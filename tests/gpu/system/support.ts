import type { MmaCycles } from '../../../gpu/system/tensorCoreCycles.ts';

/** MmaUnit's cycle counts as measured in tensorCoreCycles.test.ts, so model tests need not re-run the RTL. */
export const MEASURED_MMA: MmaCycles = {
  periodCycles: 16,
  latencyCycles: 1,
  documentedLatencyCycles: 1,
  pipelined: 0,
  source: 'tests (see tensorCoreCycles.test.ts)',
};
