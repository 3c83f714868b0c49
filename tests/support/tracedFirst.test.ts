import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LONGEST_SHARED, moveFirst, TRACED_FIRST } from './tracedFirst.ts';

const ROOT = join(import.meta.dirname, '..', '..');

describe('the traced-first order of test files', () => {
  it('names files that exist', () => {
    for (const file of [...TRACED_FIRST, ...LONGEST_SHARED]) expect(existsSync(join(ROOT, file)), file).toBe(true);
  });

  it("moves the named files to the front in the list's order and keeps the others' order", () => {
    const files = ['a', 'b', 'c', 'd', 'e'].map((name) => ({ moduleId: join('/root', 'tests', `${name}.test.ts`) }));
    const sorted = moveFirst(files, '/root', ['tests/d.test.ts', 'tests/missing.test.ts', 'tests/b.test.ts']);
    expect(sorted.map((file) => file.moduleId)).toEqual(
      ['d', 'b', 'a', 'c', 'e'].map((name) => join('/root', 'tests', `${name}.test.ts`)),
    );
  });
});
