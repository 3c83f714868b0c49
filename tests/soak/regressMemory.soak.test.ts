/**
 * `make soak`: a regression of 10^7 cases stays under 1 GB peak resident memory (it used to die of
 * "JavaScript heap out of memory" after 57 s), JUnit file included. The peak is the kernel's
 * VmHWM of the `gen` process, read while it runs.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { SOAK } from '../hardening/fuzzHarness.ts';
import { GEN, peakResidentBytes, regressArgs } from '../support/regressRun.ts';

const HOUR = 3_600_000;
const RUNS = 10_000_000;

describe.skipIf(!SOAK)('regression memory soak', () => {
  it(
    `${RUNS} cases in under 1 GB peak, with their JUnit file`,
    async () => {
      const scratch = mkdtempSync(join(tmpdir(), 'soak-regress-'));
      try {
        const junit = join(scratch, 'junit.xml');
        const child = execa(
          'node',
          [GEN, ...regressArgs({ suites: ['LaneDetector'], runs: RUNS, seed: 1, extra: ['--junit', junit] })],
          { reject: false, env: { CI: '1' } },
        );
        let peak = 0;
        const sampler = setInterval(() => (peak = Math.max(peak, peakResidentBytes(child.pid!))), 500);
        const run = await child;
        clearInterval(sampler);
        expect(run.exitCode, run.stderr.slice(-400)).toBe(0);
        expect(run.stdout).toMatch(new RegExp(`LaneDetector\\s+ts\\s+${RUNS}\\s+0`));
        expect(peak).toBeGreaterThan(0);
        expect(peak).toBeLessThan(2 ** 30);
        process.stdout.write(`10^7 cases: peak RSS ${(peak / 2 ** 20).toFixed(0)} MiB\n`);
        // One <testcase> line of at least 60 bytes per case.
        expect(statSync(junit).size).toBeGreaterThan(RUNS * 60);
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    },
    HOUR,
  );
});
