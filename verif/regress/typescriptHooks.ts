/**
 * Module loader hooks (Node's `module.register`) that let the installed framework import a user's
 * TypeScript files without tsx: `.ts`/`.mts` compiled by typescriptCompile.ts, and an import
 * written `./x.js` (TypeScript's NodeNext style) resolved to `./x.ts` when only that exists.
 * tsx's own start-up costs about half a second of CPU, more than a whole `gen sim` may take.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledTwinOf, frameworkSourcesUrl } from './compiledTwin.ts';
import { compileTypeScript } from './typescriptCompile.ts';

const TYPESCRIPT_URL = /\.m?ts$/;

/** The checkout this compiled framework was built from (compiledTwin.ts), when it runs as a copy of it. */
let sourcesUrl: string | undefined;
/** The compiled tree's root: this file is its verif/regress/typescriptHooks.js. */
const COMPILED_ROOT = new URL('../../', import.meta.url);

/** Node's hook set-up, with what `register` passed (the hooks' thread does not see later changes to the environment). */
export function initialize(data: { readonly frameworkSources?: string } | undefined): void {
  sourcesUrl = frameworkSourcesUrl(data?.frameworkSources);
}
const twins = new Map<string, string | undefined>();

function compiledTwin(url: string): string | undefined {
  if (!twins.has(url)) twins.set(url, compiledTwinOf(url, sourcesUrl, COMPILED_ROOT));
  return twins.get(url);
}

interface ResolveContext {
  readonly parentURL?: string;
}
interface Resolved {
  readonly url: string;
  readonly format?: string | null;
  readonly shortCircuit?: boolean;
}
type NextResolve = (specifier: string, context: ResolveContext) => Promise<Resolved>;

/**
 * A relative `.js` import from a TypeScript file falls back to the `.ts` file beside it; a source
 * file of `$GEN_FRAMEWORK_SOURCES` resolves to its compiled twin.
 */
export async function resolve(specifier: string, context: ResolveContext, next: NextResolve): Promise<Resolved> {
  const resolved = await nextOrTypeScript(specifier, context, next);
  const twin = compiledTwin(resolved.url);
  return twin === undefined ? resolved : { url: twin, format: 'module', shortCircuit: true };
}

async function nextOrTypeScript(specifier: string, context: ResolveContext, next: NextResolve): Promise<Resolved> {
  try {
    return await next(specifier, context);
  } catch (error) {
    const fromTypeScript = context.parentURL !== undefined && TYPESCRIPT_URL.test(context.parentURL);
    if (!fromTypeScript || !specifier.startsWith('.') || !/\.m?js$/.test(specifier)) throw error;
    return next(specifier.replace(/js$/, 'ts'), context);
  }
}

interface LoadContext {
  readonly format?: string | null;
}
interface Loaded {
  readonly format: string;
  readonly source?: string | ArrayBuffer | Uint8Array;
  readonly shortCircuit?: boolean;
}
type NextLoad = (url: string, context: LoadContext) => Promise<Loaded>;

/** Whether the nearest package.json above `folder` says `"type": "module"` (as Node decides for a .js file). */
function inModulePackage(folder: string): boolean {
  for (let current = folder; ; current = dirname(current)) {
    const manifest = join(current, 'package.json');
    if (existsSync(manifest))
      return (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: unknown }).type === 'module';
    if (dirname(current) === current) return false;
  }
}

/**
 * A `.mts` file, or a `.ts` file in a `"type": "module"` package, is compiled to an ES module;
 * everything else loads as Node would (a CommonJS `.ts` file is refused as an unknown extension,
 * which gen explains: the framework is ES modules, a CommonJS file cannot import it).
 */
export async function load(url: string, context: LoadContext, next: NextLoad): Promise<Loaded> {
  if (!url.startsWith('file:') || !TYPESCRIPT_URL.test(url)) return next(url, context);
  const path = fileURLToPath(url);
  if (url.endsWith('.ts') && !inModulePackage(dirname(path))) return next(url, context);
  return { format: 'module', source: compileTypeScript(readFileSync(path, 'utf8'), path), shortCircuit: true };
}
