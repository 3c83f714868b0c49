import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { Simulator } from '../../hw/sim/simulator.ts';
import { traceToVcd } from '../../hw/sim/vcdTrace.ts';
import { Counter } from '../../hw/examples/counter.ts';
import { readVcdFile } from '../../waves/vcdReader.ts';
import { SOAK } from '../hardening/fuzzHarness.ts';
import { checkChain, checkInstanceChain, checkWide } from '../hardening/scaleLimits.ts';

// `make soak` (SOAK=1): the sizes of the scale requirement. Timings against size: bench/scale.ts, docs/scale.md.
const HOUR = 3_600_000;

describe.skipIf(!SOAK)('scale soak', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'soak-scale-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('10^5 chained operators', () => checkChain(100_000), HOUR);
  it('10^4 instances', () => checkInstanceChain(10_000), HOUR);
  it(
    '65536-bit (MAX_WIDTH) arithmetic',
    () => {
      checkWide(
        65_536,
        Array.from({ length: 8 }, (_, i) => (1n << 65_535n) / BigInt(i + 1)),
      );
    },
    HOUR,
  );

  it(
    '10^6 cycles traced to a VCD with bounded memory, and the VCD reads back',
    async () => {
      const path = join(scratch, 'long.vcd');
      const simulator = new Simulator(elaborate(Counter, { width: 32 }));
      const trace = traceToVcd(simulator, path);
      simulator.poke('enable', 1);
      const heapBefore = process.memoryUsage().heapUsed;
      for (let cycle = 0; cycle < 1_000_000; cycle += 1000) {
        simulator.step(1000);
        await trace.drainIfNeeded();
      }
      await trace.close();
      // The trace is ~70 MB on disk; the heap must not have grown by anything like it.
      expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);
      expect(statSync(path).size).toBeGreaterThan(10_000_000);
      const read = readVcdFile(path, { keep: (signal) => signal.name === 'count' });
      const count = read.signals.find((signal) => signal.name === 'count')!;
      const values = read.changes.get(count.id)!.values;
      // The last sample is after the last rising edge, when the counter has counted every cycle.
      expect(BigInt(`0b${values[values.length - 1]}`)).toBe(1_000_000n);
    },
    HOUR,
  );
});
