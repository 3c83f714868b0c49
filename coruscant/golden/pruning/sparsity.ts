import { UserError } from '../../../api/plugin.ts';

/** Rejects a target sparsity outside [0, 1): 1 would prune everything, which no format or kernel wants. */
export function checkSparsity(sparsity: number): void {
  if (!(sparsity >= 0 && sparsity < 1)) throw new UserError(`sparsity must be in [0, 1), got ${sparsity}`);
}

/**
 * The exact number of zeros a target sparsity means for `count` elements: round(s·count), halves
 * rounded up (Math.round). Every pruner and mask generator uses this one rule.
 */
export function targetZeros(sparsity: number, count: number): number {
  return Math.round(sparsity * count);
}
