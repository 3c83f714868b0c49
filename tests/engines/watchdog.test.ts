import { afterEach, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { Counter } from '../../hw/examples/counter.ts';
import { IcarusEngine } from '../../engines/icarus/icarusEngine.ts';
import { flatCells, runTimeout } from '../../engines/harness/runBounds.ts';
import { mmaBenchDesign } from '../../coruscant/mma/runMmas.ts';

/*
 * Every external run is under a watchdog derived from its work (cycles × design size), not a
 * fixed quarter of an hour (Verilator) or half an hour (Icarus): a simulator stuck on three
 * cycles of a counter is stopped within a minute. Before, this test would wait 30 minutes.
 */

const saved = process.env['GEN_VVP'];
afterEach(() => {
  if (saved === undefined) delete process.env['GEN_VVP'];
  else process.env['GEN_VVP'] = saved;
});

describe('the run watchdog', () => {
  it('grows with cycles and design size, and with tracing', () => {
    const counter = flatCells(elaborate(Counter));
    expect(counter).toBe(5);
    expect(runTimeout(3, counter, 50, false)).toBe(30_004);
    // The MmaBench on Icarus: about 4.3 s allowed per cycle where it needs a few tenths.
    const bench = flatCells(mmaBenchDesign());
    expect(runTimeout(1000, bench, 50, false) / 1000).toBeGreaterThan(1000 * 4);
    expect(runTimeout(1000, bench, 50, true)).toBeGreaterThan(3.9 * runTimeout(1000, bench, 50, false) - 120_000);
  });

  it('stops a simulator that hangs, naming it, within the bound of its work', async () => {
    const fake = join(mkdtempSync(join(tmpdir(), 'watchdog-')), 'vvp');
    // Answers the version probe, then hangs like a simulator stuck in a write to a full disk.
    writeFileSync(
      fake,
      '#!/bin/sh\nif [ "$1" = "-V" ]; then echo "Icarus Verilog runtime version 0 (hanging)"; exit 0; fi\nexec sleep 1000\n',
    );
    chmodSync(fake, 0o755);
    process.env['GEN_VVP'] = fake;
    const started = performance.now();
    const run = new IcarusEngine({ cacheRoot: mkdtempSync(join(tmpdir(), 'watchdog-cache-')) }).run(
      elaborate(Counter),
      [{ reset: 1n }, {}, {}],
    );
    await expect(run).rejects.toThrow(/^vvp: timed out after 30004 ms/);
    expect(performance.now() - started).toBeLessThan(50_000);
  }, 90_000);
});
