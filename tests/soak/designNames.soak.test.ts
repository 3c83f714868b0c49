import { afterAll, describe, it } from 'vitest';
import { SOAK } from '../hardening/fuzzHarness.ts';
import { designFolder } from '../hardening/support/designFolder.ts';
import { KEYWORD_DESIGN, KEYWORD_VECTORS, expectEnginesAgree } from '../hardening/support/keywordDesign.ts';
import { hasTool } from '../../tools/toolchain.ts';

// `make soak` (SOAK=1): the Verilator leg of tests/hardening/designNames.test.ts (a build takes ~20 s).
describe.skipIf(!SOAK || !hasTool('verilator'))('keyword names on Verilator', () => {
  const folder = designFolder({ 'keywords.ts': KEYWORD_DESIGN, 'vectors.jsonl': KEYWORD_VECTORS });
  afterAll(folder.remove);

  it('gen sim --vcd: the Verilator trace names the signals by their DSL names and agrees with ts', async () => {
    await expectEnginesAgree(folder.root, ['ts', 'verilator']);
  }, 600_000);
});
