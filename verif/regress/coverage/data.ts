import { UserError } from '../../../common/errors.ts';
import { writeFileAtomic } from '../../../common/atomicWrite.ts';
import type { EngineName } from '../../../hw/contract/engine.ts';
import { readUserText } from '../../../common/userFiles.ts';

/** Toggles of one signal: bit i of `rose` is set when bit i went 0→1 in some case, of `fell` when 1→0. */
export interface SignalToggles {
  readonly width: number;
  /** Hex, `0x…`, so any width is exact in JSON. */
  readonly rose: string;
  readonly fell: string;
}

/** The hits of one goal's bins (`other`: values outside every declared bin). */
export interface BinCounts {
  readonly bins: Readonly<Record<string, number>>;
  readonly other: Readonly<Record<string, number>>;
  /** Why a bin may be missed, as the suite declares it. */
  readonly why?: Readonly<Record<string, string>>;
  readonly signal?: string;
  /**
   * What made the goal, when not the suite's bins: a state register's states or declared moves
   * (`other` then holds illegal codes and moves), or a cross of goals (`bins` are combinations).
   */
  readonly kind?: GoalKind;
}

/** The goals coverage makes besides the suites' declared bins. */
export type GoalKind = 'fsm-states' | 'fsm-transitions' | 'cross';

/**
 * The coverage of one suite on one engine over the cases it ran. Every part is a sum or a union
 * over cases (each case starts from reset state), so shards merge to the unsharded figures.
 */
export interface SuiteCoverage {
  readonly suite: string;
  readonly engine: EngineName;
  readonly caseIndices: readonly number[];
  /** By DSL path (`Top.inst.signal`): the design's ports, registers and named wires. */
  readonly toggles: Readonly<Record<string, SignalToggles>>;
  /** Named signals this engine could not observe (absent from its trace). */
  readonly unobserved: readonly string[];
  /** `m.cover` points by name: cycles in which the condition held. */
  readonly covers: Readonly<Record<string, number>>;
  readonly bins: Readonly<Record<string, BinCounts>>;
}

/** coverage.json: one run (or merged shards of one run). */
export interface CoverageFile {
  readonly format: 'gen-coverage/1';
  readonly seed: number;
  readonly runs: number;
  /** `i/n` of each shard it holds (`1/1` unsharded). */
  readonly shards: readonly string[];
  readonly suites: readonly SuiteCoverage[];
}

const hex = (value: bigint): string => `0x${value.toString(16)}`;

/** Sums two count tables. */
function addCounts(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): Record<string, number> {
  const sum: Record<string, number> = { ...a };
  for (const [key, count] of Object.entries(b)) sum[key] = (sum[key] ?? 0) + count;
  return sortKeys(sum);
}

/** A copy with keys in sorted order (so equal coverage is equal JSON). */
export function sortKeys<T>(record: Readonly<Record<string, T>>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The coverage of two disjoint sets of cases of one suite on one engine. */
export function mergeSuiteCoverage(a: SuiteCoverage, b: SuiteCoverage): SuiteCoverage {
  const seen = new Set(a.caseIndices);
  const overlap = b.caseIndices.find((index) => seen.has(index));
  if (overlap !== undefined)
    throw new UserError(
      `coverage of ${a.suite} on ${a.engine}: case ${overlap} is in two shards (the same shard given twice?)`,
    );
  const toggles: Record<string, SignalToggles> = { ...a.toggles };
  for (const [path, other] of Object.entries(b.toggles)) {
    const mine = toggles[path];
    toggles[path] = mine
      ? {
          width: mine.width,
          rose: hex(BigInt(mine.rose) | BigInt(other.rose)),
          fell: hex(BigInt(mine.fell) | BigInt(other.fell)),
        }
      : other;
  }
  const bins: Record<string, BinCounts> = { ...a.bins };
  for (const [name, other] of Object.entries(b.bins)) {
    const mine = bins[name];
    bins[name] = mine
      ? { ...mine, bins: addCounts(mine.bins, other.bins), other: addCounts(mine.other, other.other) }
      : other;
  }
  const unobserved = [...new Set([...a.unobserved, ...b.unobserved])].sort();
  return {
    suite: a.suite,
    engine: a.engine,
    caseIndices: [...a.caseIndices, ...b.caseIndices].sort((x, y) => x - y),
    toggles: sortKeys(toggles),
    unobserved,
    covers: addCounts(a.covers, b.covers),
    bins: sortKeys(bins),
  };
}

/** Joins the coverage files of the shards of one run (same seed and runs). */
export function mergeCoverageFiles(
  files: readonly { readonly name: string; readonly file: CoverageFile }[],
): CoverageFile {
  if (files.length === 0) throw new UserError('no coverage to merge');
  const [first] = files;
  for (const { name, file } of files)
    if (file.seed !== first!.file.seed || file.runs !== first!.file.runs)
      throw new UserError(
        `${name}: seed ${file.seed}, ${file.runs} runs, but ${first!.name} has seed ${first!.file.seed}, ${first!.file.runs} runs: shards of different regressions`,
      );
  const bySuite = new Map<string, SuiteCoverage>();
  for (const { file } of files)
    for (const suite of file.suites) {
      const key = `${suite.suite}\u0000${suite.engine}`;
      const known = bySuite.get(key);
      bySuite.set(key, known ? mergeSuiteCoverage(known, suite) : suite);
    }
  return {
    format: 'gen-coverage/1',
    seed: first!.file.seed,
    runs: first!.file.runs,
    shards: files.flatMap(({ file }) => file.shards),
    suites: [...bySuite.values()],
  };
}

/** Reads a coverage.json, refusing anything else in one line. */
export function readCoverageFile(path: string): CoverageFile {
  const text = readUserText(path);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UserError(`${path}: not a coverage file (${(error as Error).message})`);
  }
  const file = parsed as Partial<CoverageFile>;
  if (file?.format !== 'gen-coverage/1' || !Array.isArray(file.suites))
    throw new UserError(`${path}: not a coverage file (no "format": "gen-coverage/1")`);
  return file as CoverageFile;
}

export function writeCoverageFile(path: string, file: CoverageFile): void {
  writeFileAtomic(path, `${JSON.stringify(file, null, 1)}\n`);
}
