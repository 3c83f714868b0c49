import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { writeFileAtomic } from '../../../common/atomicWrite.ts';
import { UserError } from '../../../common/errors.ts';
import { cellModelsVerilog } from '../../../synth/library/verilogModels.ts';
import { formatSynthReport, reportChartSvg } from '../../../synth/reportText.ts';
import { nominalVdd, supportedNodes, type Flavor, type Node } from '../../../synth/scaling.ts';
import { synthesizeDesign, type SynthesisResult } from '../../../synth/synthesizeDesign.ts';
import { yosysEngines, type YosysEngine } from '../../../synth/yosys.ts';

interface SynthArgs {
  verilog: string[];
  top: string;
  engine: YosysEngine;
  node: number;
  flavor: Flavor;
  'source-vdd': number;
  vdd?: number;
  clock: number;
  workload: 'random' | 'zero';
  cycles: number;
  seed: number;
  timing: 'opensta' | 'longest-path';
  'clock-port'?: string;
  'reset-port'?: string;
  json: boolean;
  svg?: string;
  out?: string;
}

function readVerilog(paths: readonly string[]): Record<string, string> {
  const files: Record<string, string> = {};
  for (const path of paths) {
    try {
      files[path] = readFileSync(path, 'utf8');
    } catch (error) {
      throw new UserError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  }
  return files;
}

/** Everything a user may want to inspect or feed to other tools, one file each. */
function writeOutputs(directory: string, result: SynthesisResult, table: string): void {
  const { mapped } = result;
  const outputs: Record<string, string> = {
    'cells.lib': mapped.liberty,
    'cells.v': cellModelsVerilog(mapped.library),
    'mapped.v': mapped.hierarchicalVerilog,
    'mapped_flat.v': mapped.flatVerilog,
    'yosys.log': mapped.log,
    'report.txt': table,
    'report.json': `${JSON.stringify(result.report, null, 2)}\n`,
    ...(result.staReport ? { 'timing.txt': result.staReport } : {}),
  };
  for (const [name, text] of Object.entries(outputs)) writeFileAtomic(join(directory, name), text);
}

export const synthCommand: CommandModule<object, SynthArgs> = {
  command: 'synth',
  describe: 'synthesize Verilog to the 45 nm cell library: area, power, timing per block, scaled to 7 nm',
  builder: (yargs: Argv) =>
    yargs
      .option('verilog', { type: 'string', array: true, demandOption: true, describe: 'Verilog source file(s) of the design' })
      .option('top', { type: 'string', demandOption: true, describe: 'name of the top module' })
      .option('engine', { choices: yosysEngines, default: 'yowasp' as YosysEngine, describe: 'Yosys to run: embedded WebAssembly build, or the system `yosys`' })
      .option('node', { type: 'number', choices: supportedNodes.filter((node) => node !== 45), default: 7, describe: 'target node for scaled figures, nm' })
      .option('flavor', { choices: ['HP', 'LP'] as Flavor[], default: 'HP' as Flavor, describe: 'Stillmaker device flavour at both nodes' })
      .option('source-vdd', { type: 'number', default: 1.1, describe: 'supply the 45 nm figures are at, V (the library is characterized at 1.1 V)' })
      .option('vdd', { type: 'number', describe: 'target supply, V (default: the node nominal, 0.7 V at 7 nm)' })
      .option('clock', { type: 'number', default: 1, describe: 'clock frequency for power, GHz' })
      .option('workload', { choices: ['random', 'zero'] as const, default: 'random' as const, describe: 'stimulus simulated to measure switching activity' })
      .option('cycles', { type: 'number', default: 200, describe: 'simulated clock cycles for activity' })
      .option('seed', { type: 'number', default: 1, describe: 'seed of the random workload' })
      .option('timing', { choices: ['opensta', 'longest-path'] as const, default: 'opensta' as const, describe: 'timing engine (OpenSTA falls back to longest-path if it fails)' })
      .option('clock-port', { type: 'string', describe: 'clock input (default: clk or clock)' })
      .option('reset-port', { type: 'string', describe: 'synchronous reset input (default: rst/reset, or rst_n/reset_n active low)' })
      .option('json', { type: 'boolean', default: false, describe: 'print the report as JSON instead of a table' })
      .option('svg', { type: 'string', describe: 'write a bar chart of area and power per block to this SVG file' })
      .option('out', { type: 'string', describe: 'directory for the library, netlists, logs and reports' }) as unknown as Argv<SynthArgs>,
  handler: async (args) => {
    if (!(args.clock > 0)) throw new UserError(`--clock must be a positive frequency in GHz, not ${args.clock}`);
    for (const [option, volts] of [['--source-vdd', args['source-vdd']], ['--vdd', args.vdd]] as const) {
      if (volts !== undefined && !(volts > 0 && volts < 2)) throw new UserError(`${option} must be a supply voltage in volts (0–2), not ${volts}`);
    }
    if (!Number.isInteger(args.cycles) || args.cycles < 4) throw new UserError(`--cycles must be an integer ≥ 4, not ${args.cycles}`);
    const node = args.node as Node;
    const result = await synthesizeDesign(readVerilog(args.verilog), args.top, {
      engine: args.engine,
      clockGhz: args.clock,
      stimulus: { workload: args.workload, cycles: args.cycles, seed: args.seed },
      source: { node: 45, flavor: args.flavor, vdd: args['source-vdd'] },
      target: { node, flavor: args.flavor, vdd: args.vdd ?? nominalVdd[node] },
      timingEngine: args.timing,
      ...(args['clock-port'] !== undefined ? { clock: args['clock-port'] } : {}),
      ...(args['reset-port'] !== undefined ? { reset: args['reset-port'] } : {}),
    });
    const table = formatSynthReport(result.report);
    process.stdout.write(args.json ? `${JSON.stringify(result.report, null, 2)}\n` : table);
    if (args.svg !== undefined) writeFileAtomic(args.svg, reportChartSvg(result.report));
    if (args.out !== undefined) writeOutputs(args.out, result, table);
  },
};
