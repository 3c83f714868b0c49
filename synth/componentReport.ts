import type { AreaReport, CellTypeUsage } from './area.ts';
import { describeStimulus, type Activity } from './activity.ts';
import type { FlowSettings, SynthesizeOptions } from './flowSettings.ts';
import type { MappedDesign } from './mapToCells.ts';
import type { CriticalPath } from './timing/sta.ts';
import type { PowerReport } from './power.ts';
import type { ScalingFactors, TechPoint } from './scaling.ts';
import type { YosysEngine } from '../tools/yosys.ts';
import type { SramMacroReport } from './sramMacro.ts';

/** How a composed module entered the report: measured once, counted `instances` times. */
export interface CompositionNote {
  readonly module: string;
  readonly instances: number;
  readonly stimulus: string;
  readonly measuredCycles: number;
}

/** The report of one synthesis run. */
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
  /** Memories kept as SRAM macros (costed from the macro table, included in the rows above); absent: none. */
  readonly macros?: readonly SramMacroReport[];
}

export interface SynthesisResult {
  readonly report: SynthReport;
  readonly mapped: MappedDesign;
  /** OpenSTA's report text, if it ran. */
  readonly staReport: string;
}

/** One row of the report: a block (all its instances, submodules included). */
export interface ComponentReport {
  readonly module: string;
  /** Readable module name (parameters spelled out for Yosys-specialized modules). */
  readonly displayName: string;
  readonly instances: number;
  readonly cells: number;
  readonly area45: number;
  readonly areaTarget: number;
  readonly power45: PowerReport;
  /** Total power at the target node: dynamic × energy factor (same clock) + leakage × power factor. */
  readonly totalUwTarget: number;
  readonly criticalPathPs45: number;
  readonly criticalPathPsTarget: number;
  readonly byType: readonly CellTypeUsage[];
}

/** A report row from a block's 45 nm figures, with the target-node ones derived by the scaling factors. */
export function componentReport(
  block: {
    readonly module: string;
    readonly displayName: string;
    readonly instances: number;
    readonly area: AreaReport;
    readonly power45: PowerReport;
    readonly pathPs: number;
  },
  factors: ScalingFactors,
): ComponentReport {
  return {
    module: block.module,
    displayName: block.displayName,
    instances: block.instances,
    cells: block.area.cells,
    area45: block.area.area,
    areaTarget: block.area.area * factors.area,
    power45: block.power45,
    totalUwTarget: block.power45.dynamicUw * factors.energy + block.power45.leakageUw * factors.power,
    criticalPathPs45: block.pathPs,
    criticalPathPsTarget: block.pathPs * factors.delay,
    byType: block.area.byType,
  };
}

/** The result every flow returns: its rows, with the settings, activity and timing they came from. */
export function synthesisResult(
  top: string,
  mapped: MappedDesign,
  settings: FlowSettings,
  options: SynthesizeOptions,
  measured: {
    readonly activity: Activity;
    readonly timing: CriticalPath;
    readonly components: readonly ComponentReport[];
    readonly composition?: readonly CompositionNote[];
    readonly macros?: readonly SramMacroReport[];
  },
): SynthesisResult {
  const { report: staReport, ...timing } = measured.timing;
  return {
    report: {
      top,
      engine: mapped.engine,
      library: mapped.library.name,
      clockGhz: settings.clockGhz,
      stimulus: options.stimulusLabel ?? describeStimulus(settings.stimulus),
      measuredCycles: measured.activity.cycles,
      source: settings.source,
      target: settings.target,
      factors: settings.factors,
      components: measured.components,
      timing,
      yosysChipArea: mapped.yosysChipArea,
      ...(measured.composition ? { composition: measured.composition } : {}),
      ...(measured.macros && measured.macros.length > 0 ? { macros: measured.macros } : {}),
    },
    mapped,
    staReport,
  };
}
