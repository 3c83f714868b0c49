import { measureActivity } from './activity.ts';
import { areaOf } from './area.ts';
import { componentReport, synthesisResult, type ComponentReport, type SynthesisResult } from './componentReport.ts';
import { componentsOf } from './components.ts';
import { synthesizeComposed } from './composedSynthesis.ts';
import { mapToCells } from './mapToCells.ts';
import { moduleOf } from './netlist.ts';
import { powerFromActivity } from './power.ts';
import { flowSettings, type SynthesizeOptions } from './flowSettings.ts';
import { longestPath } from './timing/longestPath.ts';
import { criticalPath } from './timing/sta.ts';
import { sramMacroReports, sramMacrosOf, withSramMacros } from './sramMacro.ts';

export type { ComponentReport, SynthesisResult, SynthReport } from './componentReport.ts';
export type { SynthesizeOptions } from './flowSettings.ts';

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
  const mapped =
    options.mapped ??
    (await mapToCells(verilogFiles, top, {
      ...engine,
      ...timeout,
      ...(options.sramThresholdBits === undefined ? {} : { sramThresholdBits: options.sramThresholdBits }),
    }));
  const [activity, timing] = await Promise.all([
    measureActivity(mapped, stimulus, { ...roles, ...timeout }),
    criticalPath(mapped, { ...roles, ...(options.timingEngine ? { engine: options.timingEngine } : {}) }),
  ]);
  const flat = moduleOf(mapped.flat, mapped.gateTop);
  const components = componentsOf(mapped).map((component, index): ComponentReport => {
    const whole = index === 0;
    // SRAM macros are costed from their table (sramMacro.ts), not from library cells.
    const { area, power } = withSramMacros(
      areaOf(flat, mapped.library, whole ? undefined : component.cells),
      powerFromActivity(
        mapped,
        activity,
        whole ? { clockHz: clockGhz * 1e9 } : { clockHz: clockGhz * 1e9, cells: component.cells },
      ),
      sramMacrosOf(flat, whole ? undefined : component.cells),
      clockGhz * 1e9,
    );
    return componentReport(
      {
        ...component,
        area,
        power45: power,
        pathPs: whole ? timing.delayPs : longestPath(mapped, component.cells).delayPs,
      },
      factors,
    );
  });
  const macros = sramMacroReports(sramMacrosOf(flat), clockGhz * 1e9, factors);
  return synthesisResult(top, mapped, settings, options, { activity, timing, components, macros });
}
