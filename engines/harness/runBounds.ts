/**
 * The watchdog of an external engine's runs: a bound derived from the work (cycles × the flattened
 * design's size), or the one fixed bound of GEN_WATCHDOG_MS.
 */
import { UserError } from '../../common/errors.ts';
import { quoteValue } from '../../common/optionValues.ts';
import { moduleByName, type IrDesign } from '../../hw/ir/ir.ts';

/** Fixed allowance of every run (process start, loading the model), ms. */
const RUN_BASE_MS = 30_000;
/** Per cycle whatever the design (reading the stimulus, writing results), ms. */
const RUN_CYCLE_MS = 1;

/**
 * Set to a whole number of ms, replaces every bound runTimeout derives (a batch run's, each wait
 * of a session's) by that fixed bound; unset or empty, the derived bounds hold. The tests of the
 * watchdog itself use it to run a session into its watchdog in seconds instead of RUN_BASE_MS.
 */
export const WATCHDOG_ENV = 'GEN_WATCHDOG_MS';

/** The watchdog of one run: derived from its work (cycles × design size), never a fixed quarter hour. */
export function runTimeout(cycles: number, cells: number, cellCycleMicros: number, traced: boolean): number {
  const fixed = process.env[WATCHDOG_ENV];
  if (fixed !== undefined && fixed !== '') {
    const ms = Number(fixed);
    if (!/^\d+$/.test(fixed) || !Number.isSafeInteger(ms) || ms <= 0)
      throw new UserError(`${WATCHDOG_ENV} must be a whole number of milliseconds above 0, got ${quoteValue(fixed)}`);
    return ms;
  }
  const perCycle = RUN_CYCLE_MS + (cells * cellCycleMicros) / 1000;
  return Math.ceil(RUN_BASE_MS + (traced ? 4 : 1) * cycles * perCycle);
}

/** Cells, registers and memories of the flattened design (each instance counted). */
export function flatCells(design: IrDesign): number {
  const sizes = new Map<string, number>();
  const size = (name: string): number => {
    const known = sizes.get(name);
    if (known !== undefined) return known;
    const module = moduleByName(design, name);
    const total =
      module.cells.length +
      module.registers.length +
      module.memories.length +
      module.instances.reduce((sum, instance) => sum + size(instance.module), 0);
    sizes.set(name, total);
    return total;
  };
  return size(design.top);
}
