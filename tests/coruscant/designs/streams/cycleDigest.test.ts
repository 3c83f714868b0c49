import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cycleDigests } from './cycleDigest.ts';

// Taken on the decoder and MmaUnit before their handshakes were declared as Flow interfaces
// (`npx tsx tests/hw/designs/streams/cycleDigest.ts > tests/hw/designs/streams/cycleDigests.json`).
const recorded = JSON.parse(readFileSync(new URL('./cycleDigests.json', import.meta.url), 'utf8')) as Record<
  string,
  string
>;

describe('Coruscant blocks with stream interfaces', () => {
  it('give the same outputs, cycle for cycle, as before on fixed-seed suite cases and the workload', async () => {
    expect(Object.keys(recorded).length).toBeGreaterThan(20);
    expect(await cycleDigests()).toEqual(recorded);
  }, 60_000);
});
