import { ModuleBuilder, checkModuleDefinition, type ModuleDefinition, type Params } from '../core/module.ts';
import { mapPorts, type FlatPortsOf, type PortTree } from '../core/ports.ts';
import { DuplicateNameError, InvalidParameterError } from '../core/errors.ts';
import { verilogIdentifier } from './identifiers.ts';
import { blackBoxOf } from '../core/blackBox.ts';
import type { Signal } from '../core/signal.ts';
import { clockPortsOf, type IrDesign, type IrModule } from './ir.ts';
import { checkClockCrossings, type CrossingSummary } from './clockCrossings.ts';
import { lowerModule } from './lower.ts';
import { PassPipeline, PASSES, type Pass } from './passes/index.ts';

/**
 * Module name of a parameter set: the plain name for the defaults, else `Name_key_value…` (sorted
 * keys; characters other than letters and digits become `_`), spelled as a Verilog identifier
 * (`begin` → `begin_v`, hw/ir/identifiers.ts): the name of the module in Verilog, in its file name
 * and in every engine's build.
 */
export function moduleNameFor(definition: Pick<ModuleDefinition, 'name' | 'defaults'>, params: Params): string {
  const changed = Object.keys(params)
    .filter((key) => params[key] !== definition.defaults[key])
    .sort();
  const part = (value: Params[string]): string => String(value).replace(/[^A-Za-z0-9]/g, '_');
  return verilogIdentifier([definition.name, ...changed.map((key) => `${part(key)}_${part(params[key]!)}`)].join('_'));
}

/**
 * Instances nest at most this deep. Elaboration recurses once per level (about 1,100 levels fit
 * Node's default stack); real hierarchies are tens of levels, and a generator instantiating itself
 * without reaching its base case is the usual way past this.
 */
export const MAX_HIERARCHY_DEPTH = 512;

/** How to elaborate: the pass list (default `PASSES`; add your own with `insertPass`). */
export interface ElaborateOptions {
  readonly passes?: readonly Pass[];
}

/**
 * Runs a generator and everything below it, lowers each distinct module once, and applies the
 * ordered pass list. The result lists modules children first, the top last.
 */
export function elaborate<P extends Params, T extends PortTree>(
  definition: ModuleDefinition<P, T>,
  params: Partial<P> = {},
  options: ElaborateOptions = {},
): IrDesign<FlatPortsOf<T>> {
  const modules: IrModule[] = [];
  const pipeline = new PassPipeline(options.passes ?? PASSES);
  const byName = new Map<string, { definition: ModuleDefinition; module: IrModule }>();
  // Crossing summaries, made only where a module has several clocks (one-clock designs pay nothing).
  const summaries = new Map<string, CrossingSummary>();
  const summaryOf = (module: IrModule): CrossingSummary => {
    let summary = summaries.get(module.name);
    if (!summary) {
      const children = new Map<string, CrossingSummary>();
      for (const instance of module.instances)
        children.set(instance.module, summaryOf(byName.get(instance.module)!.module));
      summary = checkClockCrossings(module, children);
      summaries.set(module.name, summary);
    }
    return summary;
  };

  // Names of the modules being built, outermost first: the instance path for limit messages.
  const building: string[] = [];
  const visit = (current: ModuleDefinition, requested: Params, location = current.location): IrModule => {
    checkModuleDefinition(current);
    if (building.length >= MAX_HIERARCHY_DEPTH)
      throw new InvalidParameterError(
        location,
        `instances nest deeper than ${MAX_HIERARCHY_DEPTH} levels (${hierarchyExcerpt(building)}); does a generator instantiate itself without reaching its base case?`,
      );
    for (const key of Object.keys(requested))
      if (!(key in current.defaults))
        throw new InvalidParameterError(
          location,
          `${current.name} has no parameter '${key}' (it has: ${Object.keys(current.defaults).join(', ') || 'none'})`,
        );
    const full = { ...current.defaults, ...requested } as Params;
    for (const [key, value] of Object.entries(full))
      if (typeof value !== typeof current.defaults[key])
        throw new InvalidParameterError(
          location,
          `${current.name} parameter '${key}' must be a ${typeof current.defaults[key]}, got ${JSON.stringify(value)}`,
        );
    const problem = current.validate?.(full);
    if (problem) throw new InvalidParameterError(location, `${current.name}: ${problem}`);
    const name = moduleNameFor(current, full);
    if (building.includes(name))
      throw new InvalidParameterError(
        location,
        `${name} instantiates itself with the same parameters (${hierarchyExcerpt([...building.slice(building.indexOf(name)), name])})`,
      );
    const seen = byName.get(name);
    if (seen) {
      if (seen.definition !== current)
        throw new DuplicateNameError(current.location, `two different module definitions are both named ${name}`);
      return seen.module;
    }
    building.push(name);
    const lowered = buildAndLower(current, full, name);
    building.pop();
    const processed = pipeline.run(lowered);
    const blackBox = blackBoxOf(current);
    const module = blackBox
      ? { ...processed, blackBox: { file: blackBox.file, model: blackBox.model, verilog: blackBox.verilog() } }
      : processed;
    byName.set(name, { definition: current, module });
    if (clockPortsOf(module).length > 1) summaryOf(module);
    modules.push(module);
    return module;
  };

  /**
   * Runs the generator and lowers what it built. A function of its own so that the builder and
   * every DSL value it holds (~300 bytes per operator) are garbage before the passes run.
   */
  const buildAndLower = (current: ModuleDefinition, full: Params, name: string): IrModule => {
    const builder = new ModuleBuilder(name);
    const ports: Signal[] = [];
    const io = mapPorts(current.ports(full), (portName, spec) => {
      const port = builder.addPort(portName, spec.width, spec.direction, current.location);
      ports.push(port);
      return port;
    });
    current.build(builder, io, full);
    const children = builder.instances.map((instance) => {
      const child = visit(instance.definition, instance.params, instance.location);
      return {
        module: child.name,
        clocked: child.clocked,
        ...(child.domains ? { domains: child.domains } : {}),
      };
    });
    return lowerModule({
      builder,
      name,
      definition: current.name,
      parameters: full,
      location: current.location,
      ports,
      children,
      ...(current.description === undefined ? {} : { description: current.description }),
    });
  };

  const top = visit(definition, params as Params);
  return { top: top.name, modules };
}

/** A module path for a message: whole when short, else its first and last three modules. */
function hierarchyExcerpt(modules: readonly string[]): string {
  const shown = modules.length <= 6 ? modules : [...modules.slice(0, 3), '…', ...modules.slice(-3)];
  return shown.join(' → ');
}
