/**
 * `coruscant-hdl/config`: the project config file, `gen.config.ts` (or .mts, .js, .mjs), found by
 * walking up from the working directory. It lists the project's designs, regression suites,
 * synthesis workloads and command defaults, so no `gen` command needs `--design`.
 */
export {
  /** Declares a project config: `export default defineConfig({ designs, suites, synthesis, defaults })`. */
  defineConfig,
  /** A project config; paths in it are relative to the config file's folder. */
  type ProjectConfig,
  /** A design of the project: a module file (each exported module definition becomes a top) or a definition. */
  type DesignEntry,
  /** A regression suite of the project: a file exporting `suites`, or a suite. */
  type SuiteEntry,
  /** What `gen synth` knows of the project's tops: design workloads by top name. */
  type SynthesisConfig,
  /** The stimulus `gen synth` measures a top's power on, per cycle the values of its inputs. */
  type SynthesisWorkload,
  /** What a synthesis workload is asked for: sparsity, seed, cycles. */
  type WorkloadOptions,
  /** Defaults of the commands (engine, output folder, build cache); a command-line option wins. */
  type ProjectDefaults,
} from '../gen/project/config.ts';
