import type { IrModule } from '../ir.ts';
import { checkWidths } from './checkWidths.ts';
import { checkDrivers } from './checkDrivers.ts';
import { checkCombinationalLoops } from './checkCombinationalLoops.ts';
import { foldConstants } from './foldConstants.ts';
import { removeDeadCode } from './removeDeadCode.ts';
import { assignNames } from './assignNames.ts';

/** Gives a pass the already-processed modules below the current one (children come first). */
export type ChildLookup = (moduleName: string) => IrModule;

export interface Pass {
  readonly name: string;
  readonly run: (module: IrModule, child: ChildLookup) => void;
}

/**
 * The ordered pass list (SpinalHDL's phases): checks first, so errors name the user's code as
 * written, then the transforms, then naming, which every backend relies on.
 */
export const PASSES: readonly Pass[] = [
  { name: 'checkWidths', run: checkWidths },
  { name: 'checkDrivers', run: checkDrivers },
  { name: 'checkCombinationalLoops', run: checkCombinationalLoops },
  { name: 'foldConstants', run: foldConstants },
  { name: 'removeDeadCode', run: removeDeadCode },
  { name: 'assignNames', run: assignNames },
];

/** Runs every pass, in order, on one module. */
export function runPasses(module: IrModule, child: ChildLookup): void {
  for (const pass of PASSES) pass.run(module, child);
}
