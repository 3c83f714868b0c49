import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UserError } from '../../common/errors.ts';
import type { RegressSuite } from '../regress/suite.ts';
import { decoderSuites } from './decoder.ts';
import { fpSuites } from './fp.ts';
import { mmaSuites } from './mma.ts';
import { fuzzSuites } from './fuzz.ts';

/**
 * Every regression suite, bottom up. A new block adds its suites here (`{ name, groups, … }`,
 * see suite.ts); `--suite` selects by name or group.
 */
export const REGRESS_SUITES: readonly RegressSuite[] = [...fpSuites, ...decoderSuites, ...mmaSuites, ...fuzzSuites];

/**
 * Suites from a module that exports `suites: RegressSuite[]` (`--load FILE`): extra suites
 * (e.g. a test's fixture with a planted bug) that the CLI, its workers and replays all see.
 */
export async function loadSuiteModule(file: string): Promise<RegressSuite[]> {
  let module: { suites?: unknown };
  try {
    module = (await import(pathToFileURL(resolve(file)).href)) as { suites?: unknown };
  } catch (error) {
    throw new UserError(`cannot load suites from ${file}: ${(error as Error).message.split('\n')[0]}`);
  }
  if (!Array.isArray(module.suites))
    throw new UserError(`${file} must export \`suites\`, an array of regression suites`);
  return module.suites as RegressSuite[];
}

/** Every suite known with the extra modules loaded. */
export async function knownSuites(loadFiles: readonly string[]): Promise<RegressSuite[]> {
  const extra = (await Promise.all(loadFiles.map(loadSuiteModule))).flat();
  return [...REGRESS_SUITES, ...extra];
}

/** `--suite` choices: `all`, a group, or a suite name (several comma-separated). */
export function selectSuites(known: readonly RegressSuite[], selection: string): RegressSuite[] {
  const wanted = selection
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  const chosen = known.filter((suite) =>
    wanted.some((name) => name === 'all' || name === suite.name || suite.groups.includes(name)),
  );
  const unknown = wanted.filter(
    (name) => name !== 'all' && !known.some((suite) => suite.name === name || suite.groups.includes(name)),
  );
  if (unknown.length > 0 || chosen.length === 0) {
    const groups = [...new Set(known.flatMap((suite) => suite.groups))];
    throw new UserError(
      `unknown suite '${unknown[0] ?? selection}' (known: all, ${[...groups, ...known.map((suite) => suite.name)].join(', ')})`,
    );
  }
  return chosen;
}
