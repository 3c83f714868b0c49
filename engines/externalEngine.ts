import { closeSync, fstatSync, mkdirSync, openSync, readSync, rmSync, statfsSync } from 'node:fs';
import { moveIntoPlace } from '../common/atomicWrite.ts';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ToolError, UserError } from '../common/errors.ts';
import { moduleByName, type IrDesign } from '../hw/ir/ir.ts';
import { emitVerilog } from '../hw/verilog/emit.ts';
import type { CycleRun, Engine, EngineName, PortValues, RunOptions } from './engine.ts';
import { CheckFailedError, type CheckMode } from '../hw/ir/checks.ts';
import { parseCheckLog } from './checkLog.ts';
import { clockSchedule, type ClockTimings } from '../hw/sim/clockSchedule.ts';
import { formatStimulus, harnessPortsOf, parseResults, type HarnessPorts } from './harnessStimulus.ts';

/**
 * The adapter base of every engine that runs an external simulator (Verilator, Icarus, and
 * Icarus on a mutant's Verilog). What they share lives here: emit the Verilog, build once per
 * design (the build is cached by the tool layer), write all streams into one stimulus file so one
 * process runs them all, parse the results (which checks every stream produced every cycle), and
 * write a VCD under a temporary name renamed into place only when the run succeeded. A subclass
 * says how to build and how to run a build; nothing else.
 */
export abstract class ExternalEngine<Build> implements Engine {
  abstract readonly name: EngineName;

  /**
   * The watchdog's bound on one cycle of one IR cell (cells, registers and memories of the
   * flattened design), µs: a run is killed after RUN_BASE_MS + cycles × (RUN_CYCLE_MS + cells ×
   * this), the per-cycle part four times when tracing. Chosen 10× or more above what the slowest design measured
   * (Icarus: about 3.5 µs per cell-cycle on the 86 k-cell MmaBench at a few cycles per second).
   */
  protected abstract readonly cellCycleMicros: number;

  /** Builds the harness or testbench around `files` (cached by content). */
  protected abstract build(
    design: IrDesign,
    files: ReadonlyMap<string, string>,
    ports: HarnessPorts,
    traced: boolean,
  ): Promise<Build>;

  /** Runs stimulus text on a build and returns the results text (formats: harnessStimulus.ts). */
  protected abstract execute(
    build: Build,
    stimulus: string,
    options: { readonly vcd?: string; readonly timeout: number; readonly internal?: boolean },
  ): Promise<string | ExecutedRun>;

  /** The Verilog simulated: the design's own; the mutation engine gives a mutant's instead. */
  protected verilogOf(design: IrDesign): ReadonlyMap<string, string> {
    return emitVerilog(design);
  }

  async run(design: IrDesign, inputs: readonly PortValues[], options: RunOptions = {}): Promise<CycleRun> {
    const [run] = await this.simulate(design, [inputs], options.vcd, options.checks, options.internal, options.clocks);
    return run!;
  }

  runMany(
    design: IrDesign,
    streams: readonly (readonly PortValues[])[],
    options: { readonly checks?: CheckMode; readonly clocks?: ClockTimings } = {},
  ): Promise<CycleRun[]> {
    return this.simulate(design, streams, undefined, options.checks, false, options.clocks);
  }

  /**
   * Runs the streams; with checks in the design, reads each stream's failures from what the
   * simulator printed (checkLog.ts) and, in stop mode, throws the first as CheckFailedError.
   */
  private async simulate(
    design: IrDesign,
    streams: readonly (readonly PortValues[])[],
    vcd?: string,
    mode: CheckMode = 'stop',
    internal = false,
    clocks?: ClockTimings,
  ): Promise<CycleRun[]> {
    const runs = await this.simulateStreams(design, streams, vcd, internal, clocks);
    if (!runs.log) return runs.runs;
    const checks = parseCheckLog(design, runs.log, streams.length, this.name);
    if (mode === 'stop')
      for (const result of checks) if (result.failures[0]) throw new CheckFailedError(result.failures[0], this.name);
    return runs.runs.map((run, index) => ({ ...run, checks: checks[index]! }));
  }

  private async simulateStreams(
    design: IrDesign,
    streams: readonly (readonly PortValues[])[],
    vcd?: string,
    internal = false,
    clocks?: ClockTimings,
  ): Promise<{ runs: CycleRun[]; log?: string }> {
    if (streams.length === 0) return { runs: [] };
    const withLog = (executed: string | ExecutedRun): ExecutedRun =>
      typeof executed === 'string' ? { results: executed } : executed;
    const checked = (executed: ExecutedRun, runs: CycleRun[]): { runs: CycleRun[]; log?: string } =>
      ports.checked ? { runs, log: executed.log ?? '' } : { runs };
    const ports = harnessPortsOf(design);
    const stimulus = formatStimulus(ports, streams, clocks);
    const cycles = streams.map((stream) => stream.length);
    const build = await this.build(design, this.verilogOf(design), ports, vcd !== undefined);
    const work = cycles.reduce((sum, count) => sum + count, 0);
    const timeout = runTimeout(work, flatCells(design), this.cellCycleMicros, vcd !== undefined);
    if (vcd === undefined) {
      const executed = withLog(await this.execute(build, stimulus, { timeout }));
      return checked(executed, parseResults(this.name, ports, executed.results, cycles));
    }
    try {
      mkdirSync(dirname(vcd), { recursive: true });
    } catch (error) {
      throw new UserError(`cannot write ${vcd}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    const temporary = join(dirname(vcd), `.${basename(vcd)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      const executed = withLog(
        await this.execute(build, stimulus, { vcd: temporary, timeout, internal }).catch((error: unknown) => {
          throw diskFull(dirname(vcd))
            ? new ToolError(this.name, `cannot write the trace ${vcd}: the disk is full`)
            : error;
        }),
      );
      const results = parseResults(this.name, ports, executed.results, cycles);
      // A simulator that could not write its whole trace (a full disk) may still exit 0.
      const end = ports.clocks ? clockSchedule(ports.clocks, clocks, cycles[0]!).end : 10 * cycles[0]!;
      checkTraceComplete(this.name, temporary, vcd, ports.clocked || ports.clocks || this.name === 'icarus' ? end : 0);
      // As writeFileAtomic: a symlink's target is replaced, a FIFO or device written through.
      moveIntoPlace(temporary, vcd);
      return checked(executed, results);
    } finally {
      rmSync(temporary, { force: true });
    }
  }
}

/** What a run of the external simulator gave: the results file and, when wanted, its standard output. */
export interface ExecutedRun {
  readonly results: string;
  readonly log?: string;
}

/** Whether the file system of `dir` has no space left (a simulator may hang or die writing to it). */
function diskFull(dir: string): boolean {
  try {
    return statfsSync(dir).bavail === 0;
  } catch {
    return false;
  }
}

/** Fixed allowance of every run (process start, loading the model), ms. */
const RUN_BASE_MS = 30_000;
/** Per cycle whatever the design (reading the stimulus, writing results), ms. */
const RUN_CYCLE_MS = 1;

/** The watchdog of one run: derived from its work (cycles × design size), never a fixed quarter hour. */
export function runTimeout(cycles: number, cells: number, cellCycleMicros: number, traced: boolean): number {
  const perCycle = RUN_CYCLE_MS + (cells * cellCycleMicros) / 1000;
  return Math.ceil(RUN_BASE_MS + (traced ? 4 : 1) * cycles * perCycle);
}

/** Cells, registers and memories of the flattened design (each instance counted). */
export function flatCells(design: IrDesign): number {
  const sizes = new Map<string, number>();
  const size = (name: string): number => {
    const known = sizes.get(name);
    if (known !== undefined) return known;
    const module = moduleByName(design, name);
    const total =
      module.cells.length +
      module.registers.length +
      module.memories.length +
      module.instances.reduce((sum, instance) => sum + size(instance.module), 0);
    sizes.set(name, total);
    return total;
  };
  return size(design.top);
}

/** Bytes read from the end of a trace to check it. */
const TRACE_TAIL_BYTES = 64 * 1024;

/**
 * Checks a VCD a simulator wrote is whole: it has its header, ends with a complete line, and (when
 * `endTime` > 0: a design whose clock toggles every cycle) reaches the run's last time step.
 */
function checkTraceComplete(tool: string, path: string, shownAs: string, endTime: number): void {
  let text: string;
  let size: number;
  try {
    const fd = openSync(path, 'r');
    try {
      size = fstatSync(fd).size;
      const length = Math.min(size, TRACE_TAIL_BYTES);
      const buffer = Buffer.alloc(length);
      readSync(fd, buffer, 0, length, size - length);
      text = buffer.toString('latin1');
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw new ToolError(tool, `wrote no trace ${shownAs} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const incomplete = (why: string): ToolError =>
    new ToolError(tool, `the trace ${shownAs} is incomplete (${why}); was the disk full?`);
  if (size === 0) throw incomplete('it is empty');
  if (!text.endsWith('\n')) throw incomplete('its last line is cut off');
  const stamps = [...text.matchAll(/^#(\d+)\s*$/gm)];
  const last = stamps.length > 0 ? Number(stamps[stamps.length - 1]![1]) : undefined;
  if (size <= TRACE_TAIL_BYTES && !text.includes('$enddefinitions')) throw incomplete('its header is cut off');
  if (endTime > 0 && (last === undefined || last < endTime))
    throw incomplete(`it ends at time ${last ?? 'none'}, the run at ${endTime}`);
}
