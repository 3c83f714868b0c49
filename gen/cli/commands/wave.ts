import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandModule } from 'yargs';
import { ENGINE_NAMES } from '../../../engines/index.ts';
import type { EngineName } from '../../../hw/contract/engine.ts';
import type { DesignArguments } from '../project.ts';
import { simulateTop } from './sim.ts';
import { buildManifest, type VerilogManifest } from '../../../hw/verilog/manifest.ts';
import { writeFileAtomic } from '../../../common/atomicWrite.ts';
import { UserError } from '../../../common/errors.ts';
import {
  coverageProblems,
  divergencePicture,
  findDivergence,
  type DivergenceReport,
} from '../../../waves/divergence.ts';
import type { CycleSpec } from '../../../waves/sampling.ts';
import { globToRegExp } from '../../../waves/signalSelect.ts';
import { readVcdFile, type VcdSignal, type VcdTrace } from '../../../waves/vcdReader.ts';
import { bitsToHex } from '../../../waves/vcdValues.ts';
import { renderSvgToPng, renderWaveDromSvg, traceToWaveDrom, type WaveDromSource } from '../../../waves/wavedrom.ts';
import { readUserText } from '../../../common/userFiles.ts';
import { refuseOutputsOverInputs } from '../../../common/outputClash.ts';
import { bounded, runBoundMs, TIMEOUT_OPTION } from '../runBound.ts';

interface ShowArgs extends DesignArguments {
  vcd?: string;
  top?: string;
  param: string[];
  vectors?: string;
  engine?: EngineName;
  signals?: string[];
  from?: number;
  to?: number;
  clock?: string;
  period?: number;
  svg?: string;
  png?: string;
  json?: string;
  manifest?: string;
}

interface DiffArgs {
  a: string;
  b: string;
  'strip-a'?: string;
  'strip-b'?: string;
  align: 'time' | 'cycle';
  'clock-a'?: string;
  'clock-b'?: string;
  'x-matches-any': boolean;
  shorter: boolean;
  'common-signals': boolean;
  svg?: string;
  png?: string;
  timeout?: string;
}

/** Seconds per MiB of both traces in the default bound of `wave diff` (reading ~1 MiB takes well under 1 s). */
const DIFF_SECONDS_PER_MIB = 10;

interface ListArgs {
  vcd: string;
}

/** Writes a WaveDrom picture in the format its option names. */
function writePicture(
  source: WaveDromSource,
  outputs: { svg?: string | undefined; png?: string | undefined; json?: string | undefined },
): void {
  if (outputs.json !== undefined) writeFileAtomic(outputs.json, `${JSON.stringify(source, null, 2)}\n`);
  if (outputs.svg === undefined && outputs.png === undefined) return;
  const svg = renderWaveDromSvg(source);
  if (outputs.svg !== undefined) writeFileAtomic(outputs.svg, svg);
  if (outputs.png !== undefined) writeFileAtomic(outputs.png, renderSvgToPng(svg));
}

function cycleSpec(clock: string | undefined, period: number | undefined): CycleSpec | undefined {
  if (clock !== undefined && period !== undefined) throw new UserError('give either --clock or --period, not both');
  if (clock !== undefined) return { clock };
  return period !== undefined ? { period } : undefined;
}

const show: CommandModule<object, ShowArgs> = {
  command: 'show',
  describe: 'draw a window of a VCD as WaveDrom JSON, SVG or PNG',
  builder: (yargs) =>
    yargs
      .option('vcd', { type: 'string', describe: 'the VCD file to read (or simulate one: --top with --vectors)' })
      .option('top', { type: 'string', describe: 'simulate this top of the project on --vectors and draw its run' })
      .option('param', {
        type: 'string',
        array: true,
        default: [] as string[],
        describe: 'with --top: parameter override name=value (repeatable)',
      })
      .option('vectors', { type: 'string', describe: 'with --top: the JSON Lines vector file to run (as gen sim)' })
      .option('engine', { choices: ENGINE_NAMES, describe: 'with --top: simulation engine (default as gen sim)' })
      .option('design', {
        type: 'string',
        array: true,
        default: [] as string[],
        describe: 'with --top: module file whose exported module definitions become tops (repeatable)',
      })
      .option('signals', {
        type: 'string',
        array: true,
        coerce: splitCommas,
        describe: 'comma-separated globs over dotted names (`*` within a scope, `**` across): top.dec.base*',
      })
      .option('from', { type: 'number', describe: 'first cycle drawn (default 0)' })
      .option('to', { type: 'number', describe: 'last cycle drawn (default from + 31)' })
      .option('clock', {
        type: 'string',
        describe: 'dotted name of the clock whose rising edges start cycles (default: the clk/clock nearest the top)',
      })
      .option('period', { type: 'number', describe: 'cut cycles every PERIOD time units instead of by a clock' })
      .option('svg', { type: 'string', describe: 'write the picture as SVG here' })
      .option('png', { type: 'string', describe: 'write the picture as PNG here' })
      .option('json', { type: 'string', describe: 'write the WaveDrom JSON source here' })
      .option('manifest', {
        type: 'string',
        describe: 'with --vcd: the manifest.json of gen verilog, to label enum signals (FSM states) by name',
      })
      .check((argv) => {
        if (argv.svg === undefined && argv.png === undefined && argv.json === undefined)
          throw new UserError('name an output: --svg, --png or --json');
        if ((argv.vcd === undefined) === (argv.top === undefined))
          throw new UserError('give exactly one of --vcd FILE or --top NAME --vectors FILE');
        if (argv.top !== undefined && argv.vectors === undefined) throw new UserError('--top needs --vectors');
        return true;
      }),
  handler: async (argv) => {
    refuseOutputsOverInputs(
      { '--vcd': argv.vcd, '--vectors': argv.vectors, '--manifest': argv.manifest },
      { '--svg': argv.svg, '--png': argv.png, '--json': argv.json },
    );
    let vcd = argv.vcd;
    let scratch: string | undefined;
    let valueNames = argv.manifest === undefined ? undefined : enumValueNames(readManifest(argv.manifest));
    if (argv.top !== undefined) {
      scratch = mkdtempSync(join(tmpdir(), 'gen-wave-'));
      vcd = join(scratch, 'run.vcd');
      const { design } = await simulateTop({ ...argv, top: argv.top, vectors: argv.vectors! }, vcd);
      valueNames = enumValueNames(buildManifest(design));
    }
    try {
      drawWindow({ ...argv, vcd: vcd! }, valueNames);
    } finally {
      if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
    }
  },
};

/** A manifest.json written by gen verilog (only its source map is read). */
function readManifest(path: string): Pick<VerilogManifest, 'sourceMap'> {
  const text = readUserText(path);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UserError(`${path}: cannot read the manifest (${(error as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || !Array.isArray((parsed as VerilogManifest).sourceMap))
    throw new UserError(`${path}: not a gen verilog manifest (no sourceMap)`);
  return parsed as VerilogManifest;
}

/** Enum-typed signals of a source map by VCD name: the names of their codes (FSM states). */
function enumValueNames(manifest: Pick<VerilogManifest, 'sourceMap'>): Map<string, Readonly<Record<string, string>>> {
  return new Map(
    // Every engine's VCD names signals as the manifest does (`<top>.<path>`).
    manifest.sourceMap.flatMap((entry) => (entry.enum === undefined ? [] : [[entry.vcd, entry.enum.values] as const])),
  );
}

/** Draws the asked window of a VCD file. */
function drawWindow(
  argv: ShowArgs & { vcd: string },
  valueNames?: ReadonlyMap<string, Readonly<Record<string, string>>>,
): void {
  const spec = cycleSpec(argv.clock, argv.period);
  const patterns = argv.signals?.map(globToRegExp);
  const keep = (signal: VcdSignal) =>
    patterns === undefined ||
    patterns.some((pattern) => pattern.test(signal.fullName)) ||
    signal.fullName === argv.clock ||
    /^(clk|clock)$/i.test(signal.name);
  const trace = readVcdFile(argv.vcd, { keep });
  const source = traceToWaveDrom(trace, {
    ...(argv.signals ? { patterns: argv.signals } : {}),
    ...(argv.from !== undefined ? { fromCycle: argv.from } : {}),
    ...(argv.to !== undefined ? { toCycle: argv.to } : {}),
    ...(spec ? { cycles: spec } : {}),
    ...(valueNames === undefined ? {} : { valueNames }),
  });
  writePicture(source, argv);
}

/** `25ns`-style text of a time in timescale units. */
function formatTime(report: DivergenceReport): string {
  const divergence = report.divergence;
  if (!divergence) return '';
  const { time, timescale } = divergence;
  return `${time * timescale.magnitude}${timescale.unit}`;
}

function formatValue(bits: string): string {
  const hex = bitsToHex(bits);
  return bits.length === 1 || hex === 'x' || hex === 'z' ? hex : `0x${hex}`;
}

const diff: CommandModule<object, DiffArgs> = {
  command: 'diff <a> <b>',
  describe:
    'find the first time two VCDs of the same design differ. Exit 0 and "identical" when they agree; when they diverge, exit 1 with a summary on stdout (one line, then one line per differing signal)',
  builder: (yargs) =>
    yargs
      .positional('a', { type: 'string', demandOption: true, describe: 'first VCD (lanes A:…)' })
      .positional('b', { type: 'string', demandOption: true, describe: 'second VCD (lanes B:…)' })
      .option('strip-a', {
        type: 'string',
        describe:
          "dotted scope prefix removed from A's names before matching (default: TOP when everything is under it, as Verilator writes)",
      })
      .option('strip-b', { type: 'string', describe: "dotted scope prefix removed from B's names before matching" })
      .option('align', {
        choices: ['time', 'cycle'] as const,
        default: 'time' as const,
        describe: 'compare at every change time, or per clock cycle (traces on different time bases)',
      })
      .option('clock-a', {
        type: 'string',
        describe: "dotted name of A's clock (default: the clk/clock nearest the top)",
      })
      .option('clock-b', { type: 'string', describe: "dotted name of B's clock" })
      .option('x-matches-any', {
        type: 'boolean',
        default: false,
        describe: 'a bit that is x or z in either trace matches anything (2-state vs 4-state simulators)',
      })
      .option('shorter', {
        type: 'boolean',
        default: false,
        describe: 'compare only up to the end of the shorter trace (by default traces of different lengths fail)',
      })
      .option('common-signals', {
        type: 'boolean',
        default: false,
        describe:
          'compare only the signals both traces have with the same width (by default a missing or resized signal fails)',
      })
      .option('timeout', TIMEOUT_OPTION)
      .option('svg', { type: 'string', describe: 'on divergence, draw the cycles around it here (SVG)' })
      .option('png', {
        type: 'string',
        describe: 'on divergence, draw the cycles around it here (PNG)',
      }),
  handler: async (argv) => {
    refuseOutputsOverInputs({ a: argv.a, b: argv.b }, { '--svg': argv.svg, '--png': argv.png });
    const bound = runBoundMs(argv.timeout, [argv.a, argv.b], DIFF_SECONDS_PER_MIB);
    await bounded('gen wave diff', bound, () => diffTraces(argv));
  },
};

/** `gen wave diff`'s work: read, compare, report (a UserError when the traces diverge or were not compared whole). */
function diffTraces(argv: DiffArgs): void {
  const a = readVcdFile(argv.a);
  const b = readVcdFile(argv.b);
  const options = {
    align: argv.align,
    xMatchesAnything: argv['x-matches-any'],
    ...(argv['strip-a'] !== undefined ? { stripA: argv['strip-a'] } : {}),
    ...(argv['strip-b'] !== undefined ? { stripB: argv['strip-b'] } : {}),
    ...(argv['clock-a'] !== undefined ? { cyclesA: { clock: argv['clock-a'] } } : {}),
    ...(argv['clock-b'] !== undefined ? { cyclesB: { clock: argv['clock-b'] } } : {}),
  };
  const report = findDivergence(a, b, options);
  if (report.compared === 0)
    throw new UserError(`${argv.a} and ${argv.b} share no signal names; try --strip-a/--strip-b`);
  const unmatched = `compared ${report.compared} signals; ${report.onlyInA.length} only in A, ${report.onlyInB.length} only in B, ${report.mismatchedWidths.length} of different widths`;
  const divergence = report.divergence;
  if (!divergence) {
    // No difference in what was compared is no pass if part of either trace was not compared.
    const problems = coverageProblems(report, { shorter: argv.shorter, commonSignals: argv['common-signals'] });
    if (problems.length > 0)
      throw new UserError(
        `${argv.a} and ${argv.b} do not cover the same: ${problems.join('; ')} (--shorter / --common-signals narrow the comparison)`,
      );
    process.stdout.write(`identical (${unmatched})\n`);
    return;
  }
  const cycle = divergence.cycle !== undefined ? ` (cycle ${divergence.cycle})` : '';
  const names = divergence.differences.map((difference) => difference.name).join(', ');
  process.stdout.write(`diverged at ${formatTime(report)}${cycle}: ${names} (${unmatched})\n`);
  for (const difference of divergence.differences)
    process.stdout.write(`  ${difference.name}: A=${formatValue(difference.a)} B=${formatValue(difference.b)}\n`);
  if (argv.svg !== undefined || argv.png !== undefined) writePicture(divergencePicture(a, b, report, options), argv);
  throw new UserError(`${argv.a} and ${argv.b} diverge`);
}

/** The scope tree as indented text: scopes end in '/', signals show their width. */
function signalTree(trace: VcdTrace): string {
  let text = `${trace.file}: timescale ${trace.timescale.text}, ${trace.signals.length} signals, ends at #${trace.endTime}\n`;
  let open: readonly string[] = [];
  for (const signal of trace.signals) {
    let common = 0;
    while (common < open.length && open[common] === signal.path[common]) common++;
    for (let depth = common; depth < signal.path.length; depth++)
      text += `${'  '.repeat(depth)}${signal.path[depth]}/\n`;
    open = signal.path;
    const kind = signal.kind === 'bits' ? `[${signal.width}]` : `(${signal.kind})`;
    text += `${'  '.repeat(signal.path.length)}${signal.name} ${kind}\n`;
  }
  return text;
}

const list: CommandModule<object, ListArgs> = {
  command: 'list',
  describe: 'print the signal tree of a VCD with widths',
  builder: (yargs) =>
    yargs.option('vcd', {
      type: 'string',
      demandOption: true,
      describe: 'the VCD file to read',
    }),
  handler: (argv) => {
    process.stdout.write(signalTree(readVcdFile(argv.vcd, { keep: () => false })));
  },
};

function splitCommas(values: string[]): string[] {
  return values.flatMap((value) => value.split(',')).filter((value) => value.length > 0);
}

/** `gen wave show|diff|list`: waveform pictures, trace comparison, signal listing. */
export const waveCommand: CommandModule<object, object> = {
  command: 'wave',
  builder: (yargs) =>
    yargs.command(show).command(diff).command(list).demandCommand(1, 'name an action: show, diff or list'),
  handler: () => {},
};
