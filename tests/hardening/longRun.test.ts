import { describe, expect, it } from 'vitest';
import { lastCounterLine, longCounterRun } from './longRun.ts';

/**
 * A long `gen sim` runs in bounded memory (docs/hardening.md, "Long runs"): vectors are read,
 * simulated and written piece by piece, the VCD streamed to disk. Before, the run held every
 * vector line, output row and output line at once: 10^6 cycles of the counter peaked at ~580 MB
 * (10^7 died with "JavaScript heap out of memory" at ~2.6 GB); now ~230 MB, the ~110 MB of Node,
 * tsx and the project included. The 10^7-cycle runs on every engine are in tests/soak.
 */
describe('a 10^6-cycle gen sim (ts engine, outputs and VCD to files)', () => {
  it('finishes in bounded memory with every output line, a VCD, and no temporary left', async () => {
    const cycles = 1_000_000;
    const run = await longCounterRun('ts', cycles, true);
    console.log(`10^6-cycle gen sim --vcd (ts): ${run.milliseconds} ms, peak ${run.peakMiB.toFixed(0)} MiB`);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.outputLines).toBe(cycles);
    expect(run.lastLine).toBe(lastCounterLine(cycles));
    expect(run.vcdBytes).toBeGreaterThan(40_000_000);
    expect(run.leftovers).toEqual([]);
    expect(run.peakMiB).toBeLessThan(350);
  }, 180_000);
});
