import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_REFERENCE_FILE, apiEntryFiles, apiReference, readApi } from '../../scripts/apiReference.ts';

const root = join(import.meta.dirname, '..', '..');
const api = readApi();

describe('the public API', () => {
  it('has one entry module in api/ per package.json export, and no other', () => {
    const files = readdirSync(join(root, 'api'))
      .filter((name) => name.endsWith('.ts'))
      .map((name) => `api/${name}`)
      .sort();
    expect(
      apiEntryFiles()
        .map((entry) => entry.file)
        .sort(),
    ).toEqual(files);
    expect(api.map((entry) => entry.subpath)).toContain('.');
  });

  it('gives every entry module a comment naming its import path, and every export a doc comment', () => {
    for (const entry of api) {
      expect(entry.doc, entry.file).toMatch(new RegExp(`^\`${entry.specifier}\`: \\S`));
      expect(entry.exports.length, entry.file).toBeGreaterThan(0);
      const undocumented = entry.exports.filter((item) => item.doc.length < 10).map((item) => item.name);
      expect(undocumented, `exports of ${entry.file} without a doc comment`).toEqual([]);
    }
  });

  it('exports each name from one entry point only', () => {
    const names = api.flatMap((entry) => entry.exports.map((item) => item.name));
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });

  it('is listed in docs/api.md as generated from the doc comments (npx tsx scripts/apiReference.ts)', () => {
    const written = readFileSync(API_REFERENCE_FILE, 'utf8');
    for (const entry of api)
      for (const item of entry.exports)
        expect(written, `${item.name} of ${entry.specifier}`).toContain(`| \`${item.name}\` |`);
    expect(written).toBe(apiReference(api));
  });
});
