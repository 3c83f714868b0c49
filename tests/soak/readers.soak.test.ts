import { afterAll, describe, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SOAK, SOAK_RUNS, fuzzReader, fuzzReaderAsync } from '../hardening/fuzzHarness.ts';
import { cliTarget } from '../hardening/cliTargets.ts';
import {
  kernelFormatTarget,
  netlistTarget,
  npyTarget,
  vcdTarget,
  vectorsTarget,
  type ReaderTarget,
} from '../hardening/readerTargets.ts';

// `make soak` (SOAK=1): 10^5 inputs per reader, the same targets as tests/hardening/readers.test.ts.
// Skipped in `make test`, which runs 10^3 of each. Replay: SOAK=1 FC_SEED=<seed> npx vitest run tests/soak/readers.soak.test.ts
const HOUR = 3_600_000;

function fuzzes<T>(makeTarget: () => ReaderTarget<T>): void {
  const target = makeTarget();
  it(target.name, () => fuzzReader(target.name, target.inputs, target.run, SOAK_RUNS), HOUR);
}

describe.skipIf(!SOAK)('readers soak: 10^5 mutated inputs each', () => {
  const scratch = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'soak-readers-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  fuzzes(() => npyTarget);
  fuzzes(() => vectorsTarget);
  fuzzes(() => vcdTarget);
  fuzzes(() => netlistTarget);
  fuzzes(() => kernelFormatTarget(scratch));
});

describe.skipIf(!SOAK)('gen option values soak: 10^5 invocations', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'soak-cli-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const target = cliTarget(join(scratch, 'verilog'));
  it(target.name, () => fuzzReaderAsync(target.name, target.inputs, target.run, SOAK_RUNS), 4 * HOUR);
});
