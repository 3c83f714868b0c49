/** The file-naming rule `make lint` runs (scripts/checkFileNames.ts) on names it must take and refuse. */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileNameProblem, fileNameProblems } from '../../scripts/checkFileNames.ts';

describe('file-naming rule', () => {
  it.each([
    'hw/designs/decoder/bitmapDecoder.ts',
    'tests/hw/designs/decoder/bitmapDecoder.test.ts',
    'tests/soak/readers.soak.test.ts',
    'bench/memoryModel.bench.ts',
    'vitest.config.ts',
    'engines/tsEngine.ts',
    'hw/ir/ir.ts',
    'docs/Not_A_Module.md',
  ])('accepts %s', (path) => {
    expect(fileNameProblem(path)).toBeUndefined();
  });

  it.each([
    'hw/designs/decoder/BitmapDecoder.ts',
    'hw/designs/decoder/bitmap_decoder.ts',
    'hw/designs/decoder/bitmap-decoder.ts',
    'tests/hw/bitmapDecoder.spec.ts',
    'tests/hw/bitmapDecoder.Test.ts',
    'tests/hw/bitmapDecoder.test.helper.ts',
    'hw/core/9lives.ts',
  ])('refuses %s, naming the file', (path) => {
    expect(fileNameProblem(path)).toMatch(new RegExp(`^${path.replace(/[.]/g, '\\.')}: .*camelCase`));
  });

  it('reports only the misnamed files of a list, in order', () => {
    expect(
      fileNameProblems(['a/okName.ts', 'a/Bad.ts', 'b/bad_name.test.ts']).map((line) => line.split(':')[0]),
    ).toEqual(['a/Bad.ts', 'b/bad_name.test.ts']);
  });

  it('passes on the work tree, as make lint runs it', () => {
    const root = resolve(import.meta.dirname, '../..');
    expect(() => execFileSync('npx', ['tsx', 'scripts/checkFileNames.ts'], { cwd: root, stdio: 'pipe' })).not.toThrow();
  });
});
