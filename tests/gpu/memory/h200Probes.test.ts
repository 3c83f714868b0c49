/**
 * The project's own H200 probes (gpu/probes/README.md: l2Partitions.cu's stream by footprint,
 * mapping and parallelism, and its chase by footprint) on the `h200` profile, held like the
 * calibration rows of h200Calibration.test.ts: 10 %, or the bound a known miss achieves with its
 * reason. Same parameters as every other row.
 */
import { describe } from 'vitest';
import { H200_PROBE_ROWS } from '../h200Silicon.ts';
import { checkSiliconRows } from './siliconRows.ts';

describe('h200 profile against the silicon probes', () => {
  checkSiliconRows(H200_PROBE_ROWS);
});
