import { describe, expect, it } from 'vitest';
import { SOAK } from '../hardening/fuzzHarness.ts';
import { lastCounterLine, longCounterRun } from '../hardening/longRun.ts';

// `make soak` (SOAK=1): 10^7-cycle gen sim runs on every engine, with and without a VCD, each in
// less than 500 MB (the gen process; Verilator and Icarus run as processes of their own) with no
// temporary left. Before, ts and Verilator died with "JavaScript heap out of memory" at ~2.6 GB
// after 82–98 s, and Verilator left its 498 MB raw trace behind. Figures: docs/hardening.md.
const HOUR = 3_600_000;
const CYCLES = 10_000_000;

describe.skipIf(!SOAK)('10^7-cycle gen sim in bounded memory', () => {
  it.each(['ts', 'verilator', 'icarus'].flatMap((engine) => [false, true].map((vcd) => ({ engine, vcd }))))(
    '$engine, VCD: $vcd',
    async ({ engine, vcd }) => {
      const run = await longCounterRun(engine, CYCLES, vcd);
      console.log(
        `10^7-cycle gen sim${vcd ? ' --vcd' : ''} (${engine}): ${(run.milliseconds / 1000).toFixed(0)} s, peak ${run.peakMiB.toFixed(0)} MiB`,
      );
      expect(run.stderr).toBe('');
      expect(run.exitCode).toBe(0);
      expect(run.outputLines).toBe(CYCLES);
      expect(run.lastLine).toBe(lastCounterLine(CYCLES));
      if (vcd) expect(run.vcdBytes).toBeGreaterThan(400_000_000);
      expect(run.leftovers).toEqual([]);
      expect(run.peakMiB).toBeLessThan(500);
    },
    3 * HOUR,
  );
});
