/**
 * docs/api.md from the doc comments of the package's entry points (api/*.ts, one per `exports`
 * subpath). `npx tsx scripts/apiReference.ts` rewrites the file; tests/package/apiReference.test.ts
 * checks that it is current and that every export has a doc comment.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const API_REFERENCE_FILE = join(ROOT, 'docs', 'api.md');

/** One name an entry point exports. */
export interface ApiExport {
  readonly name: string;
  readonly kind: string;
  /** The doc comment's text, one line; empty when there is none. */
  readonly doc: string;
}

/** One `exports` subpath of package.json and its entry module. */
export interface ApiEntry {
  readonly subpath: string;
  readonly specifier: string;
  readonly file: string;
  readonly doc: string;
  readonly exports: readonly ApiExport[];
}

interface PackageJson {
  readonly name: string;
  readonly exports: Readonly<Record<string, string | { readonly default: string }>>;
}

/** The entry modules in the order package.json lists them: `./dist/api/x.js` → `api/x.ts`. */
export function apiEntryFiles(): { subpath: string; specifier: string; file: string }[] {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson;
  return Object.entries(manifest.exports).flatMap(([subpath, target]) => {
    const built = typeof target === 'string' ? target : target.default;
    const match = /^\.\/dist\/(api\/[A-Za-z]+)\.js$/.exec(built);
    if (!match) return [];
    return [{ subpath, specifier: manifest.name + subpath.slice(1), file: `${match[1]}.ts` }];
  });
}

/** Text of a JSDoc comment (`/** … *\/`) as one line, without the stars. */
function commentText(raw: string): string {
  return raw
    .replace(/^\/\*\*/, '')
    .replace(/\*\/$/, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, '').trim())
    .filter(Boolean)
    .join(' ');
}

/** The last JSDoc comment right before a node. */
function docBefore(source: ts.SourceFile, node: ts.Node): string {
  const ranges = ts.getLeadingCommentRanges(source.text, node.getFullStart()) ?? [];
  const docs = ranges.map((range) => source.text.slice(range.pos, range.end)).filter((text) => text.startsWith('/**'));
  return docs.length > 0 ? commentText(docs[docs.length - 1]!) : '';
}

function kindOf(checker: ts.TypeChecker, specifier: ts.ExportSpecifier): string {
  let symbol = checker.getSymbolAtLocation(specifier.name);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const flags = symbol?.flags ?? 0;
  if (flags & ts.SymbolFlags.Class) return 'class';
  if (flags & ts.SymbolFlags.Function) return 'function';
  if (flags & ts.SymbolFlags.Interface) return 'interface';
  if (flags & ts.SymbolFlags.TypeAlias) return 'type';
  if (flags & ts.SymbolFlags.Variable) return 'const';
  if (flags & ts.SymbolFlags.ValueModule) return 'namespace';
  return 'value';
}

/** Every entry point with its module comment and its exports (name, kind, doc comment). */
export function readApi(): ApiEntry[] {
  const entries = apiEntryFiles();
  const program = ts.createProgram(
    entries.map((entry) => join(ROOT, entry.file)),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      allowImportingTsExtensions: true,
      noEmit: true,
      strict: true,
      skipLibCheck: true,
      esModuleInterop: true,
      types: ['node'],
    },
  );
  const checker = program.getTypeChecker();
  return entries.map((entry) => {
    const source = program.getSourceFile(join(ROOT, entry.file));
    if (!source) throw new Error(`${entry.file} (package.json exports ${entry.subpath}) does not exist`);
    const first = source.statements[0];
    const exports: ApiExport[] = [];
    for (const statement of source.statements) {
      if (!ts.isExportDeclaration(statement) || !statement.exportClause || !ts.isNamedExports(statement.exportClause))
        continue;
      const specifiers = statement.exportClause.elements;
      for (const specifier of specifiers) {
        // A lone re-export may carry its comment on the statement instead (`/** … */ export { default as fc } …`).
        const doc =
          docBefore(source, specifier) ||
          (specifiers.length === 1 && statement !== first ? docBefore(source, statement) : '');
        exports.push({ name: specifier.name.text, kind: kindOf(checker, specifier), doc });
      }
    }
    return { ...entry, doc: first ? docBefore(source, first) : '', exports };
  });
}

const cell = (text: string): string => text.replace(/\|/g, '\\|');

/** How the package is made and run: the part of the reference that is not in the doc comments. */
const PACKAGE_NOTES = [
  '## The package',
  '',
  '- `npm run build` compiles the framework with `tsc -p tsconfig.build.json` into `dist/`: JavaScript, and',
  '  `.d.ts` files whose imports name `.js` files, so a project type-checks them with no special compiler',
  '  flags. `npm pack` and `npm publish` run it themselves (`prepack`). The package ships `dist/` and',
  '  `bin/gen.js`, not the TypeScript sources or the tests. Each import path is one file in `api/`, which',
  '  only re-exports.',
  '- `gen` (`bin/gen.js`) runs `dist/` in an installed package; in a checkout of the framework it runs the',
  '  TypeScript sources through tsx, so nothing there needs a build and a stale `dist/` is never run.',
  '  The tests spawn it compiled instead: their global set-up (`tests/support/compiledGen.ts`) compiles',
  "  the checkout once per run with esbuild into the run's temporary folder and names it in",
  '  `$GEN_COMPILED_CHECKOUT`, which bin/gen.js then runs (a third of the CPU of a tsx start).',
  '- Design, suite and config files of a project are loaded at run time by tsx, a runtime dependency: the',
  '  checkout already runs on it, it maps the `./x.js` imports of a NodeNext project to `./x.ts`, and its',
  '  hooks also compile the files a design imports; jiti would have been a second loader for the same job.',
  '- `gen init [dir]` writes a project: a design, its golden model, a vitest test on every installed engine,',
  '  a regression suite, a vector file, `gen.config.ts`, `tsconfig.json` and a README. `--framework',
  '  file:<tarball>` makes it depend on a packed checkout instead of the running version.',
];

/** docs/api.md. */
export function apiReference(entries: readonly ApiEntry[] = readApi()): string {
  const lines = [
    '# API reference',
    '',
    '<!-- Written by `npx tsx scripts/apiReference.ts` from the doc comments in api/; edit those, not this file. -->',
    '',
    'Every public export of the package, by import path. Anything not listed here is internal and may change.',
    'Types carry their full documentation in the `.d.ts` files the package ships (your editor shows it).',
    '',
    '| import from | what |',
    '|---|---|',
    ...entries.map(
      (entry) => `| [\`${entry.specifier}\`](#${anchor(entry.specifier)}) | ${cell(firstSentence(entry.doc))} |`,
    ),
    '',
    ...PACKAGE_NOTES,
  ];
  for (const entry of entries) {
    lines.push('', `## \`${entry.specifier}\``, '', entry.doc, '', '| export | kind | what |', '|---|---|---|');
    for (const item of entry.exports) lines.push(`| \`${item.name}\` | ${item.kind} | ${cell(item.doc)} |`);
  }
  return `${lines.join('\n')}\n`;
}

const anchor = (specifier: string): string => specifier.toLowerCase().replace(/[^a-z0-9 -]/g, '');

/** The module comment without its leading "`specifier`:" label. */
function firstSentence(doc: string): string {
  return doc.replace(/^`[^`]+`:\s*/, '');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(API_REFERENCE_FILE, apiReference());
  process.stdout.write(`wrote ${API_REFERENCE_FILE}\n`);
}
