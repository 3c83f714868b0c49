import { hasChecks } from '../hw/ir/checks.ts';
import { UserError, ToolError } from '../common/errors.ts';
import { clockPortsOf, topModule, type IrDesign } from '../hw/ir/ir.ts';
import { clockSchedule, type ClockTimings } from '../hw/sim/clockSchedule.ts';
import type { CycleRun, PortValues } from './engine.ts';

/**
 * The text exchanged with external simulator harnesses. Stimulus: a line `S` starts an
 * independent stream (all state back to 0), then one line `C <hex> <hex> …` per cycle with every
 * input port (clocks excluded) in port order; a design with several clocks has four more fields
 * first: the mask of the clocks that rise in this step (bit i: `clocks[i]`), its sample time, its
 * edge time and the next step's sample time (hw/sim/clockSchedule.ts). Results: `S` per stream, then one line
 * `O <hex> <hex> …` per cycle with the outputs in port order. Plain text, so a failing run can be replayed by hand.
 */

export interface HarnessPort {
  readonly name: string;
  readonly width: number;
}

/** The top's ports as the harness drives and samples them: inputs less the clock, and outputs. */
export interface HarnessPorts {
  readonly top: string;
  readonly inputs: readonly HarnessPort[];
  readonly outputs: readonly HarnessPort[];
  readonly clocked: boolean;
  /** The clock inputs when there are several (`clk` first when clocked) or one named `clk_<domain>`; absent with `clk` alone or none. */
  readonly clocks?: readonly string[];
  /**
   * The design has assertions: the harness prints `GEN-STREAM` at each stream start and
   * `GEN-CYCLE` at each cycle's sample point (before the edge) on standard output, between the
   * design's GEN-CHECK lines, so engines/checkLog.ts can tell each failure's stream and cycle.
   */
  readonly checked?: boolean;
}

/** The harness view of a design's top. */
export function harnessPortsOf(design: IrDesign): HarnessPorts {
  const top = topModule(design);
  const clocks = clockPortsOf(top);
  const pick = (direction: 'input' | 'output'): HarnessPort[] =>
    top.ports
      .filter((port) => port.direction === direction && !clocks.includes(port.name))
      .map(({ name, width }) => ({ name, width }));
  return {
    top: top.name,
    inputs: pick('input'),
    outputs: pick('output'),
    clocked: top.clocked,
    // A lone named domain's clock (`clk_dst`) is stepped like several: the harness names it.
    ...(clocks.length > 1 || (clocks.length === 1 && !top.clocked) ? { clocks } : {}),
    ...(hasChecks(design) ? { checked: true } : {}),
  };
}

/** Checks each cycle's values against the ports, so a typo fails here and not as a silent 0. */
function checkCycle(ports: HarnessPorts, cycle: PortValues, index: number): void {
  for (const [name, value] of Object.entries(cycle)) {
    const port = ports.inputs.find((input) => input.name === name);
    if (!port)
      throw new UserError(
        `cycle ${index}: ${ports.top} has no input '${name}' (inputs: ${ports.inputs.map((input) => input.name).join(', ') || 'none'})`,
      );
    if (typeof value !== 'bigint' || value < 0n || value >> BigInt(port.width) !== 0n)
      throw new UserError(
        `cycle ${index}: value ${String(value)} for '${name}' does not fit in ${port.width} unsigned bits`,
      );
  }
}

/** Stimulus text for several streams; inputs not given in a cycle keep their previous value (0 at start). */
export function formatStimulus(
  ports: HarnessPorts,
  streams: readonly (readonly PortValues[])[],
  timings?: ClockTimings,
): string {
  const lines: string[] = [];
  const clocks = ports.clocks;
  const longest = Math.max(0, ...streams.map((stream) => stream.length));
  const schedule = clockSchedule(clocks ?? [], timings, clocks ? longest : 0);
  for (const stream of streams) {
    lines.push('S');
    const current = ports.inputs.map(() => 0n);
    stream.forEach((cycle, index) => {
      checkCycle(ports, cycle, index);
      ports.inputs.forEach((port, i) => {
        const value = cycle[port.name];
        if (value !== undefined) current[i] = value;
      });
      const step = schedule.steps[index];
      const next = schedule.steps[index + 1]?.sample ?? schedule.end;
      const timing = step ? [step.mask, step.sample, step.edge, next].map((value) => value.toString(16)) : [];
      lines.push(['C', ...timing, ...current.map((value) => value.toString(16))].join(' '));
    });
  }
  return lines.join('\n') + '\n';
}

/** Parses a harness's results back into per-stream, per-cycle output values. */
export function parseResults(tool: string, ports: HarnessPorts, text: string, cycles: readonly number[]): CycleRun[] {
  const runs: PortValues[][] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line === 'S') {
      runs.push([]);
      continue;
    }
    const run = runs[runs.length - 1];
    const [tag, ...fields] = line.trim().split(/\s+/);
    if (!run || tag !== 'O' || fields.length !== ports.outputs.length)
      throw new ToolError(tool, `harness wrote an unexpected line: ${line.slice(0, 200)}`);
    const values: PortValues = {};
    ports.outputs.forEach((port, index) => {
      const field = fields[index]!;
      if (!/^[0-9a-fA-F]+$/.test(field))
        throw new ToolError(
          tool,
          `output '${port.name}' has unknown bits (${field.slice(0, 40)}); a register or memory was never initialized`,
        );
      values[port.name] = BigInt(`0x${field}`);
    });
    run.push(values);
  }
  if (runs.length !== cycles.length || runs.some((run, index) => run.length !== cycles[index]))
    throw new ToolError(
      tool,
      `harness stopped early: expected ${cycles.join('+')} cycles, got ${runs.map((run) => run.length).join('+') || 'nothing'}`,
    );
  return runs.map((outputs) => ({ outputs }));
}
