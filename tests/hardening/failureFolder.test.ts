import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAILURE_FILES, saveFailureFolder, type FailureIdentity } from '../../verif/regress/failureFolder.ts';
import { TsEngine } from '../../engines/ts/tsEngine.ts';
import type { Engine } from '../../hw/contract/engine.ts';
import { suites } from '../verif/regress/fixtures/plantedBug.ts';

/*
 * A failure folder switches from the old contents to the new in one step: a rerun that fails
 * part-way (an engine error, a kill) leaves the previous folder whole, never the new stimulus beside
 * the old VCD and README (before: files were replaced one by one).
 */

const dir = mkdtempSync(join(tmpdir(), 'hardening-failure-folder-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const suite = suites[0]!;
const identity: FailureIdentity = {
  suite: suite.name,
  engine: 'ts',
  runSeed: 1,
  caseIndex: 0,
  caseSeed: 1,
  path: '0',
  shrinks: 0,
  interrupted: false,
};
const failingCase = fc.sample(suite.arbitrary, { seed: 1, numRuns: 1 })[0];

describe('failure folders', () => {
  it('a rerun that fails part-way leaves the previous folder whole; a complete one replaces it whole', async () => {
    const folder = join(dir, 'PlantedBug-ts-1', 'case-0');
    mkdirSync(folder, { recursive: true });
    const old = {
      [FAILURE_FILES.readme]: 'old readme\n',
      [FAILURE_FILES.vectors]: 'old stimulus\n',
      'stale.txt': 'old\n',
    };
    for (const [name, text] of Object.entries(old)) writeFileSync(join(folder, name), text);

    const broken: Engine = {
      ...new TsEngine(),
      name: 'ts',
      run: () => Promise.reject(new Error('engine died')),
    } as unknown as Engine;
    await expect(saveFailureFolder(folder, suite, broken, identity, failingCase, 'replay')).rejects.toThrow(
      'engine died',
    );
    expect(
      Object.fromEntries(readdirSync(folder).map((name) => [name, readFileSync(join(folder, name), 'utf8')])),
    ).toEqual(old);
    expect(readdirSync(join(dir, 'PlantedBug-ts-1'))).toEqual(['case-0']);

    await saveFailureFolder(folder, suite, new TsEngine(), identity, failingCase, 'npx gen regress --replay here');
    const files = readdirSync(folder).sort();
    expect(files).not.toContain('stale.txt');
    expect(files).toEqual(
      expect.arrayContaining([FAILURE_FILES.case, FAILURE_FILES.vectors, FAILURE_FILES.readme, FAILURE_FILES.vcd]),
    );
    expect(readFileSync(join(folder, FAILURE_FILES.readme), 'utf8')).toMatch(/replay: npx gen regress --replay here/);
    expect(readdirSync(join(dir, 'PlantedBug-ts-1'))).toEqual(['case-0']);
  }, 60_000);
});
