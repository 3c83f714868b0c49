import { UserError } from '../common/errors.ts';
import { measureActivity, type Activity } from './activity.ts';
import {
  componentReport,
  synthesisResult,
  type ComponentReport,
  type CompositionNote,
  type SynthesisResult,
} from './componentReport.ts';
import { componentsOf, displayModuleName } from './components.ts';
import { hierarchicalArea, scaleArea } from './hierarchyArea.ts';
import { mapToCells, type MappedDesign } from './mapToCells.ts';
import { instanceTree, leafCellOwners, type ModuleInstance } from './netlist.ts';
import { powerFromActivity, type PowerReport } from './power.ts';
import { addPower, noPower } from './powerSum.ts';
import { flowSettings, type ComposedModule, type SynthesizeOptions } from './flowSettings.ts';
import { longestPath } from './timing/longestPath.ts';
import { criticalPath } from './timing/sta.ts';

export type { ComposedModule, CompositionNote };

/** One instance of a module inside a composed module's own run: its power and its longest path. */
interface PerInstance {
  readonly power: PowerReport;
  readonly pathPs: number;
}

/** Per module of a composed module's own flat netlist, one instance's measured power and path. */
function perInstanceFigures(mapped: MappedDesign, activity: Activity, clockHz: number): Map<string, PerInstance> {
  return new Map(
    componentsOf(mapped).map((component, index) => {
      const whole = index === 0;
      const power = powerFromActivity(mapped, activity, whole ? { clockHz } : { clockHz, cells: component.cells });
      const pathPs = whole ? longestPath(mapped).delayPs : longestPath(mapped, component.cells).delayPs;
      return [component.module, { power: addPower(noPower, power, 1 / component.instances), pathPs }];
    }),
  );
}

const pathKey = (path: readonly string[]): string => path.join('\u0000');
const isBelow = (inner: ModuleInstance, outer: ModuleInstance): boolean =>
  inner.path.length > outer.path.length && outer.path.every((name, index) => inner.path[index] === name);

/**
 * Synthesis of a large regular design by composition. Yosys maps every unique module once with
 * the hierarchy kept; area is Σ module area × instances (hierarchyArea.ts). The composed modules
 * (e.g. the 32 FP lanes) are simulated at gate level once each, on their own stimulus; the rest
 * of the design (glue, decoder) is simulated at gate level on the top's stimulus with the composed
 * instances as RTL beside it. A row's power = its measured gates + its composed instances × their
 * one measured instance. Timing: OpenSTA on the whole hierarchical netlist.
 */
export async function synthesizeComposed(
  verilogFiles: Readonly<Record<string, string>>,
  top: string,
  compose: readonly ComposedModule[],
  options: SynthesizeOptions = {},
): Promise<SynthesisResult> {
  const settings = flowSettings(options);
  const { clockGhz, stimulus, factors, roles, timeout, engine } = settings;
  const clockHz = clockGhz * 1e9;
  const mapped =
    options.mapped ??
    (await mapToCells(verilogFiles, top, {
      ...engine,
      ...timeout,
      compose: compose.map((entry) => entry.module),
      // The composed flow costs library cells only: every memory in flip-flops, as before macros.
      sramThresholdBits: Number.POSITIVE_INFINITY,
    }));
  // One simulation at a time: each is a long single-threaded Icarus run.
  const activity = await measureActivity(mapped, stimulus, { ...roles, ...timeout, models: verilogFiles });
  const measured = new Map<string, { figures: Map<string, PerInstance>; cycles: number }>();
  for (const entry of compose) {
    const own = mapped.composed?.[entry.module];
    if (!own) throw new UserError(`the mapping has no composed copy of ${entry.module}; map with compose including it`);
    const ownActivity = await measureActivity(own, entry.stimulus, { ...roles, ...timeout });
    measured.set(entry.module, { figures: perInstanceFigures(own, ownActivity, clockHz), cycles: ownActivity.cycles });
  }
  const timing = await criticalPath(mapped, {
    ...roles,
    ...timeout,
    hierarchical: true,
    ...(options.timingEngine ? { engine: options.timingEngine } : {}),
  });

  const tree = instanceTree(mapped.hierarchical, top);
  const moduleAt = new Map(tree.map((instance) => [pathKey(instance.path), instance.module]));
  // The outermost composed instance at or above an instance: who measured it.
  const coveredBy = (instance: ModuleInstance): string | undefined => {
    for (let depth = 0; depth <= instance.path.length; depth++) {
      const module = moduleAt.get(pathKey(instance.path.slice(0, depth)));
      if (module !== undefined && measured.has(module)) return module;
    }
    return undefined;
  };
  const flatInstances = tree.filter((instance) => coveredBy(instance) === undefined);
  const outermostComposed = tree.filter(
    (instance) => measured.has(instance.module) && coveredBy(instance) === instance.module,
  );
  const flatCells = new Map<string, Set<string>>();
  for (const [cell, owner] of leafCellOwners(mapped.hierarchical, flatInstances)) {
    for (let depth = 0; depth <= owner.path.length; depth++) {
      const module = moduleAt.get(pathKey(owner.path.slice(0, depth)));
      if (module !== undefined) flatCells.set(module, (flatCells.get(module) ?? new Set()).add(cell));
    }
  }
  const figure = (composed: string, module: string): PerInstance => {
    const found = measured.get(composed)?.figures.get(module);
    if (!found) throw new Error(`composed run of ${composed} has no row for ${module}`);
    return found;
  };

  const components = hierarchicalArea(mapped.hierarchical, top, mapped.library).map(
    ({ module, instances, perInstance }): ComponentReport => {
      let power = noPower;
      let pathPs = 0;
      const own = tree.filter((instance) => instance.module === module);
      for (const instance of own) {
        const composed = coveredBy(instance);
        if (composed === undefined) continue;
        const one = figure(composed, module);
        power = addPower(power, one.power);
        pathPs = Math.max(pathPs, one.pathPs);
      }
      const flatOwn = own.filter((instance) => coveredBy(instance) === undefined);
      if (flatOwn.length > 0) {
        const cells = flatCells.get(module) ?? new Set<string>();
        const whole = module === top;
        power = addPower(power, powerFromActivity(mapped, activity, whole ? { clockHz } : { clockHz, cells }));
        pathPs = Math.max(pathPs, whole ? timing.delayPs : longestPath(mapped, cells).delayPs);
        for (const inner of outermostComposed.filter((instance) => flatOwn.some((outer) => isBelow(instance, outer)))) {
          const one = figure(inner.module, inner.module);
          power = addPower(power, one.power);
          if (!whole) pathPs = Math.max(pathPs, one.pathPs);
        }
      }
      return componentReport(
        {
          module,
          displayName: displayModuleName(module),
          instances,
          area: scaleArea(perInstance, instances),
          power45: power,
          pathPs,
        },
        factors,
      );
    },
  );

  return synthesisResult(top, mapped, settings, options, {
    activity,
    timing,
    components,
    composition: compose.map((entry) => ({
      module: entry.module,
      instances: outermostComposed.filter((instance) => instance.module === entry.module).length,
      stimulus: entry.stimulusLabel,
      measuredCycles: measured.get(entry.module)?.cycles ?? 0,
    })),
  });
}
