/**
 * What tsc says about each mistake in widths.test.ts: the file is compiled again with its
 * `@ts-expect-error` directives taken out, and every line they covered must be an error whose
 * message names what is wrong (both widths, or the names the port list allows), and no other line.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const source = readFileSync(join(here, 'widths.test.ts'), 'utf8').split('\n');
// Under node_modules/.cache, so that 'vitest' and 'fast-check' resolve as they do from the tests.
const cache = resolve(here, '../../node_modules/.cache');
mkdirSync(cache, { recursive: true });
const work = mkdtempSync(join(cache, 'gen-type-errors-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The file without its directives (each replaced by an empty line, so line numbers hold). */
function stripped(): { text: string; mistakeLines: number[] } {
  const mistakeLines: number[] = [];
  const lines = source.map((line, index) => {
    if (!line.trim().startsWith('// @ts-expect-error')) return line;
    mistakeLines.push(index + 1);
    return '';
  });
  // Imports point back into the repository from the temporary folder.
  const text = lines.join('\n').replace(/from '(\.\.\/\.\.\/[^']+)'/g, (_all, path: string) => {
    return `from '${resolve(here, path)}'`;
  });
  return { text, mistakeLines };
}

describe('tsc messages for hardware mistakes', () => {
  it('reports every mistake on its own line, naming the widths or the allowed names', () => {
    const { text, mistakeLines } = stripped();
    const file = join(work, 'mistakes.ts');
    writeFileSync(file, text);
    const program = ts.createProgram([file], {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      noUncheckedIndexedAccess: true,
      allowImportingTsExtensions: true,
      noEmit: true,
      skipLibCheck: true,
      esModuleInterop: true,
      types: ['node'],
      typeRoots: [resolve(here, '../../node_modules/@types')],
    });
    const errors = ts
      .getPreEmitDiagnostics(program)
      .filter((diagnostic) => diagnostic.file?.fileName === file)
      .map((diagnostic) => ({
        line: diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start!).line + 1,
        message: ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
      }));
    // Each directive covers the line after it.
    expect([...new Set(errors.map((error) => error.line))].sort((a, b) => a - b)).toEqual(
      mistakeLines.map((line) => line + 1),
    );
    const messageAt = (needle: string): string => {
      const index = source.findIndex((line) => line.includes(needle));
      return errors.find((error) => error.line === index + 1)?.message ?? '';
    };
    expect(messageAt('io.a8.add(io.b16);')).toMatch(/WidthMismatch<8, 16>/);
    expect(messageAt('io.y8.set(io.b16);')).toMatch(/WidthMismatch<8, 16>/);
    expect(messageAt('mux(io.in_valid, io.a8, io.b16);')).toMatch(/WidthMismatch<8, 16>/);
    expect(messageAt('io.y8.set(cat(io.a8, io.b16));')).toMatch(/WidthMismatch<8, 24>/);
    expect(messageAt("bench.poke('c', 1)")).toMatch(
      /"c"' is not assignable to parameter of type .*("a" \| "b"|"b" \| "a")/,
    );
  }, 120_000);
});
