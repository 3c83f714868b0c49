import { measureActivity, type ActivityStimulus } from './activity.ts';
import { areaOf } from './area.ts';
import { componentReport, synthesisResult, type ComponentReport } from './componentReport.ts';
import { componentsOf } from './components.ts';
import { synthesizeComposed, type ComposedModule, type CompositionNote } from './composedSynthesis.ts';
import { mapToCells, type MappedDesign } from './mapToCells.ts';
import { moduleOf } from './netlist.ts';
import { powerFromActivity } from './power.ts';
import { flowSettings } from './flowSettings.ts';
import type { ScalingFactors, TechPoint } from './scaling.ts';
import type { RoleOverrides } from './sim/gateStimulus.ts';
import { longestPath } from './timing/longestPath.ts';
import { criticalPath, type CriticalPath } from './timing/sta.ts';
import type { YosysEngine } from './yosys.ts';

export type { ComponentReport } from './componentReport.ts';

export interface SynthesizeOptions extends RoleOverrides {
  readonly engine?: YosysEngine;
  /** Clock for power (and the report), GHz; default 1. */
  readonly clockGhz?: number;
  /** Activity source; default 200 cycles of seeded random inputs. */
  readonly stimulus?: ActivityStimulus;
  /** How the report names the stimulus (default: derived from it, e.g. "200 given vectors"). */
  readonly stimulusLabel?: string;
  readonly source?: TechPoint;
  readonly target?: TechPoint;
  /** 'longest-path' skips OpenSTA. */
  readonly timingEngine?: 'opensta' | 'longest-path';
  /** Reuse an existing mapping of the same Verilog instead of running Yosys again. */
  readonly mapped?: MappedDesign;
  /**
   * Limit for each external tool step (system Yosys, Icarus compile and run); default 120 s.
   * Icarus runs a zero-delay netlist event by event: a 9000-cell FP lane takes about a second per cycle.
   */
  readonly toolTimeoutMs?: number;
  /**
   * Synthesize by composition (composedSynthesis.ts): these modules are simulated once each on
   * their own stimulus and counted by instances; the rest at gate level around them as RTL.
   * For designs too large to simulate flat (the MmaUnit's 32 FP lanes).
   */
  readonly compose?: readonly ComposedModule[];
}

export interface SynthReport {
  readonly top: string;
  readonly engine: YosysEngine;
  readonly library: string;
  readonly clockGhz: number;
  readonly stimulus: string;
  readonly measuredCycles: number;
  readonly source: TechPoint;
  readonly target: TechPoint;
  readonly factors: ScalingFactors;
  /** Top first (the whole design), then each module of the hierarchy. */
  readonly components: readonly ComponentReport[];
  /** Whole-design critical path; block rows use the built-in longest path inside the block. */
  readonly timing: Omit<CriticalPath, 'report'>;
  /** Yosys `stat -liberty` chip area, a cross-check of components[0].area45. */
  readonly yosysChipArea: number;
  /** Modules whose power was measured on one instance and multiplied (`SynthesizeOptions.compose`). */
  readonly composition?: readonly CompositionNote[];
}

export interface SynthesisResult {
  readonly report: SynthReport;
  readonly mapped: MappedDesign;
  /** OpenSTA's report text, if it ran. */
  readonly staReport: string;
}

/**
 * The whole flow for one design: map to the 45 nm library, measure activity by gate-level
 * simulation, and report area, power and timing per block at 45 nm and at the target node.
 * The CLI calls this; a registry of designs can call it with the Verilog it generates.
 */
export async function synthesizeDesign(
  verilogFiles: Readonly<Record<string, string>>,
  top: string,
  options: SynthesizeOptions = {},
): Promise<SynthesisResult> {
  if (options.compose && options.compose.length > 0)
    return synthesizeComposed(verilogFiles, top, options.compose, options);
  const settings = flowSettings(options);
  const { clockGhz, stimulus, factors, roles, timeout, engine } = settings;
  const mapped = options.mapped ?? (await mapToCells(verilogFiles, top, { ...engine, ...timeout }));
  const [activity, timing] = await Promise.all([
    measureActivity(mapped, stimulus, { ...roles, ...timeout }),
    criticalPath(mapped, { ...roles, ...(options.timingEngine ? { engine: options.timingEngine } : {}) }),
  ]);
  const flat = moduleOf(mapped.flat, mapped.gateTop);
  const components = componentsOf(mapped).map((component, index): ComponentReport => {
    const whole = index === 0;
    return componentReport(
      {
        ...component,
        area: areaOf(flat, mapped.library, whole ? undefined : component.cells),
        power45: powerFromActivity(
          mapped,
          activity,
          whole ? { clockHz: clockGhz * 1e9 } : { clockHz: clockGhz * 1e9, cells: component.cells },
        ),
        pathPs: whole ? timing.delayPs : longestPath(mapped, component.cells).delayPs,
      },
      factors,
    );
  });
  return synthesisResult(top, mapped, settings, options, { activity, timing, components });
}
