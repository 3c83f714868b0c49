/**
 * TypeScript to JavaScript for a user's module file, as the installed framework loads it (see
 * typescriptHooks.ts): esbuild's transform with an inline source map (so the DSL's source
 * locations name the user's own lines), cached on disk by content hash, so a file seen before
 * costs one read and no compiler at all. esbuild is the one tsx (a dependency) brings.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/** Bumped when the options below change, so older cache entries are not reused. */
const COMPILE_VERSION = 1;

/** Where compiled files are kept: `$GEN_TS_CACHE`, else a per-user folder in the system's temporary folder. */
export function typescriptCacheFolder(): string {
  return process.env['GEN_TS_CACHE'] ?? join(tmpdir(), `gen-ts-${userInfo().uid}`);
}

type Transform = (source: string, options: Record<string, unknown>) => { code: string };
let transformSync: Transform | undefined;

/** esbuild, loaded on the first cache miss only (it starts a compiler process). */
function esbuildTransform(): Transform {
  if (transformSync === undefined) {
    const fromHere = createRequire(import.meta.url);
    const esbuild = createRequire(fromHere.resolve('tsx/esm/api'))('esbuild') as { transformSync: Transform };
    transformSync = esbuild.transformSync;
  }
  return transformSync;
}

/** The JavaScript (an ES module) of the TypeScript `source` read from `path`, from the cache when it holds it. */
export function compileTypeScript(source: string, path: string): string {
  const key = createHash('sha256').update(`${COMPILE_VERSION}\0${path}\0${source}`).digest('hex');
  const cached = join(typescriptCacheFolder(), `${key}.mjs`);
  try {
    return readFileSync(cached, 'utf8');
  } catch {
    // Not compiled yet (or the cache is gone): compile below.
  }
  const { code } = esbuildTransform()(source, {
    loader: 'ts',
    format: 'esm',
    target: 'node20',
    sourcemap: 'inline',
    sourcefile: path,
  });
  try {
    mkdirSync(typescriptCacheFolder(), { recursive: true });
    // Written aside and renamed, so a reader never sees half a file.
    const aside = `${cached}.${process.pid}.tmp`;
    writeFileSync(aside, code);
    renameSync(aside, cached);
  } catch {
    // A cache that cannot be written (read-only, full) costs speed, not correctness.
  }
  return code;
}
