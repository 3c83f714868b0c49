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
 * Cases first, first + step, … (count of them) as arithmetic, so a run of 10^12 cases takes no
 * memory to describe: a shard's cases, a replayed case, or the part of a run a time budget let run.
 */
export interface CaseSpan {
  readonly first: number;
  readonly step: number;
  readonly count: number;
}

/**
 * The cases of a shard. Each case's stimulus depends only on (seed, k), so n shards together run
 * exactly the cases of one unsharded run, whatever n is.
 */
export function shardSpan(runs: number, shard: Shard): CaseSpan {
  const first = shard.index - 1;
  return { first, step: shard.count, count: Math.max(0, Math.ceil((runs - first) / shard.count)) };
}

/** The case indices at positions [from, to) of a span (a slice, for spans too long to list). */
export function spanIndices(span: CaseSpan, from = 0, to = span.count): number[] {
  const indices: number[] = [];
  for (let position = from; position < Math.min(to, span.count); position++)
    indices.push(span.first + position * span.step);
  return indices;
}

/** The case indices of a shard, listed (for runs small enough to list: mutation scoring, tests). */
export function shardCases(runs: number, shard: Shard): number[] {
  return spanIndices(shardSpan(runs, shard));
}

/** The fast-check seed of case k of a run (a 31-bit mix of both; splitmix-style so neighbours differ). */
export function caseSeed(seed: number, k: number): number {
  let x = (Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(k + 1, 0x85ebca6b)) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d) >>> 0;
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b) >>> 0;
  return (x ^ (x >>> 16)) & 0x7fffffff;
}
