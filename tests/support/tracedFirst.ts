import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that trace a design (a VCD on Verilator) which a file started before them in vitest's own
 * order (isolated files first, larger first) runs untraced: the report's quick regression
 * (tests/coruscant/report/report.test.ts) runs LaneDetector, TensorLane, SerialTransmitter and
 * StreamFifoChain untraced. Started first,
 * their traced builds serve those untraced runs (GEN_VERILATOR_REUSE_TRACED in vitest.config.ts):
 * each design is compiled once per run instead of twice. In start order; each is short.
 */
export const TRACED_FIRST: readonly string[] = [
  'tests/verif/coverage/coverage.test.ts', // LaneDetector, TensorLane (coverage on Verilator needs a VCD)
  'tests/engines/internalTrace.test.ts', // SerialTransmitter
  'tests/engines/sameWaves.test.ts', // StreamFifoChain
];

/** `files` with those named in `first` (paths relative to `root`) moved to the front, in `first`'s order; the rest keep theirs. */
export function moveFirst<T extends { readonly moduleId: string }>(
  files: readonly T[],
  root: string,
  first: readonly string[],
): T[] {
  const rank = (file: T): number => first.indexOf(relative(root, file.moduleId));
  const front = files.filter((file) => rank(file) >= 0).sort((a, b) => rank(a) - rank(b));
  return [...front, ...files.filter((file) => rank(file) < 0)];
}

/** Vitest's order (isolated files first, larger first) with TRACED_FIRST's files started before all others. */
export class TracedFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return moveFirst(await super.sort(files), this.ctx.config.root, TRACED_FIRST);
  }
}
