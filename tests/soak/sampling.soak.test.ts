import { describe, expect, it } from 'vitest';
import { SPMM_KERNELS } from '../../gpu/system/kernels.ts';
import { GPU_MEMORY_PROFILES } from '../../gpu/memory/profiles.ts';
import { SOAK } from '../hardening/fuzzHarness.ts';
import { checkSampling, formatCheck, SAMPLING_BOUND, type SamplingCell } from '../gpu/system/samplingCells.ts';

// `make soak` (SOAK=1): every kernel × the SpMM shapes × 30/50/70 % × every profile, sampled as the
// sweep samples them against the full simulation (≈ 3 min of CPU; the riskiest cells run in
// tests/gpu/system/sampling.test.ts). Dense does not depend on sparsity: one run per shape.
const HOUR = 3_600_000;

const cells: SamplingCell[] = Object.keys(GPU_MEMORY_PROFILES).flatMap((profile) =>
  [7168, 9216].flatMap((size) =>
    SPMM_KERNELS.flatMap((kernel) =>
      (kernel === 'dense' ? [0.5] : [0.3, 0.5, 0.7]).map((sparsity) => ({ profile, kernel, size, sparsity })),
    ),
  ),
);

describe.skipIf(!SOAK)('sampling soak', () => {
  it(
    `all ${cells.length} cells: the sweep's sample within 5 % of the full run`,
    () => {
      const checks = cells.map(checkSampling);
      const report = checks.map(formatCheck).join('\n');
      console.log(`sampled / full (sweep sample factor, N = 8):\n${report}`);
      expect(checks.filter((c) => Math.abs(c.error) >= SAMPLING_BOUND).map(formatCheck), report).toEqual([]);
    },
    HOUR,
  );
});
