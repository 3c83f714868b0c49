import type { IrModule } from '../ir.ts';

/** Per output port of a module: the input ports it depends on without a register in between. */
export type CombinationalPaths = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * What a pass may ask about the rest of the design. Modules are processed children first, so
 * every instance in the current module names a module the context already knows. The context
 * belongs to one elaboration (a `PassPipeline`); passes keep no state of their own.
 */
export interface PassContext {
  /** A module below the current one, as the whole pass list left it. */
  readonly child: (moduleName: string) => IrModule;
  /**
   * A module's combinational output→input dependencies, judged on the module as lowered (before
   * any transform), so a loop through a child is found on the design as written.
   */
  readonly combinationalPaths: (moduleName: string) => CombinationalPaths;
}

/** A check reads a module and throws an `HdlError` naming the user's line if it is wrong. */
export interface CheckPass {
  readonly kind: 'check';
  readonly name: string;
  readonly run: (module: IrModule, context: PassContext) => void;
}

/** A transform returns a new module (or the same object when nothing changed); it never mutates its input. */
export interface TransformPass {
  readonly kind: 'transform';
  readonly name: string;
  readonly run: (module: IrModule, context: PassContext) => IrModule;
}

/** One step of the pass list (SpinalHDL's phases): a check or a transform. */
export type Pass = CheckPass | TransformPass;
