import type { CommandModule } from 'yargs';

/** A `gen` sub-command: what `gen --help` shows, and how to load it when it is the one asked for. */
export interface CommandEntry {
  readonly name: string;
  readonly describe: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- yargs command modules differ in their argument types
  readonly load: () => Promise<CommandModule<any, any>>;
}

/**
 * Every `gen` sub-command, in the order `gen --help` lists them. Each lives in its own file in
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
    name: 'mma',
    describe: 'Run MMAs on the MmaUnit (dense m16n8k16 or Coruscant m32n1k64): D = A·B + C, bit-exact',
    load: async () => (await import('./mma.ts')).mmaCommand,
  },
  {
    name: 'spmm',
    describe:
      'D = A·B + C for float16 A (M×K) and B (K×N), float32 C: golden, on the RTL, or modeled on a GPU (--model)',
    load: async () => (await import('./spmm.ts')).spmmCommand,
  },
  {
    name: 'formats',
    describe:
      'Storage size of a pruned FP16 matrix in CSR, CSC, COO, ELL, Tiled-CSL, 2:4 and Coruscant, as % of dense (paper Fig. 3)',
    load: async () => (await import('./formats.ts')).formatsCommand,
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
  {
    name: 'memsim',
    describe:
      "Run a load pattern or an SpMM kernel's address trace through a modeled GPU memory path (L1, L2 slices, DRAM)",
    load: async () => (await import('./memsim.ts')).memsimCommand,
  },
  {
    name: 'report',
    describe: 'Run the whole flow and write one self-contained HTML page with summary.json',
    load: async () => (await import('./report.ts')).reportCommand,
  },
];
