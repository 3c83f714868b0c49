import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compiledTwinOf, frameworkSourcesUrl } from '../../../verif/regress/compiledTwin.ts';

const scratch = mkdtempSync(join(tmpdir(), 'gen-twin-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const sources = join(scratch, 'checkout');
const compiledRoot = pathToFileURL(join(scratch, 'compiled', 'dist', '/'));
mkdirSync(join(scratch, 'compiled', 'dist', 'hw'), { recursive: true });
writeFileSync(join(scratch, 'compiled', 'dist', 'hw', 'counter.js'), '');
const source = (path: string): string => pathToFileURL(join(sources, path)).href;

describe('compiledTwinOf', () => {
  const sourcesUrl = frameworkSourcesUrl(sources);

  it("maps a checkout's .ts source to the compiled .js beside the same path", () => {
    expect(sourcesUrl).toBe(`${pathToFileURL(sources).href}/`);
    expect(compiledTwinOf(source('hw/counter.ts'), sourcesUrl, compiledRoot)).toBe(
      new URL('hw/counter.js', compiledRoot).href,
    );
  });

  it('gives none for a source without a twin, a file outside the checkout, a .js file, or no checkout', () => {
    expect(compiledTwinOf(source('hw/adder.ts'), sourcesUrl, compiledRoot)).toBeUndefined();
    expect(
      compiledTwinOf(pathToFileURL(join(scratch, 'hw', 'counter.ts')).href, sourcesUrl, compiledRoot),
    ).toBeUndefined();
    expect(compiledTwinOf(source('hw/counter.js'), sourcesUrl, compiledRoot)).toBeUndefined();
    expect(compiledTwinOf(source('hw/counter.ts'), frameworkSourcesUrl(undefined), compiledRoot)).toBeUndefined();
  });

  it('does not take a sibling folder whose name starts with the checkout’s for the checkout', () => {
    const sibling = pathToFileURL(join(`${sources}-other`, 'hw', 'counter.ts')).href;
    expect(compiledTwinOf(sibling, sourcesUrl, compiledRoot)).toBeUndefined();
  });
});
