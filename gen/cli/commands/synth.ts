import { takeRenamedOption } from '../../../common/optionValues.ts';
import { join, resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { writeFileAtomic } from '../../../common/atomicWrite.ts';
import { UserError } from '../../../common/errors.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { cellModelsVerilog } from '../../../synth/library/verilogModels.ts';
import { formatSynthReport, reportChartSvg } from '../../../synth/reportText.ts';
import { nominalVdd, supportedNodes, type Flavor, type Node } from '../../../synth/scaling.ts';
import { synthesizeDesign, type SynthesisResult } from '../../../synth/synthesizeDesign.ts';
import { describeStimulus, type ActivityStimulus } from '../../../synth/activity.ts';
import type { ComposedModule } from '../../../synth/composedSynthesis.ts';
import { yosysEngines, type YosysEngine } from '../../../tools/yosys.ts';
import { parseParams } from '../../project/project.ts';
import { projectOf, topOf, withDesigns, type DesignArguments } from '../project.ts';
import type { Project } from '../../project/project.ts';
import { emitVerilog } from '../../../hw/verilog/emit.ts';
import { readUserText } from '../../../common/userFiles.ts';

/** `design` is the top's own workload from the project config; `sparse` is its older name (Coruscant's are sparse MMA streams). */
const workloads = ['random', 'zero', 'design', 'sparse'] as const;
type WorkloadName = (typeof workloads)[number];

interface SynthArgs extends DesignArguments {
  verilog?: string[];
  top: string;
  param: string[];
  yosys: YosysEngine;
  node: number;
  flavor: Flavor;
  'source-vdd': number;
  vdd?: number;
  clock: number;
  workload?: WorkloadName;
  sparsity?: number;
  cycles: number;
  timeout: number;
  seed: number;
  timing: 'opensta' | 'longest-path';
  compose: string[];
  'sram-bits': number;
  'clock-port'?: string;
  'reset-port'?: string;
  json: boolean;
  svg?: string;
  out?: string;
}

function readVerilog(paths: readonly string[]): Record<string, string> {
  const files: Record<string, string> = {};
  for (const path of paths) {
    files[path] = readUserText(path);
  }
  return files;
}

/** The design to synthesize: external Verilog files, or a registered top elaborated with its parameters. */
interface DesignSource {
  readonly files: Record<string, string>;
  /** Verilog module name of the top. */
  readonly module: string;
  /** The registered top, when the design is one (its definition name and parameters). */
  readonly registered?: { readonly name: string; readonly params: Record<string, number | boolean | string> };
}

async function designSource(args: SynthArgs): Promise<DesignSource> {
  if (args.verilog !== undefined) {
    if (args.param.length > 0)
      throw new UserError('--param applies to registered tops; external Verilog takes its parameters from the source');
    return { files: readVerilog(args.verilog), module: args.top };
  }
  const { top } = await topOf(args, args.top);
  const params = parseParams(top, args.param);
  const design = elaborate(top.definition, params);
  return { files: Object.fromEntries(emitVerilog(design)), module: design.top, registered: { name: top.name, params } };
}

/** The stimulus the activity is measured on; sparse streams pruned matrices through the top's ports. */
/** The workload asked for, or the top's default: sparse for tops that have one (or with --sparsity), random otherwise. */
function workloadOf(args: SynthArgs, source: DesignSource, project: Project): WorkloadName {
  const ownByDefault = source.registered !== undefined && project.workloads[source.registered.name] !== undefined;
  const workload = args.workload ?? (args.sparsity !== undefined || ownByDefault ? 'design' : 'random');
  return workload === 'sparse' ? 'design' : workload;
}

function stimulusFor(
  args: SynthArgs,
  source: DesignSource,
  project: Project,
): { stimulus: ActivityStimulus; label?: string } {
  const workload = workloadOf(args, source, project);
  if (workload !== 'design' && workload !== 'sparse') {
    if (args.sparsity !== undefined)
      throw new UserError(`--sparsity needs the sparse workload, not --workload ${workload}`);
    return { stimulus: { workload, cycles: args.cycles, seed: args.seed } };
  }
  if (!source.registered)
    throw new UserError(
      `--workload ${args.workload ?? 'design'} needs a top of the project (--top NAME without --verilog)`,
    );
  const own = project.workloads[source.registered.name];
  if (!own) {
    const known = Object.keys(project.workloads);
    throw new UserError(
      `${source.registered.name} has no sparse workload (no design workload in synthesis.workloads of gen.config.ts${known.length > 0 ? `; tops with one: ${known.join(', ')}` : ''}); use --workload random or zero`,
    );
  }
  const sparsity = args.sparsity ?? 0.5;
  const options = { sparsity, seed: args.seed, cycles: args.cycles };
  const vectors = own.vectors(source.registered.params, options);
  return {
    stimulus: { vectors },
    label: `${args.cycles} cycles of ${own.describe?.(options) ?? `${source.registered.name}'s design workload`} (seed ${args.seed})`,
  };
}

/**
 * What one instance of a composed module is simulated on: the same workload as the top, through
 * the module's own ports (the sparse one as the decoder would feed that block, e.g. lane 0's stream).
 */
function composedModules(args: SynthArgs, source: DesignSource, project: Project): ComposedModule[] {
  const workload = workloadOf(args, source, project);
  return args.compose.map((module) => {
    try {
      const { stimulus, label } = stimulusFor(
        { ...args, workload },
        { files: source.files, module, registered: { name: module, params: {} } },
        project,
      );
      return { module, stimulus, stimulusLabel: label ?? describeStimulus(stimulus) };
    } catch (error) {
      if (error instanceof UserError) throw new UserError(`--compose ${module}: ${error.message}`);
      throw error;
    }
  });
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
  builder: (yargs) =>
    withDesigns(yargs)
      .option('top', {
        type: 'string',
        demandOption: true,
        describe: 'registered top (see gen list), or with --verilog the name of the top module',
      })
      .option('param', {
        type: 'string',
        array: true,
        default: [],
        describe: 'parameter override name=value of a registered top (repeatable)',
      })
      .option('verilog', {
        type: 'string',
        array: true,
        describe: 'synthesize these Verilog source file(s) instead of a registered top',
      })
      .option('yosys', {
        choices: yosysEngines,
        default: 'yowasp' as YosysEngine,
        describe: 'Yosys to run: embedded WebAssembly build, or the system `yosys`',
      })
      .option('engine', { choices: yosysEngines, hidden: true, describe: 'old name of --yosys' })
      .middleware((args) => takeRenamedOption(args, 'engine', 'yosys'))
      .option('node', {
        type: 'number',
        choices: supportedNodes.filter((node) => node !== 45),
        default: 7,
        describe: 'target node for scaled figures, nm',
      })
      .option('flavor', {
        choices: ['HP', 'LP'] as Flavor[],
        default: 'HP' as Flavor,
        describe: 'Stillmaker device flavour at both nodes',
      })
      .option('source-vdd', {
        type: 'number',
        default: 1.1,
        describe: 'supply the 45 nm figures are at, V (the library is characterized at 1.1 V)',
      })
      .option('vdd', { type: 'number', describe: 'target supply, V (default: the node nominal, 0.7 V at 7 nm)' })
      .option('clock', { type: 'number', default: 1, describe: 'clock frequency for power, GHz' })
      .option('workload', {
        choices: workloads,
        describe:
          "stimulus simulated to measure switching activity: random inputs, all zero, or the top's design workload (synthesis.workloads of gen.config.ts; here sparse MMAs on Wanda-pruned weights; `sparse` is its older name). Default: design for tops that have one, random otherwise",
      })
      .option('sparsity', {
        type: 'number',
        describe: 'weight sparsity of the design workload, 0 ≤ S < 1 (default 0.5; implies --workload design)',
      })
      .option('cycles', {
        type: 'number',
        default: 200,
        describe: 'simulated clock cycles for activity (reset included)',
      })
      .option('seed', { type: 'number', default: 1, describe: 'seed of the random or sparse workload' })
      .option('timeout', {
        type: 'number',
        default: 600,
        describe: 'limit for each external tool step (system Yosys, Icarus compile, Icarus run), seconds',
      })
      .option('timing', {
        choices: ['opensta', 'longest-path'] as const,
        default: 'opensta' as const,
        describe: 'timing engine (OpenSTA falls back to longest-path if it fails)',
      })
      .option('compose', {
        type: 'string',
        array: true,
        default: [],
        describe:
          'module to measure once at gate level on its own stimulus and count by instances, the rest simulated around it as RTL (repeatable; for designs too large to simulate flat)',
      })
      .option('sram-bits', {
        type: 'number',
        default: 1024,
        describe:
          'memories of at least this many bits become SRAM macros (area, leakage, access energy from the 45 nm SRAM table), smaller ones flip-flops',
      })
      .option('clock-port', { type: 'string', describe: 'clock input (default: clk or clock)' })
      .option('reset-port', {
        type: 'string',
        describe: 'synchronous reset input (default: rst/reset, or rst_n/reset_n active low)',
      })
      .option('json', { type: 'boolean', default: false, describe: 'print the report as JSON instead of a table' })
      .option('svg', { type: 'string', describe: 'write a bar chart of area and power per block to this SVG file' })
      .option('out', { type: 'string', describe: 'directory for the library, netlists, logs and reports' })
      .example(
        '$0 synth --top BitmapDecoder --param threads=2 --sparsity 0.7',
        'a two-thread decoder on a 70 %-sparse pruned layer',
      )
      .example(
        '$0 synth --top MmaUnit --compose TensorLane --yosys system',
        'the 32-lane unit: one lane simulated at gate level, the decoder and glue around 32 RTL lanes',
      )
      .example('$0 synth --verilog adder.v --top adder --workload random', 'external Verilog'),
  handler: async (args) => {
    if (!(args.clock > 0)) throw new UserError(`--clock must be a positive frequency in GHz, not ${args.clock}`);
    for (const [option, volts] of [
      ['--source-vdd', args['source-vdd']],
      ['--vdd', args.vdd],
    ] as const) {
      if (volts !== undefined && !(volts > 0 && volts < 2))
        throw new UserError(`${option} must be a supply voltage in volts (0–2), not ${volts}`);
    }
    if (!Number.isInteger(args.cycles) || args.cycles < 4)
      throw new UserError(`--cycles must be an integer ≥ 4, not ${args.cycles}`);
    if (!(args.timeout > 0)) throw new UserError(`--timeout must be a positive number of seconds, not ${args.timeout}`);
    if (!(args['sram-bits'] >= 1))
      throw new UserError(`--sram-bits must be a number of bits ≥ 1, not ${args['sram-bits']}`);
    for (const name of ['top', 'workload', 'sparsity'] as const)
      if (Array.isArray(args[name])) throw new UserError(`give --${name} once`);
    const node = args.node as Node;
    const project = await projectOf(args);
    const source = await designSource(args);
    const { stimulus, label } = stimulusFor(args, source, project);
    const result = await synthesizeDesign(source.files, source.module, {
      engine: args.yosys,
      clockGhz: args.clock,
      stimulus,
      ...(label !== undefined ? { stimulusLabel: label } : {}),
      toolTimeoutMs: args.timeout * 1000,
      source: { node: 45, flavor: args.flavor, vdd: args['source-vdd'] },
      target: { node, flavor: args.flavor, vdd: args.vdd ?? nominalVdd[node] },
      timingEngine: args.timing,
      compose: composedModules(args, source, project),
      sramThresholdBits: args['sram-bits'],
      ...(args['clock-port'] !== undefined ? { clock: args['clock-port'] } : {}),
      ...(args['reset-port'] !== undefined ? { reset: args['reset-port'] } : {}),
    });
    const table = formatSynthReport(result.report);
    process.stdout.write(args.json ? `${JSON.stringify(result.report, null, 2)}\n` : table);
    if (args.svg !== undefined) writeFileAtomic(resolve(args.svg), reportChartSvg(result.report));
    if (args.out !== undefined) writeOutputs(resolve(args.out), result, table);
  },
};
