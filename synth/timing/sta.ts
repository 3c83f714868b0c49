import { ToolError } from '../../common/errors.ts';
import type { MappedDesign } from '../mapToCells.ts';
import { moduleOf, portsOf } from '../netlist.ts';
import { portRoles, type RoleOverrides } from '../sim/gateStimulus.ts';
import { runTool, withWorkspace } from '../../tools/runTool.ts';
import { longestPath } from './longestPath.ts';

export interface CriticalPath {
  /** Clock-to-endpoint delay including setup: the shortest clock period the design meets, ps. */
  readonly delayPs: number;
  /** 1 / delay. */
  readonly maxClockGhz: number;
  readonly startpoint: string;
  readonly endpoint: string;
  /** Which analysis produced it. */
  readonly engine: 'opensta' | 'longest-path';
  /** Why OpenSTA was not used, when it was not. */
  readonly fallbackReason?: string;
  /** OpenSTA's report text (empty for the fallback). */
  readonly report: string;
}

export interface TimingOptions extends RoleOverrides {
  /** Analysis period, ns (any value works: delay = period − slack). Default 1. */
  readonly periodNs?: number;
  /** Skip OpenSTA and use the built-in longest path (tests, machines without `sta`). */
  readonly engine?: 'opensta' | 'longest-path';
  /**
   * Analyse the hierarchical netlist (every module once, linked by OpenSTA) instead of the flat
   * one: the only complete netlist when the flat one keeps composed modules as blackboxes.
   */
  readonly hierarchical?: boolean;
  /** Limit for OpenSTA; default 60 s. */
  readonly timeoutMs?: number;
}

/*
 * A real clock on the clock port if there is one, otherwise a virtual clock so input→output
 * paths are still constrained; inputs arrive and outputs are required at the clock edge.
 */
function staScript(top: string, clock: string | undefined, periodNs: number): string {
  const others = clock ? `[delete_from_list [all_inputs] [get_ports ${clock}]]` : '[all_inputs]';
  return [
    'read_liberty cells.lib',
    'read_verilog gate.v',
    `link_design ${top}`,
    clock
      ? `create_clock -name clk -period ${periodNs} [get_ports ${clock}]`
      : `create_clock -name clk -period ${periodNs}`,
    `set_input_delay 0 -clock clk ${others}`,
    'set_output_delay 0 -clock clk [all_outputs]',
    'report_checks -path_delay max -digits 4',
    '',
  ].join('\n');
}

/** Reads slack and the start/end points from `report_checks` text. */
export function parseReportChecks(
  report: string,
  periodNs: number,
): Omit<CriticalPath, 'engine' | 'report' | 'fallbackReason'> | undefined {
  const slack = /(-?[0-9.]+)\s+slack \((?:MET|VIOLATED)\)/.exec(report);
  if (!slack?.[1]) return undefined;
  const delayPs = (periodNs - Number(slack[1])) * 1000;
  return {
    delayPs,
    maxClockGhz: 1000 / delayPs,
    startpoint: /Startpoint: (\S+)/.exec(report)?.[1] ?? '?',
    endpoint: /Endpoint: (\S+)/.exec(report)?.[1] ?? '?',
  };
}

function fallback(mapped: MappedDesign, reason: string): CriticalPath {
  const path = longestPath(mapped);
  return {
    delayPs: path.delayPs,
    maxClockGhz: 1000 / path.delayPs,
    startpoint: path.cells[0] ?? '?',
    endpoint: path.cells.at(-1) ?? '?',
    engine: 'longest-path',
    fallbackReason: reason,
    report: '',
  };
}

/**
 * The design's critical path from OpenSTA on the mapped flat (or hierarchical) netlist and the project library; if
 * OpenSTA is missing or fails, the built-in longest-path analysis, with the reason recorded.
 */
export async function criticalPath(mapped: MappedDesign, options: TimingOptions = {}): Promise<CriticalPath> {
  // A composed flat netlist keeps blackboxes, which cut the built-in analysis's paths.
  const partial = mapped.composed ? '; flat part only, paths through composed modules not followed' : '';
  if (options.engine === 'longest-path') return fallback(mapped, `requested${partial}`);
  const periodNs = options.periodNs ?? 1;
  const roles = portRoles(portsOf(moduleOf(mapped.flat, mapped.gateTop)), options);
  const [netlist, top] = options.hierarchical
    ? [mapped.hierarchicalVerilog, mapped.top]
    : [mapped.flatVerilog, mapped.gateTop];
  try {
    const inputs = {
      'cells.lib': mapped.liberty,
      'gate.v': netlist,
      'timing.tcl': staScript(top, roles.clock, periodNs),
    };
    // A failed analysis is read from the report (the fallback records why), not thrown.
    const result = await withWorkspace('sta', inputs, (dir) =>
      runTool('sta', ['-no_init', '-no_splash', '-exit', 'timing.tcl'], {
        cwd: dir,
        timeout: options.timeoutMs ?? 60_000,
        acceptExitCodes: 'any',
      }),
    );
    const report = `${result.stdout}\n${result.stderr}`;
    const parsed = parseReportChecks(report, periodNs);
    if (result.exitCode !== 0 || !parsed)
      return fallback(mapped, `OpenSTA gave no path: ${report.trim().split('\n').slice(-2).join(' | ')}${partial}`);
    return { ...parsed, engine: 'opensta', report: result.stdout };
  } catch (error) {
    if (error instanceof ToolError) return fallback(mapped, `${error.message}${partial}`);
    throw error;
  }
}
