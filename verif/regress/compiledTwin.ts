/**
 * The compiled twin of a checkout's source file: when the framework runs as a compiled copy of its
 * own checkout (`$GEN_FRAMEWORK_SOURCES`, set by bin/gen.js; the tests run gen so), a design or
 * config among the checkout's sources loads as the compiled module the CLI itself runs, so the two
 * share one instance of each framework module. Used by the loader hooks (typescriptHooks.ts) for
 * every import, and by moduleFile.ts for the file gen is asked to load.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The checkout's folder as a file URL ending in `/`, from `$GEN_FRAMEWORK_SOURCES` as given. */
export function frameworkSourcesUrl(sources: string | undefined): string | undefined {
  return sources === undefined ? undefined : pathToFileURL(join(sources, '/')).href;
}

/**
 * The URL of `url`'s compiled twin under `compiledRoot` (the compiled tree's root), or undefined
 * when `url` is no `.ts` file of the checkout at `sourcesUrl` or has no twin there.
 */
export function compiledTwinOf(url: string, sourcesUrl: string | undefined, compiledRoot: URL): string | undefined {
  if (sourcesUrl === undefined || !url.startsWith(sourcesUrl) || !url.endsWith('.ts')) return undefined;
  const candidate = new URL(`${url.slice(sourcesUrl.length, -'.ts'.length)}.js`, compiledRoot);
  return existsSync(candidate) ? candidate.href : undefined;
}
