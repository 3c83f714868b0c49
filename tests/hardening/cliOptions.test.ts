import { afterAll, describe, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fuzzReaderAsync } from './fuzzHarness.ts';
import { cliTarget } from './cliTargets.ts';

// 10^3 hostile option sets here; `make soak` runs 10^5. Replay: FC_SEED=<printed seed> npx vitest run tests/hardening/cliOptions.test.ts
const scratch = mkdtempSync(join(tmpdir(), 'hardening-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('gen option values', () => {
  const target = cliTarget(join(scratch, 'verilog'));
  it(
    'are accepted or refused with a one-line UserError, quickly',
    () => fuzzReaderAsync(target.name, target.inputs, target.run),
    300_000,
  );
});
