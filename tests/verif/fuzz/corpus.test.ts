import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TsEngine } from '../../../engines/ts/tsEngine.ts';
import { VerilatorEngine } from '../../../engines/verilator/verilatorEngine.ts';
import { IcarusEngine } from '../../../engines/icarus/icarusEngine.ts';
import { batchDesign, compareEngines, disagreeingMember, parseFuzzCase } from '../../../verif/fuzz/differential.ts';

/**
 * Fuzz cases that once made engines disagree, shrunk and kept (`case.json` from a failure folder
 * of the differential fuzz), replayed on every engine each run so a fixed disagreement stays fixed.
 */
const corpus = join(import.meta.dirname, 'corpus');
const files = readdirSync(corpus)
  .filter((file) => file.endsWith('.json'))
  .sort();

describe('fuzz corpus: past disagreements stay fixed', () => {
  it(`${files.length} saved cases agree on the in-process simulator, Verilator and Icarus`, async () => {
    expect(files).toContain('verilator-5006-signed-compare.json');
    expect(files).toContain('verilator-5006-wide-reduce-fold.json');
    expect(files).toContain('verilator-5006-bit-op-tree-xor.json');
    expect(files).toContain('icarus-time0-combinational-assert.json');
    const cases = files.map((file) => parseFuzzCase(readFileSync(join(corpus, file), 'utf8')));
    const { design, stimulus } = batchDesign(cases, 'FuzzCorpus');
    const disagreement = await compareEngines(design, stimulus, [
      new TsEngine(),
      new VerilatorEngine(),
      new IcarusEngine(),
    ]);
    const member = disagreement ? (disagreeingMember(disagreement) ?? -1) : -1;
    expect(disagreement, `corpus case ${files[member]} disagrees`).toBeUndefined();
  }, 600_000);
});
