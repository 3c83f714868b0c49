/**
 * Loading a user's module file (a design, a suite file, a project config) at run time: .js/.mjs
 * with Node's own import, TypeScript (.ts/.mts/.cts) through tsx's API, so a project needs no
 * build step and the framework's installed (compiled) code loads it just the same.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { envMilliseconds, formatSeconds, withDeadline } from '../../common/deadline.ts';
import { UserError } from '../../common/errors.ts';
import { compiledTwinOf, frameworkSourcesUrl } from './compiledTwin.ts';

/**
 * A design, suite or config file that cannot be used: missing, not valid code, exporting nothing
 * usable, or clashing with another. `gen` prints the one line and exits 2 (1 is a failed check).
 */
export class ModuleFileError extends UserError {
  readonly exitCode = 2;

  constructor(
    readonly file: string,
    detail: string,
  ) {
    super(`${file}: ${detail}`);
  }
}

const TYPESCRIPT = new Set(['.ts', '.mts', '.cts', '.tsx']);
const JAVASCRIPT = new Set(['.js', '.mjs', '.cjs']);

let typeScriptRegistered: Promise<void> | undefined;

/**
 * Loader hooks for TypeScript, registered once per thread (they also apply to what the user's file
 * imports, e.g. its own .ts helpers), globally: one module instance per file keeps a design and the
 * framework it imports a single copy, and stack frames (source locations in the Verilog) name the
 * real file and line. The installed (compiled) framework registers its own light hooks
 * (typescriptHooks.ts: esbuild with a content-hashed cache, no tsx start-up); run from its
 * TypeScript sources (this repository, its tests) it is already under tsx and registers tsx's.
 */
function ensureTypeScript(): Promise<void> {
  typeScriptRegistered ??= import.meta.url.endsWith('.js')
    ? registerCompiledHooks()
    : import('tsx/esm/api').then((tsx) => {
        tsx.register();
      });
  return typeScriptRegistered;
}

async function registerCompiledHooks(): Promise<void> {
  const { register } = await import('node:module');
  // The compiled files carry inline source maps; Node applies them to stack traces only when asked.
  process.setSourceMapsEnabled(true);
  const frameworkSources = process.env['GEN_FRAMEWORK_SOURCES'];
  register(new URL('./typescriptHooks.js', import.meta.url), { data: { frameworkSources } });
}

/**
 * The compiled twin of a checkout source gen is asked to load, when this compiled framework runs
 * as a copy of that checkout: imported directly, it is the module the hooks would give, and its
 * imports are the compiled framework's own. Without the hooks' thread, whose messages cost about
 * 0.3 s of CPU per `gen` run (docs/performance.md, "Verilator's headers precompiled, and no loader
 * hooks for a compiled twin").
 */
function compiledTwinOfFile(url: string): string | undefined {
  if (!import.meta.url.endsWith('.js')) return undefined;
  return compiledTwinOf(
    url,
    frameworkSourcesUrl(process.env['GEN_FRAMEWORK_SOURCES']),
    new URL('../../', import.meta.url),
  );
}

/**
 * What went wrong, in one line: a compile error as `line L:C: message` (esbuild's report, behind
 * tsx, starts with "Transform failed" and names the position on a later line), else the first line.
 */
function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const compile = /:(\d+):(\d+): ERROR: (.*)/.exec(text);
  if (compile) return `line ${compile[1]}:${compile[2]}: ${compile[3]!.trim()}`;
  return (text.split('\n').find((line) => line.trim() !== '') ?? text).trim();
}

/**
 * Imports `file` (relative to the working directory) and returns its exports. A missing file, a
 * file of another kind, or one that fails to load (syntax error, failing import, exception at top
 * level) is a ModuleFileError naming `shown` (the path as the user wrote it, by default `file`).
 */
export async function importModuleFile(file: string, shown: string = file): Promise<Record<string, unknown>> {
  const path = resolve(file);
  if (!existsSync(path)) throw new ModuleFileError(shown, 'no such file');
  if (!statSync(path).isFile()) throw new ModuleFileError(shown, 'not a file');
  const extension = extname(path);
  if (!TYPESCRIPT.has(extension) && !JAVASCRIPT.has(extension))
    throw new ModuleFileError(
      shown,
      `not a module file (.ts, .mts, .js or .mjs), got '${extension || 'no extension'}'`,
    );
  const url = pathToFileURL(path).href;
  const twin = compiledTwinOfFile(url);
  // A twin's stack frames (the source locations the Verilog cites) name the sources, as under the
  // hooks. Run as a compiled copy of the checkout, any other file may import the checkout's sources
  // by path: the hooks load their compiled twins.
  if (twin !== undefined) process.setSourceMapsEnabled(true);
  else if (TYPESCRIPT.has(extension) || process.env['GEN_FRAMEWORK_SOURCES'] !== undefined) await ensureTypeScript();
  const bound = envMilliseconds(LOAD_TIMEOUT_ENV) ?? LOAD_TIMEOUT_MS;
  try {
    return await withDeadline(
      bound,
      `${shown}: did not finish loading within ${formatSeconds(bound)} (a loop or a wait at import?); ${LOAD_TIMEOUT_ENV}=<ms> sets another bound`,
      () => import(twin ?? url) as Promise<Record<string, unknown>>,
    );
  } catch (error) {
    if (error instanceof ModuleFileError) throw error;
    if (isRequireOfEsm(error)) throw new ModuleFileError(shown, commonJsAdvice(path));
    throw new ModuleFileError(shown, `cannot load: ${firstLine(error)}`);
  }
}

/**
 * Node's refusals when CommonJS code requires an ES module (the framework is one), and the
 * installed framework's loader's refusal of a `.ts` file outside a module package (typescriptHooks.ts).
 */
const REQUIRE_ESM_CODES = new Set([
  'ERR_REQUIRE_ESM',
  'ERR_REQUIRE_CYCLE_MODULE',
  'ERR_REQUIRE_ASYNC_MODULE',
  'ERR_UNKNOWN_FILE_EXTENSION',
]);

function isRequireOfEsm(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return (code !== undefined && REQUIRE_ESM_CODES.has(code)) || /Cannot require\(\) ES Module/.test(String(error));
}

/**
 * Why a design in a CommonJS folder fails, and the two ways out: Node (and tsx with it) compiles a
 * .ts/.js file to CommonJS unless the nearest package.json says "type": "module", and CommonJS
 * cannot require the framework's ES modules.
 */
function commonJsAdvice(path: string): string {
  const manifest = nearestPackageJson(dirname(path));
  const where = manifest === undefined ? 'no package.json above it' : relative(process.cwd(), manifest);
  return `loaded as CommonJS: ${where} does not say "type": "module"; add "type": "module" there, or name the file .mts`;
}

function nearestPackageJson(folder: string): string | undefined {
  for (let current = folder; ; current = dirname(current)) {
    const candidate = join(current, 'package.json');
    if (existsSync(candidate)) return candidate;
    if (dirname(current) === current) return undefined;
  }
}

/** How long loading one module file may take (its imports included) before gen gives up. */
export const LOAD_TIMEOUT_MS = 120_000;
/** Environment variable that sets another load bound, in milliseconds. */
export const LOAD_TIMEOUT_ENV = 'GEN_LOAD_TIMEOUT_MS';
