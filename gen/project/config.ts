/**
 * The project config file, `gen.config.ts` (or `.mts`, `.js`, `.mjs`): what a user's project
 * gives every `gen` command, so no command needs `--design`. `gen` finds it by walking up from the
 * working directory; its folder is the project root (source locations in generated Verilog and
 * the build cache are relative to it). Without a config the working directory is the root and only
 * `--design` files are known.
 *
 * ```ts
 * // gen.config.ts
 * import { defineConfig } from 'coruscant-hdl/config';
 *
 * export default defineConfig({
 *   designs: ['src/counter.ts'],          // every exported module definition becomes a top
 *   suites: ['verif/counterSuite.ts'],    // files exporting `suites` (see RegressSuite)
 *   defaults: { engine: 'verilator' },
 * });
 * ```
 */
import type { EngineName } from '../../hw/contract/engine.ts';
import type { DesignEntry, SuiteEntry, SynthesisConfig } from './entries.ts';
import type { GenPlugin } from './plugin.ts';

export type { RegressSuite, CaseVectors } from '../../verif/regress/suite.ts';
export type { ModuleDefinition, Params } from '../../hw/core/index.ts';
export type { DesignEntry, SuiteEntry, WorkloadOptions, SynthesisWorkload, SynthesisConfig } from './entries.ts';

/** Defaults of the commands; a command-line option always wins. */
export interface ProjectDefaults {
  /** Engine of `gen sim` and `gen regress` (default 'ts'). */
  readonly engine?: EngineName;
  /** Folder the commands write into by default (default 'out'): OUT/verilog, OUT/regress, … */
  readonly out?: string;
  /** Build cache of Verilator/Icarus builds (default '.gen-cache'); `$GEN_CACHE` overrides it. */
  readonly cache?: string;
}

/** A project config. Paths in it are relative to the config file's folder. */
export interface ProjectConfig {
  /**
   * The project's tops: a list, or lists by group (`{ examples: [...], blocks: [...] }`; the group
   * is the second column of `gen list`, 'design' for a plain list). Two tops may not share a name.
   */
  readonly designs?: readonly DesignEntry[] | Readonly<Record<string, readonly DesignEntry[]>>;
  /** Regression suites `gen regress` runs (design + golden model + stimulus, see RegressSuite). */
  readonly suites?: readonly SuiteEntry[];
  readonly synthesis?: SynthesisConfig;
  readonly defaults?: ProjectDefaults;
  /** Plugins: commands, report sections, designs, suites and workloads added to the project (see GenPlugin). */
  readonly plugins?: readonly GenPlugin[];
}

/** Declares a project config (the identity: it gives the file its types). */
export function defineConfig(config: ProjectConfig): ProjectConfig {
  return config;
}

export { defineSuite, once, type SuiteSpec } from '../../verif/regress/suite.ts';
export { definePlugin, type GenPlugin, type CommandEntry } from './plugin.ts';
