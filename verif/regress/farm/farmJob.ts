import type { EngineName } from '../../../hw/contract/engine.ts';
import type { CaseSpan } from '../cases.ts';
import type { SuiteCoverage } from '../coverage/data.ts';
import type { FailingCase } from '../regression.ts';

/** The BullMQ queue farm shards go through (`--queue` changes it, e.g. one queue per team). */
export const DEFAULT_FARM_QUEUE = 'gen-regress';

/**
 * One shard of a farm run: a span of one suite's cases on one engine. Everything a worker needs to
 * compute the cases is here: a case is a pure function of (seed, index), and the suites come from
 * the worker's own checkout of the project (`suiteFiles` relative to its root).
 */
export interface FarmShard {
  readonly run: string;
  readonly suite: string;
  readonly engine: EngineName;
  readonly seed: number;
  readonly span: CaseSpan;
  readonly suiteFiles: readonly string[];
  readonly coverage: boolean;
  /** Failing cases of this shard to shrink (the run saves at most this many per suite × engine). */
  readonly shrinkFirst: number;
  readonly shrinkTimeMs: number;
}

/** What a worker returns for a shard: the cases it ran, its failures (the first shrunk), coverage and timing. */
export interface FarmShardResult {
  readonly cases: number;
  readonly failing: readonly FailingCase[];
  readonly coverage?: SuiteCoverage;
  readonly milliseconds: number;
  /** `host:pid` of the worker that ran it. */
  readonly worker: string;
}
