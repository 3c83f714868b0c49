/**
 * Every latency and bandwidth row of the H200 silicon measurements (docs/reference/h200-silicon.md
 * §1), rerun through the closed-loop patterns of gpu/memory/warpLoop.ts on the `h200` profile:
 * within 10 %, or — for the rows the model is known to miss (the harness's L2 rows, which exceed
 * the L2-only ceiling the probes measure), with their reason — within the bound each achieves.
 * The parameters are the profile's, the same for every row. The sector-throughput rows, the
 * slowest to simulate, are in h200Sectors.test.ts so that the two files run side by side.
 */
import { describe } from 'vitest';
import { H200_SILICON_ROWS } from '../h200Silicon.ts';
import { checkSiliconRows } from './siliconRows.ts';

describe('h200 profile against silicon: latency and bandwidth', () => {
  checkSiliconRows(H200_SILICON_ROWS.filter((row) => row.unit !== 'G loads/s'));
});
