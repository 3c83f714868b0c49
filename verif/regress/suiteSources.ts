/**
 * Where a run's regression suites come from: the project config's `suites` and suite files named
 * on the command line. Plain file paths, so worker threads and replays load the same suites the
 * command saw (a suite is code, not data: it cannot be posted to a worker).
 */
import { dirname, relative, resolve } from 'node:path';
import { FieldError, UserError } from '../../common/errors.ts';
import { importModuleFile, ModuleFileError } from './moduleFile.ts';
import type { RegressSuite } from './suite.ts';

/** Absolute paths: the config file (its default export's `suites`) and files exporting `suites`. */
export interface SuiteSources {
  readonly config?: string;
  readonly files: readonly string[];
}

/** How a path is shown in messages: relative to the working directory when inside it. */
export const shownPath = (file: string): string => {
  const path = relative(process.cwd(), file);
  return path === '' || path.startsWith('..') ? file : path;
};

/** A suite as loaded: a plain object may leave out groups and description (see defineSuite). */
function checkedSuite(value: unknown, file: string, index: number): RegressSuite {
  const suite = value as Partial<RegressSuite> | null;
  const problem =
    typeof suite !== 'object' || suite === null
      ? 'is not an object'
      : typeof suite.name !== 'string' || suite.name === ''
        ? 'has no name'
        : typeof suite.design !== 'function' || typeof suite.vectors !== 'function'
          ? `(${suite.name}) needs design(case) and vectors(case) functions`
          : suite.arbitrary === undefined
            ? `(${suite.name}) needs an arbitrary (a fast-check Arbitrary of its cases)`
            : undefined;
  if (problem !== undefined) throw new ModuleFileError(shownPath(file), `suite ${index} ${problem}`);
  const full = suite as RegressSuite;
  return {
    ...full,
    groups: full.groups ?? [],
    description: full.description ?? full.name,
  };
}

/** The suites of a module exporting `suites` (an array of suites). */
export async function loadSuiteFile(file: string): Promise<RegressSuite[]> {
  const module = await importModuleFile(file, shownPath(file));
  if (!Array.isArray(module['suites']))
    throw new ModuleFileError(shownPath(file), 'must export `suites`, an array of regression suites');
  return (module['suites'] as unknown[]).map((suite, index) => checkedSuite(suite, file, index));
}

/** The suites a config lists: suites themselves, or files (relative to the config) exporting them. */
export async function configSuites(configFile: string, entries: readonly unknown[]): Promise<RegressSuite[]> {
  const suites: RegressSuite[] = [];
  for (const [index, entry] of entries.entries()) {
    if (typeof entry === 'string') suites.push(...(await loadSuiteFile(resolve(dirname(configFile), entry))));
    else suites.push(checkedSuite(entry, configFile, index));
  }
  return suites;
}

/** Every suite of `sources`: the config's first, then each file's; two suites may not share a name. */
export async function loadSuites(sources: SuiteSources): Promise<RegressSuite[]> {
  const suites: { suite: RegressSuite; file: string }[] = [];
  if (sources.config !== undefined) {
    const config = (await importModuleFile(sources.config, shownPath(sources.config)))['default'] as
      { suites?: unknown; plugins?: readonly { suites?: unknown }[] } | undefined;
    // The config's own suites, then those of its plugins, in the order it lists them.
    const lists = [
      config?.suites ?? [],
      ...(Array.isArray(config?.plugins) ? config.plugins : []).map((plugin) => plugin.suites ?? []),
    ];
    if (!lists.every(Array.isArray)) throw new ModuleFileError(shownPath(sources.config), '`suites` must be an array');
    const entries = (lists as unknown[][]).flat();
    for (const suite of await configSuites(sources.config, entries)) suites.push({ suite, file: sources.config });
  }
  for (const file of sources.files) for (const suite of await loadSuiteFile(file)) suites.push({ suite, file });
  const byName = new Map<string, { suite: RegressSuite; file: string }>();
  const unique: RegressSuite[] = [];
  for (const entry of suites) {
    const earlier = byName.get(entry.suite.name);
    if (earlier && earlier.suite.design === entry.suite.design && earlier.suite.vectors === entry.suite.vectors)
      continue; // the same suite reached twice (a file the config lists, given again)
    if (earlier)
      throw new ModuleFileError(
        shownPath(entry.file),
        `a second suite named '${entry.suite.name}' (the first is in ${shownPath(earlier.file)})`,
      );
    byName.set(entry.suite.name, entry);
    unique.push(entry.suite);
  }
  return unique;
}

/** `--suite` choices: `all`, a group, or a suite name (several comma-separated). */
export function selectSuites(known: readonly RegressSuite[], selection: string): RegressSuite[] {
  if (known.length === 0)
    throw new FieldError('load', 'is needed: gen.config.ts lists no regression suites (`suites`)');
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
