/**
 * The sector-throughput rows of the H200 silicon measurements (docs/reference/h200-silicon.md §1:
 * random 4-byte and 128-byte-strided loads over 16 MiB and 1 GiB) on the `h200` profile, held
 * like every other calibration row (h200Calibration.test.ts): 10 %, or the bound a known miss achieves, with its reason.
 */
import { describe } from 'vitest';
import { H200_SILICON_ROWS } from '../h200Silicon.ts';
import { checkSiliconRows } from './siliconRows.ts';

describe('h200 profile against silicon: sector throughput', () => {
  checkSiliconRows(H200_SILICON_ROWS.filter((row) => row.unit === 'G loads/s'));
});
