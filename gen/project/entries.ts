/**
 * What a project (its gen.config.ts) and its plugins list: designs, suites and synthesis
 * workloads. Apart from config.ts so that both the config and the plugin contract can use them.
 */
import type { ModuleDefinition, Params } from '../../hw/core/index.ts';
import type { RegressSuite } from '../../verif/regress/suite.ts';
import type { InputVector } from '../../synth/sim/gateStimulus.ts';

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
