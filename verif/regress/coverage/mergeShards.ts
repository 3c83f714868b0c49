import { cpSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../../common/errors.ts';
import { FAILURE_FILES } from '../failureFolder.ts';
import { mergeCoverageFiles, readCoverageFile, writeCoverageFile, type CoverageFile } from './data.ts';
import { mergeJunitFiles, type MergedJunit } from '../junitMerge.ts';
import { writeCoveragePage } from './coverageHtml.ts';

/** The file names `gen regress merge` writes (and looks for in each shard folder). */
export const MERGED_FILES = { junit: 'junit.xml', coverage: 'coverage.json' } as const;

/** What a shard folder holds: its JUnit files, its coverage file, and its failure folders (`<suite>-<engine>-<seed>/case-<k>`). */
function shardContents(folder: string): { junit: string[]; coverage?: string; failures: string[] } {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new UserError(`${folder}: no such shard folder`);
  const entries = readdirSync(folder, { withFileTypes: true });
  const junit = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.xml'))
    .map((entry) => join(folder, entry.name));
  const coverage = entries.find((entry) => entry.isFile() && entry.name === MERGED_FILES.coverage);
  const failures = entries
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) =>
      readdirSync(join(folder, entry.name), { withFileTypes: true })
        .filter((child) => child.isDirectory() && existsSync(join(folder, entry.name, child.name, FAILURE_FILES.case)))
        .map((child) => join(entry.name, child.name)),
    );
  return { junit, ...(coverage ? { coverage: join(folder, coverage.name) } : {}), failures };
}

/** What `mergeShards` made. */
export interface MergedShards {
  /** The merged JUnit file's totals (absent when no shard holds one). */
  readonly junit?: MergedJunit;
  readonly coverage?: CoverageFile;
  /** Failure folders copied, relative to `out`. */
  readonly failures: readonly string[];
  /** Cases of the run no shard's coverage holds (a shard not given or not finished). */
  readonly missingCases: number;
}

/**
 * `gen regress merge`: joins the JUnit files, coverage files and failure folders of a run's shards
 * (each shard's `--out` folder, holding its `--junit` and `--coverage` files) into `out`, as if one
 * machine had run the whole case space.
 */
export async function mergeShards(folders: readonly string[], out: string): Promise<MergedShards> {
  if (folders.length === 0) throw new UserError('gen regress merge: name the shard folders to merge');
  const shards = folders.map((folder) => ({ folder, ...shardContents(folder) }));
  mkdirSync(out, { recursive: true });
  const junitFiles = shards.flatMap((shard) => shard.junit);
  const junit = junitFiles.length > 0 ? await mergeJunitFiles(junitFiles, join(out, MERGED_FILES.junit)) : undefined;
  const coverageFiles = shards.flatMap((shard) =>
    shard.coverage === undefined ? [] : [{ name: shard.coverage, file: readCoverageFile(shard.coverage) }],
  );
  const coverage = coverageFiles.length > 0 ? mergeCoverageFiles(coverageFiles) : undefined;
  if (coverage) {
    writeCoverageFile(join(out, MERGED_FILES.coverage), coverage);
    writeCoveragePage(join(out, MERGED_FILES.coverage), coverage);
  }
  const copied = new Map<string, string>();
  for (const shard of shards)
    for (const failure of shard.failures) {
      const earlier = copied.get(failure);
      if (earlier !== undefined)
        throw new UserError(
          `${join(shard.folder, failure)}: ${failure} is also in ${earlier} (the same shard given twice?)`,
        );
      copied.set(failure, shard.folder);
      cpSync(join(shard.folder, failure), join(out, failure), { recursive: true });
    }
  const missingCases = coverage
    ? coverage.suites.reduce((sum, suite) => sum + Math.max(0, coverage.runs - suite.caseIndices.length), 0)
    : 0;
  return {
    ...(junit === undefined ? {} : { junit }),
    ...(coverage ? { coverage } : {}),
    failures: [...copied.keys()].sort(),
    missingCases,
  };
}
