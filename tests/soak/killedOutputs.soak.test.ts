import { afterAll, describe } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SOAK } from '../hardening/fuzzHarness.ts';
import { describeKilledOutputs } from '../hardening/killedOutputs.ts';

// `make soak` (SOAK=1): the kill tests of tests/hardening/outputs.test.ts at many more moments.
describe.skipIf(!SOAK)('killed writers, many moments', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'soak-killed-outputs-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  describeKilledOutputs(scratch, {
    manyFiles: [0, 100, 200, 400, 700, 1000, 1500, 2500],
    verilogAll: [0, 4, 8, 16, 32, 64],
  });
});
