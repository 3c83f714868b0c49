import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SOAK } from '../hardening/fuzzHarness.ts';
import { hasTool } from '../../tools/toolchain.ts';
import { proveDesign } from '../../verif/formal/prove.ts';
import { expectedVerdicts, OPERATORS, temporalDesign, verdicts } from '../support/temporalOperators.ts';

const out = mkdtempSync(join(tmpdir(), 'gen-temporal-soak-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe.skipIf(!SOAK || !hasTool('yosys') || !hasTool('yosys-abc'))('every temporal operator in gen prove', () => {
  it('proves each true case and fails each false one in the cycle simulation fails it', async () => {
    const results = await proveDesign(temporalDesign(), { depth: 30, seconds: 20, out });
    expect(verdicts(results, 'assert')).toEqual(expectedVerdicts(OPERATORS));
  }, 600_000);
});
