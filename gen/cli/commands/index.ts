import type { CommandEntry } from '../../project/plugin.ts';

/**
 * The framework's `gen` sub-commands, in the order `gen --help` lists them (a project's plugins
 * add theirs after these). Each lives in its own file in
 * this folder and exports one yargs CommandModule; only the command being run is imported, so
 * `gen` starts without loading Yosys, the renderers and every model.
 */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'init',
    describe: 'Start a project of your own: a design, its golden model, a test, a regression suite and gen.config.ts',
    load: async () => (await import('./init.ts')).initCommand,
  },
  {
    name: 'list',
    describe: 'List the registered tops, their parameters and ports',
    load: async () => (await import('./list.ts')).listCommand,
  },
  {
    name: 'verilog',
    describe: 'Write Verilog-2005 for a registered top (one file per module) and a manifest with the source map',
    load: async () => (await import('./verilog.ts')).verilogCommand,
  },
  {
    name: 'sim',
    describe: 'Simulate a registered top on a JSON Lines vector file',
    load: async () => (await import('./sim.ts')).simCommand,
  },
  {
    name: 'prove',
    describe:
      "Prove a top's assertions (m.assert) under its assumptions for every cycle (PDR) or to a depth (BMC); decide its cover points; counterexamples as vectors + VCD",
    load: async () => (await import('./prove.ts')).proveCommand,
  },
  {
    name: 'regress',
    describe:
      'Randomized equivalence regressions: RTL on each engine = golden model (shrinking, replay, shards, workers, JUnit, mutation score)',
    load: async () => (await import('./regress.ts')).regressCommand,
  },
  {
    name: 'worker',
    describe: 'Take regression farm shards from Redis',
    load: async () => (await import('./worker.ts')).workerCommand,
  },
  {
    name: 'wave',
    describe: 'Waveforms: draw (show), compare two traces (diff), list signals (list)',
    load: async () => (await import('./wave.ts')).waveCommand,
  },
  {
    name: 'synth',
    describe: 'Synthesize to the 45 nm cell library: area, power, timing per block, scaled to 7 nm',
    load: async () => (await import('./synth.ts')).synthCommand,
  },
];
