/**
 * The user's project as every `gen` command sees it: the config file found from the working
 * directory, the designs it lists plus those given with `--design`, its suites, workloads and
 * defaults. The framework's own designs are nothing special: this repository's gen.config.ts lists
 * them like any project's.
 */
import { dirname, resolve } from 'node:path';
import { FieldError, UserError } from '../../common/errors.ts';
import { findConfigFile, setProjectRoot } from '../../common/projectRoot.ts';
import { isModuleDefinition, type ModuleDefinition } from '../../hw/core/index.ts';
import { setBuildRoot } from '../../tools/buildCache.ts';
import { importModuleFile, ModuleFileError } from '../../verif/regress/moduleFile.ts';
import { loadSuites, shownPath, type SuiteSources } from '../../verif/regress/suiteSources.ts';
import type { RegressSuite } from '../../verif/regress/suite.ts';
import type { DesignEntry, ProjectConfig, ProjectDefaults, SynthesisWorkload } from './config.ts';
import type { GenPlugin } from './plugin.ts';

/** A design the commands can elaborate by name. */
export interface RegisteredTop {
  readonly name: string;
  readonly definition: ModuleDefinition;
  readonly description: string;
  /** Its group: the config's group name, 'design' for a plain list and for `--design` files. */
  readonly kind: string;
  /** The file it came from (absolute), or the config file for definitions listed in it. */
  readonly file: string;
}

/** Everything the commands know of the project. */
export interface Project {
  /** The project root: the config's folder, else the working directory. */
  readonly root: string;
  readonly configFile?: string;
  readonly config: ProjectConfig;
  readonly tops: readonly RegisteredTop[];
  readonly defaults: ProjectDefaults;
  readonly workloads: Readonly<Record<string, SynthesisWorkload>>;
  /** The plugins the config enables, in its order. */
  readonly plugins: readonly GenPlugin[];
  /** The `--design` files (absolute), for replay commands. */
  readonly designFiles: readonly string[];
}

/** The top of that name, or a UserError listing the known ones. */
export function findTop(tops: readonly RegisteredTop[], name: string): RegisteredTop {
  const found = tops.find((top) => top.name === name);
  if (found) return found;
  if (tops.length === 0)
    throw new UserError(
      `unknown top '${name}': the project has no designs (list design files in gen.config.ts, or load one)`,
    );
  throw new UserError(`unknown top '${name}' (known: ${tops.map((top) => top.name).join(', ')})`);
}

/** Collects tops, refusing two different definitions of one name (the same one twice is fine). */
class TopTable {
  readonly tops: RegisteredTop[] = [];

  add(definition: ModuleDefinition, kind: string, file: string): void {
    const earlier = this.tops.find((top) => top.name === definition.name);
    if (earlier?.definition === definition) return;
    if (earlier)
      throw new ModuleFileError(
        shownPath(file),
        `a second module named '${definition.name}' (the first is in ${shownPath(earlier.file)})`,
      );
    this.tops.push({ name: definition.name, definition, description: definition.description ?? '', kind, file });
  }
}

/** The module definitions a design file exports (each once, in export order). */
export async function designFileModules(file: string): Promise<ModuleDefinition[]> {
  const exports = await importModuleFile(file, shownPath(file));
  const found = [...new Set(Object.values(exports).filter(isModuleDefinition))];
  if (found.length === 0)
    throw new ModuleFileError(shownPath(file), 'exports no module definition (export const X = defineModule({…}))');
  const names = new Set<string>();
  for (const definition of found) {
    if (names.has(definition.name))
      throw new ModuleFileError(shownPath(file), `exports two modules named '${definition.name}'`);
    names.add(definition.name);
  }
  return found;
}

async function addDesigns(table: TopTable, entries: readonly DesignEntry[], kind: string, configFile: string) {
  for (const [index, entry] of entries.entries()) {
    if (typeof entry === 'string') {
      const file = resolve(dirname(configFile), entry);
      for (const definition of await designFileModules(file)) table.add(definition, kind, file);
    } else if (isModuleDefinition(entry)) table.add(entry, kind, configFile);
    else
      throw new ModuleFileError(
        shownPath(configFile),
        `designs entry ${index} is neither a file path nor a module definition`,
      );
  }
}

/** Those of `files` (absolute) that export at least one module definition. */
export async function filesWithModules(files: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const file of files)
    if (Object.values(await importModuleFile(file, shownPath(file))).some(isModuleDefinition)) found.push(file);
  return found;
}

const isPlugin = (value: unknown): value is GenPlugin =>
  typeof value === 'object' && value !== null && typeof (value as GenPlugin).name === 'string';

/** The config's default export, checked for shape (not for every field's type: tsc does that). */
async function loadConfig(file: string): Promise<ProjectConfig> {
  const config = (await importModuleFile(file, shownPath(file)))['default'];
  if (typeof config !== 'object' || config === null)
    throw new ModuleFileError(shownPath(file), 'must `export default defineConfig({…})`');
  const { designs, suites } = config as ProjectConfig;
  if (designs !== undefined && typeof designs !== 'object')
    throw new ModuleFileError(shownPath(file), '`designs` must be a list or lists by group');
  if (suites !== undefined && !Array.isArray(suites))
    throw new ModuleFileError(shownPath(file), '`suites` must be a list');
  const { plugins } = config as ProjectConfig;
  if (plugins !== undefined && (!Array.isArray(plugins) || !plugins.every(isPlugin)))
    throw new ModuleFileError(shownPath(file), '`plugins` must be a list of plugins (definePlugin({ name, … }))');
  return config as ProjectConfig;
}

export interface ProjectOptions {
  /** Where to start looking for the config (default: the working directory). */
  readonly cwd?: string;
  /** `--design` files, relative to the working directory. */
  readonly designs?: readonly string[];
  /** Skip the config file (`--no-config`). */
  readonly noConfig?: boolean;
}

/**
 * Finds and loads the project: its config (if any) and `--design` files. Fixes the project root
 * (source locations in generated files) and the build cache for the rest of the process.
 */
export async function loadProject(options: ProjectOptions = {}): Promise<Project> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const configFile = options.noConfig ? undefined : findConfigFile(cwd);
  const root = configFile === undefined ? cwd : dirname(configFile);
  setProjectRoot(root);
  const config = configFile === undefined ? {} : await loadConfig(configFile);
  const defaults = config.defaults ?? {};
  setBuildRoot(resolve(root, defaults.cache ?? '.gen-cache'));
  const table = new TopTable();
  const plugins = config.plugins ?? [];
  if (configFile !== undefined) {
    const groups = Array.isArray(config.designs)
      ? [['design', config.designs] as const]
      : Object.entries((config.designs ?? {}) as Record<string, readonly DesignEntry[]>);
    for (const [kind, entries] of [...groups, ...plugins.flatMap((plugin) => Object.entries(plugin.designs ?? {}))])
      await addDesigns(table, entries, kind, configFile);
  }
  const designFiles = (options.designs ?? []).map((file) => resolve(cwd, file));
  for (const file of designFiles)
    for (const definition of await designFileModules(file)) table.add(definition, 'design', file);
  return {
    root,
    ...(configFile === undefined ? {} : { configFile }),
    config,
    tops: table.tops,
    defaults,
    workloads: Object.assign({}, ...plugins.map((plugin) => plugin.synthesis?.workloads), config.synthesis?.workloads),
    plugins,
    designFiles,
  };
}

/**
 * The plugins of the config found from `cwd` (none without a config): what `gen` reads before its
 * command line, to offer the plugins' commands. Loading the config imports what it imports.
 */
export async function projectPlugins(cwd: string = process.cwd()): Promise<readonly GenPlugin[]> {
  const configFile = findConfigFile(resolve(cwd));
  return configFile === undefined ? [] : ((await loadConfig(configFile)).plugins ?? []);
}

/** The project's suites and `--load` suite files, and where they came from (for workers and replays). */
export async function projectSuites(
  project: Project,
  loadFiles: readonly string[],
): Promise<{ suites: RegressSuite[]; sources: SuiteSources }> {
  const files = loadFiles.map((file) => resolve(file));
  const sources: SuiteSources = { ...(project.configFile === undefined ? {} : { config: project.configFile }), files };
  return { suites: await loadSuites(sources), sources };
}

/** Parses `k=v` parameter overrides against a top's defaults (numbers, booleans, strings by the default's type). */
export function parseParams(top: RegisteredTop, pairs: readonly string[]): Record<string, number | boolean | string> {
  const params: Record<string, number | boolean | string> = {};
  for (const pair of pairs) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(pair);
    if (!match) throw new FieldError('param', `'${pair}' is not of the form name=value`);
    const [, key, text] = match as unknown as [string, string, string];
    const fallback = top.definition.defaults[key];
    if (fallback === undefined)
      throw new UserError(
        `${top.name} has no parameter '${key}' (it has: ${Object.keys(top.definition.defaults).join(', ') || 'none'})`,
      );
    if (typeof fallback === 'number') {
      const value = Number(text);
      if (!Number.isInteger(value)) throw new FieldError('param', `${key} needs a whole number, got '${text}'`);
      params[key] = value;
    } else if (typeof fallback === 'boolean') {
      if (text !== 'true' && text !== 'false')
        throw new FieldError('param', `${key} needs true or false, got '${text}'`);
      params[key] = text === 'true';
    } else params[key] = text;
  }
  return params;
}
