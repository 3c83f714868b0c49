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
import type { ModuleDefinition, Params } from '../../hw/core/index.ts';
import type { EngineName } from '../../engines/engine.ts';
import type { RegressSuite } from '../../verif/regress/suite.ts';
import type { InputVector } from '../../synth/sim/gateStimulus.ts';

export type { RegressSuite, CaseVectors } from '../../verif/regress/suite.ts';
export type { ModuleDefinition, Params } from '../../hw/core/index.ts';

/**
 * A design of the project: a module file (a path relative to the config file; each of its exported
 * module definitions becomes a top, named by its `name`), or a module definition itself.
 */
export type DesignEntry = string | ModuleDefinition;

/** A regression suite of the project: a file exporting `suites` (relative to the config), or a suite. */
export type SuiteEntry = string | RegressSuite;

/** What a design workload is asked for; `sparsity` is `--sparsity` (0.5 when not given). */
export interface WorkloadOptions {
  readonly sparsity: number;
  readonly seed: number;
  readonly cycles: number;
}

/**
 * The stimulus `gen synth` measures a top's switching activity (its power) on, when random inputs
 * would not be what the block really sees: per cycle the values of the top's input ports.
 */
export interface SynthesisWorkload {
  /** What it is, for the report ("N cycles of …"), e.g. `back-to-back MMAs at 50 % sparsity`. */
  describe?(options: WorkloadOptions): string;
  vectors(params: Params, options: WorkloadOptions): InputVector[];
}

/** What `gen synth` knows of the project's tops. */
export interface SynthesisConfig {
  /**
   * Design workloads by top name: the top's default workload in `gen synth`, and what
   * `--workload design` (or its older name `sparse`) selects. Tops without one use random inputs.
   */
  readonly workloads?: Readonly<Record<string, SynthesisWorkload>>;
}

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
}

/** Declares a project config (the identity: it gives the file its types). */
export function defineConfig(config: ProjectConfig): ProjectConfig {
  return config;
}

export { defineSuite, once, type SuiteSpec } from '../../verif/regress/suite.ts';
