/**
 * h200Tables.ts prints the figures the H200 tests hold (minutes of model runs, so not run whole
 * here: its cells and rows are the tests' own, h200Cells.ts and h200Silicon.ts). Held here: it
 * names a section it does not know in one line and exits 1, printing nothing.
 */
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { expectOneLineError } from './probeScript.ts';

const SCRIPT = join(import.meta.dirname, 'h200Tables.ts');

describe('h200Tables.ts', () => {
  it('an unknown section: one line naming it and the sections, exit 1', () => {
    expectOneLineError(
      SCRIPT,
      ['cells', 'tabels'],
      /^h200Tables: tabels: give rows, cells, harness, footprints, parallelism, or nothing for all$/,
      'tsx',
    );
  }, 60_000);
});
