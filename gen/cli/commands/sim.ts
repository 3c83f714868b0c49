import { preflightFiles } from '../../../common/preflight.ts';
import type { CommandModule } from 'yargs';
import { resolve } from 'node:path';
import { parseParams } from '../../project/project.ts';
import { topOf, withDesigns, type DesignArguments } from '../project.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import type { IrDesign } from '../../../hw/ir/ir.ts';
import type { ClockTimings } from '../../../hw/contract/clockSchedule.ts';
import { vectorLines, formatVectorValue, type VectorLine } from '../../../engines/vectors.ts';
import { harnessPortsOf } from '../../../engines/harness/harnessStimulus.ts';
import { PortFrames, type FramePort, type PortValues } from '../../../hw/contract/portFrames.ts';
import { once } from 'node:events';
import { createEngine, ENGINE_NAMES, engineHelp } from '../../../engines/index.ts';
import type { EngineName } from '../../../hw/contract/engine.ts';
import { AtomicFileStream } from '../../../common/atomicWrite.ts';
import { UserError } from '../../../common/errors.ts';
import { formatCheckFailure, type CheckMode, type CheckResults } from '../../../hw/contract/checks.ts';
import { quoteValue } from '../../../common/optionValues.ts';
import { refuseOutputsOverInputs } from '../../../common/outputClash.ts';
import { bounded, runBoundMs, TIMEOUT_OPTION } from '../runBound.ts';
import { randomInt } from 'node:crypto';
import { formatPrintedLine, type PrintedLine } from '../../../hw/ir/prints.ts';
import { parseInitialState } from '../../../hw/ir/randomInit.ts';

/** What names a simulation: a top of the project with its parameters, a vector file and an engine. */
export interface SimulationArguments extends DesignArguments {
  top: string;
  param: string[];
  vectors: string;
  engine?: EngineName | undefined;
  /** A failing assertion stops the run (default) or is counted (`count`: every failure reported). */
  checks?: CheckMode | undefined;
  /** Keep internal nets (`_n27`) in the VCD (Verilator and Icarus only). */
  internal?: boolean | undefined;
  /** Clock timings `NAME=PERIOD[:PHASE]` in ns (several clocks; default 10, phase 0 each). */
  timing?: string[] | undefined;
  /** The state the run starts from: `zero` (default), `random` or `random:<seed>` (hw/ir/randomInit.ts). */
  init?: string | undefined;
}

/** `clk_b=14:3` → { clk_b: { period: 14, phase: 3 } }; the schedule checks names and values. */
export function parseClockTimings(specs: readonly string[]): ClockTimings {
  const timings: Record<string, { period: number; phase: number }> = {};
  for (const spec of specs) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(\d+)(?::(\d+))?$/.exec(spec);
    if (!match) throw new UserError(`bad --timing ${quoteValue(spec)}: expected NAME=PERIOD or NAME=PERIOD:PHASE (ns)`);
    timings[match[1]!] = { period: Number(match[2]), phase: Number(match[3] ?? 0) };
  }
  return timings;
}

interface SimArguments extends SimulationArguments {
  out?: string;
  prints?: string;
  vcd?: string;
  timeout?: string;
}

/** Seconds per MiB of vectors in the default bound: about 1 ms per vector line, ten times the slowest shipped top. */
const SIM_SECONDS_PER_MIB = 60;

/** One piece of a run as simulateTop hands it on: its vector lines and the outputs sampled in their cycles. */
export interface SimulatedPiece {
  /** The cycle of the piece's first line. */
  readonly first: number;
  readonly vectors: readonly VectorLine[];
  /** One frame per line: the top's outputs in port order. */
  readonly outputs: PortFrames;
}

/**
 * Cycles read, simulated and handed on per piece: a run's memory is bounded by one piece (a few
 * MB), not by its length (a 10^7-cycle run held ~6 GB of vector and output objects at once).
 */
export const SIMULATION_PIECE_CYCLES = 1 << 14;

/**
 * Runs a vector file through a top of the project on one engine (the project's default engine
 * unless one is named), tracing to `vcd` when given: a session fed piece by piece as the file is
 * read, each piece's outputs handed to `onPiece` before the next is read. A run that fails part
 * way leaves no trace, except a failing assertion in stop mode, whose trace up to its cycle is
 * the waveform to look at. Every path is the user's, relative to where they typed it: engines
 * may run their simulator in other folders.
 */
export async function simulateTop(
  args: SimulationArguments,
  vcd: string | undefined,
  onPiece: (piece: SimulatedPiece) => Promise<void> | void = () => {},
  onPrinted: (lines: readonly PrintedLine[]) => Promise<void> | void = () => {},
): Promise<{ design: IrDesign; cycles: number; checks?: CheckResults }> {
  const { project, top } = await topOf(args, args.top);
  const design = elaborate(top.definition, parseParams(top, args.param));
  const ports = harnessPortsOf(design);
  const widths = (list: readonly FramePort[]): Map<string, number> =>
    new Map(list.map((port) => [port.name, port.width]));
  const lines = vectorLines(args.vectors, { inputs: widths(ports.inputs), outputs: widths(ports.outputs) });
  const engine = await createEngine(args.engine ?? project.defaults.engine ?? 'ts');
  const init = args.init === undefined ? undefined : parseInitialState(args.init, () => randomInt(2 ** 31));
  const session = await engine.open(design, {
    ...(init === undefined ? {} : { init }),
    ...(vcd === undefined ? {} : { vcd: resolve(vcd) }),
    ...(args.checks ? { checks: args.checks } : {}),
    ...(args.internal ? { internal: true } : {}),
    ...(args.timing && args.timing.length > 0 ? { clocks: parseClockTimings(args.timing) } : {}),
  });
  let cycles = 0;
  let printed = 0;
  try {
    // An input a line leaves out keeps its value, across pieces too.
    let held: PortValues = {};
    for (let piece = nextPiece(lines); piece.length > 0; piece = nextPiece(lines)) {
      const rows = piece.map((vector) => vector.inputs);
      rows[0] = { ...held, ...rows[0] };
      const inputs = PortFrames.from(ports.inputs, rows, ports.top);
      held = inputs.row(inputs.cycles - 1);
      const outputs = await session.runFrames(inputs);
      await onPiece({ first: cycles, vectors: piece, outputs });
      await onPrinted(session.printed.slice(printed));
      printed = session.printed.length;
      cycles += piece.length;
    }
    const { checks } = await session.close();
    return { design, cycles, ...(checks ? { checks } : {}) };
  } catch (error) {
    await session.abort();
    throw error;
  }
}

/** The next lines of a vector file, at most SIMULATION_PIECE_CYCLES of them (none at its end). */
function nextPiece(lines: Iterator<VectorLine>): VectorLine[] {
  const piece: VectorLine[] = [];
  for (let next = lines.next(); !next.done; next = lines.next()) {
    piece.push(next.value);
    if (piece.length === SIMULATION_PIECE_CYCLES) break;
  }
  return piece;
}

/** Mismatches of a run against its vectors' `expect` entries: all counted, the first kept for the message. */
class ExpectedOutputs {
  count = 0;
  first: string | undefined;

  constructor(private readonly file: string) {}

  check({ first, vectors, outputs }: SimulatedPiece): void {
    vectors.forEach((vector, index) => {
      for (const [name, value] of Object.entries(vector.expected ?? {})) {
        const actual = outputs.value(index, name);
        if (actual === value) continue;
        this.count++;
        this.first ??= `cycle ${first + index} (${this.file}:${vector.line}): ${name} expected ${formatVectorValue(value)}, got ${formatVectorValue(actual)}`;
      }
    });
  }
}

/** The outputs of a piece as JSON Lines, one `{"cycle", "out"}` object per cycle. */
function outputLines({ first, outputs }: SimulatedPiece): string {
  let text = '';
  for (let index = 0; index < outputs.cycles; index++) {
    const row = outputs.row(index);
    const out: Record<string, string> = {};
    for (const name in row) out[name] = formatVectorValue(row[name]!);
    text += `${JSON.stringify({ cycle: first + index, out })}\n`;
  }
  return text;
}

/** `gen sim`: runs a vector file through a top on one engine; checks `expect` entries if present. */
export const simCommand: CommandModule<object, SimArguments> = {
  command: 'sim',
  builder: (yargs) =>
    withDesigns(yargs)
      .option('top', { type: 'string', demandOption: true, describe: 'top to simulate (see gen list)' })
      .option('param', {
        type: 'string',
        array: true,
        default: [],
        describe: 'parameter override name=value (repeatable)',
      })
      .option('vectors', {
        type: 'string',
        demandOption: true,
        describe: 'JSON Lines: {"in": {port: value}, "expect"?: {...}} per cycle',
      })
      .option('engine', {
        choices: ENGINE_NAMES,
        describe: `simulation engine (default: defaults.engine of gen.config.ts, else ts); ${engineHelp()}`,
      })
      .option('out', { type: 'string', describe: 'write the outputs per cycle as JSON Lines here (default: stdout)' })
      .option('vcd', { type: 'string', describe: 'write a VCD waveform of the run here' })
      .option('internal', {
        type: 'boolean',
        describe:
          'keep internal nets (_n27) in the VCD too (Verilator and Icarus; the ts engine has no values for them)',
      })
      .option('timing', {
        type: 'string',
        array: true,
        describe:
          'period and phase of a clock in ns, NAME=PERIOD[:PHASE] (repeatable; designs with several clocks; default 10, phase 0)',
      })
      .option('prints', {
        type: 'string',
        describe: 'write the lines printf printed here, one `[cycle] text` a line (default: stderr)',
      })
      .option('init', {
        type: 'string',
        describe:
          'start state: zero (default), or random[:SEED] for registers without a reset and memories without init, the same on every engine (the seed is printed)',
      })
      .option('timeout', TIMEOUT_OPTION)
      .option('checks', {
        choices: ['stop', 'count'] as const,
        describe:
          'a failing assertion (m.assert) stops the run (stop, default) or every failure is listed on stderr (count); either exits 1',
      }),
  handler: async (args) => {
    refuseOutputsOverInputs(
      { '--vectors': args.vectors, ...Object.fromEntries(args.design.map((file) => ['--design', file])) },
      { '--out': args.out, '--vcd': args.vcd, '--prints': args.prints },
    );
    preflightFiles([args.out, args.vcd, args.prints]);
    const bound = runBoundMs(args.timeout, [args.vectors], SIM_SECONDS_PER_MIB);
    if (args.init !== undefined) {
      // A random state without a seed gets a fresh one, printed first so a failing run can be repeated.
      const init = parseInitialState(args.init, () => randomInt(2 ** 31));
      if (init !== 'zero' && args.init === 'random') {
        args = { ...args, init: `random:${init.random}` };
        process.stderr.write(`initial state: random:${init.random} (repeat with --init random:${init.random})\n`);
      }
    }
    // Written as the run goes; the file appears whole when the run succeeded, or not at all.
    const out = args.out ? new AtomicFileStream(resolve(args.out)) : undefined;
    const prints = args.prints ? new AtomicFileStream(resolve(args.prints)) : undefined;
    const expected = new ExpectedOutputs(args.vectors);
    let run: Awaited<ReturnType<typeof simulateTop>>;
    try {
      run = await bounded('gen sim', bound, () =>
        simulateTop(
          args,
          args.vcd,
          async (piece) => {
            expected.check(piece);
            const text = outputLines(piece);
            if (out) await out.writeAndWait(text);
            else if (!process.stdout.write(text)) await once(process.stdout, 'drain');
          },
          async (lines) => {
            const text = lines.map((line) => `${formatPrintedLine(line)}\n`).join('');
            if (prints) await prints.writeAndWait(text);
            else if (text !== '') process.stderr.write(text);
          },
        ),
      );
      await out?.commit();
      await prints?.commit();
    } catch (error) {
      out?.abort();
      prints?.abort();
      throw error;
    }
    const failures = run.checks?.failures ?? [];
    for (const failure of failures) process.stderr.write(`${formatCheckFailure(failure)}\n`);
    if (failures.length > 0)
      throw new UserError(`${failures.length} assertion failure(s); first: ${formatCheckFailure(failures[0]!)}`);
    if (expected.first !== undefined) throw new UserError(`${expected.count} mismatch(es); first: ${expected.first}`);
  },
};
