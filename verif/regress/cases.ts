import { FieldError } from '../../common/errors.ts';

/** `--shard i/n`: this machine runs the cases k with k mod n = i − 1. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

export const WHOLE: Shard = { index: 1, count: 1 };

/** Parses `i/n` (1 ≤ i ≤ n). */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count)
    throw new FieldError('shard', `'${text}' must be i/n with 1 ≤ i ≤ n, e.g. 2/4`);
  return { index, count };
}

/**
 * The case indices of a shard. Each case's stimulus depends only on (seed, k), so n shards
 * together run exactly the cases of one unsharded run, whatever n is.
 */
export function shardCases(runs: number, shard: Shard): number[] {
  const indices: number[] = [];
  for (let k = shard.index - 1; k < runs; k += shard.count) indices.push(k);
  return indices;
}

/** The fast-check seed of case k of a run (a 31-bit mix of both; splitmix-style so neighbours differ). */
export function caseSeed(seed: number, k: number): number {
  let x = (Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(k + 1, 0x85ebca6b)) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d) >>> 0;
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b) >>> 0;
  return (x ^ (x >>> 16)) & 0x7fffffff;
}
