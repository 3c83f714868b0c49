import { afterAll, describe, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fuzzReader } from './fuzzHarness.ts';
import {
  kernelFormatTarget,
  netlistTarget,
  npyTarget,
  vcdTarget,
  vectorsTarget,
  type ReaderTarget,
} from './readerTargets.ts';

// 10^3 mutated inputs per reader here; `make soak` runs 10^5 (tests/soak/readers.soak.test.ts, same targets).
// Replay: FC_SEED=<printed seed> npx vitest run tests/hardening/readers.test.ts
const scratch = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'hardening-readers-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function fuzzes<T>(target: ReaderTarget<T>): void {
  it(target.name, () => fuzzReader(target.name, target.inputs, target.run), 60_000);
}

describe('readers under byte-level mutation parse or refuse with their own error', () => {
  fuzzes(npyTarget);
  fuzzes(vectorsTarget);
  fuzzes(vcdTarget);
  fuzzes(netlistTarget);
  fuzzes(kernelFormatTarget(scratch));
});
