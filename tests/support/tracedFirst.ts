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

/**
 * The longest shared-module files (the last fresh clone's durations, 43–108 s): vitest starts the
 * shared-module files after the isolated ones, smaller files last, and these, small files that
 * run long models or commands, ended a run alone on one worker while the others idled. Started
 * right after TRACED_FIRST, they run beside the long isolated ones instead. Longest first.
 */
export const LONGEST_SHARED: readonly string[] = [
  'tests/gpu/system/h200Spmm.test.ts',
  'tests/gpu/memory/h200Probes.test.ts',
  'tests/gpu/memory/h200Calibration.test.ts',
  'tests/gpu/system/sampling.test.ts',
  'tests/gen/readme.test.ts',
  'tests/coruscant/formats.test.ts',
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

/** Vitest's order (isolated files first, larger first) with TRACED_FIRST's files, then LONGEST_SHARED's, started before all others. */
export class TracedFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return moveFirst(await super.sort(files), this.ctx.config.root, [...TRACED_FIRST, ...LONGEST_SHARED]);
  }
}
