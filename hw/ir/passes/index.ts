import type { IrDesign, IrModule } from '../ir.ts';
import { checkWidths } from './checkWidths.ts';
import { checkDrivers } from './checkDrivers.ts';
import { checkCombinationalLoops, combinationalPathsOf } from './checkCombinationalLoops.ts';
import { foldConstants } from './foldConstants.ts';
import { removeDeadCode } from './removeDeadCode.ts';
import { assignNames } from './assignNames.ts';
import type { CheckPass, CombinationalPaths, Pass, PassContext } from './pass.ts';

export type { CheckPass, CombinationalPaths, Pass, PassContext, TransformPass } from './pass.ts';

/**
 * The ordered pass list (SpinalHDL's phases): checks first, so errors name the user's code as
 * written, then the transforms, then naming, which every backend relies on. To add a pass of
 * your own, build a list with `insertPass` and hand it to `elaborate(definition, params, { passes })`.
 */
export const PASSES: readonly Pass[] = [
  { kind: 'check', name: 'checkWidths', run: checkWidths },
  { kind: 'check', name: 'checkDrivers', run: checkDrivers },
  { kind: 'check', name: 'checkCombinationalLoops', run: checkCombinationalLoops },
  { kind: 'transform', name: 'foldConstants', run: foldConstants },
  { kind: 'transform', name: 'removeDeadCode', run: removeDeadCode },
  { kind: 'transform', name: 'assignNames', run: assignNames },
];

/** The check passes of the default list, in order: what every transformed module must still pass. */
export const CHECKS: readonly CheckPass[] = PASSES.filter((pass): pass is CheckPass => pass.kind === 'check');

/** Where `insertPass` puts a pass: right before or right after a named pass of the list. */
export type PassPosition = { readonly before: string } | { readonly after: string };

/**
 * The hook for user passes: a new list with `pass` placed before or after the named one (the list
 * itself is not changed). A transform that produces cells for the backends belongs before
 * `assignNames`, which gives unnamed nets their `_n<k>` names; a check placed after the transforms
 * sees the IR the backends see. Throws on an unknown anchor or a name already in the list.
 */
export function insertPass(passes: readonly Pass[], pass: Pass, position: PassPosition): readonly Pass[] {
  if (passes.some((existing) => existing.name === pass.name))
    throw new Error(`a pass named '${pass.name}' is already in the list`);
  const anchor = 'before' in position ? position.before : position.after;
  const index = passes.findIndex((existing) => existing.name === anchor);
  if (index < 0)
    throw new Error(
      `no pass named '${anchor}' to insert '${pass.name}' next to (passes: ${passes.map((p) => p.name).join(', ')})`,
    );
  const at = 'before' in position ? index : index + 1;
  return [...passes.slice(0, at), pass, ...passes.slice(at)];
}

/** Runs a pass list, in order, on one module: checks read it, transforms replace it. Returns the result. */
export function runPasses(module: IrModule, context: PassContext, passes: readonly Pass[] = PASSES): IrModule {
  let current = module;
  for (const pass of passes) {
    if (pass.kind === 'check') pass.run(current, context);
    else current = pass.run(current, context);
  }
  return current;
}

/**
 * The passes of one design, run module by module, children first. It is the `PassContext` of that
 * design: it remembers each module as lowered and as processed, and the combinational paths of
 * each (computed once, when a parent first asks). One pipeline per elaboration; nothing is kept
 * between designs.
 */
export class PassPipeline implements PassContext {
  private readonly lowered = new Map<string, IrModule>();
  private readonly processed = new Map<string, IrModule>();
  private readonly paths = new Map<string, CombinationalPaths>();

  constructor(readonly passes: readonly Pass[] = PASSES) {}

  /** Runs the list on a freshly lowered module (its children already run) and returns the result. */
  run(module: IrModule): IrModule {
    const result = runPasses(module, this, this.passes);
    this.lowered.set(module.name, module);
    this.processed.set(module.name, result);
    return result;
  }

  readonly child = (moduleName: string): IrModule => this.known(this.processed, moduleName);

  readonly combinationalPaths = (moduleName: string): CombinationalPaths => {
    let paths = this.paths.get(moduleName);
    if (!paths) {
      paths = combinationalPathsOf(this.known(this.lowered, moduleName), this);
      this.paths.set(moduleName, paths);
    }
    return paths;
  };

  private known(modules: ReadonlyMap<string, IrModule>, moduleName: string): IrModule {
    const module = modules.get(moduleName);
    if (!module) throw new Error(`internal: module ${moduleName} has not been through the passes yet`);
    return module;
  }
}

/**
 * Runs check passes over every module of an elaborated design (children first, as stored): the
 * transformed IR must still pass what the lowered IR passed. Throws the first check's error.
 */
export function checkDesign(design: IrDesign, checks: readonly CheckPass[] = CHECKS): void {
  const pipeline = new PassPipeline(checks);
  for (const module of design.modules) pipeline.run(module);
}
