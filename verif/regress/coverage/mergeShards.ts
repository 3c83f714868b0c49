import { cpSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../../common/errors.ts';
import { writeFileAtomic } from '../../../common/atomicWrite.ts';
import { FAILURE_FILES } from '../failureFolder.ts';
import { mergeCoverageFiles, readCoverageFile, writeCoverageFile, type CoverageFile } from './data.ts';
import { readUserText } from '../../../common/userFiles.ts';
import { writeCoveragePage } from './coverageHtml.ts';

/** The file names `gen regress merge` writes (and looks for in each shard folder). */
export const MERGED_FILES = { junit: 'junit.xml', coverage: 'coverage.json' } as const;

/** One <testsuite> of a JUnit file as `gen regress` writes it. */
interface JunitSuite {
  readonly name: string;
  readonly tests: number;
  readonly failures: number;
  readonly time: number;
  readonly timestamp?: string;
  readonly properties: readonly string[];
  /** Each <testcase> element's lines, with its case index. */
  readonly cases: readonly { readonly index: number; readonly text: string }[];
}

const attribute = (tag: string, name: string): string | undefined => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

/** The testsuites of a `gen regress` JUnit file (the format junit.ts writes; others are refused in one line). */
export function parseJunit(text: string, file: string): JunitSuite[] {
  if (!/<testsuites\b/.test(text)) throw new UserError(`${file}: not a JUnit file of gen regress (no <testsuites>)`);
  const suites: JunitSuite[] = [];
  for (const match of text.matchAll(/^ {2}<testsuite\b[^>]*>[\s\S]*?^ {2}<\/testsuite>/gm)) {
    const block = match[0];
    const open = /^ {2}<testsuite\b[^>]*>/.exec(block)![0];
    const properties = /^ {4}<properties>[\s\S]*?^ {4}<\/properties>/m.exec(block)?.[0].split('\n') ?? [];
    const cases = [...block.matchAll(/^ {4}<testcase\b[^>]*\/>|^ {4}<testcase\b[^>]*>[\s\S]*?^ {4}<\/testcase>/gm)].map(
      (found) => ({ index: Number(/name="case (\d+)/.exec(found[0])?.[1] ?? -1), text: found[0] }),
    );
    const timestamp = attribute(open, 'timestamp');
    suites.push({
      name: attribute(open, 'name') ?? '',
      tests: Number(attribute(open, 'tests') ?? 0),
      failures: Number(attribute(open, 'failures') ?? 0),
      time: Number(attribute(open, 'time') ?? 0),
      ...(timestamp === undefined ? {} : { timestamp }),
      properties,
      cases,
    });
  }
  return suites;
}

/** One JUnit file for the shards' testsuites: a suite × engine's cases joined in case order, counts and times summed. */
export function mergeJunit(files: readonly { readonly name: string; readonly text: string }[]): string {
  const byName = new Map<string, JunitSuite>();
  for (const { name, text } of files)
    for (const suite of parseJunit(text, name)) {
      const known = byName.get(suite.name);
      if (!known) {
        byName.set(suite.name, suite);
        continue;
      }
      const seedOf = (lines: readonly string[]): string | undefined =>
        lines.map((line) => /name="seed" value="(\d+)"/.exec(line)?.[1]).find((seed) => seed !== undefined);
      if (seedOf(known.properties) !== seedOf(suite.properties))
        throw new UserError(
          `${name}: ${suite.name} has seed ${seedOf(suite.properties)}, another shard ${seedOf(known.properties)}: shards of different regressions`,
        );
      const stamps = [known.timestamp, suite.timestamp].filter((stamp): stamp is string => stamp !== undefined).sort();
      byName.set(suite.name, {
        ...known,
        tests: known.tests + suite.tests,
        failures: known.failures + suite.failures,
        time: known.time + suite.time,
        ...(stamps.length > 0 ? { timestamp: stamps[0]! } : {}),
        cases: [...known.cases, ...suite.cases],
      });
    }
  const suites = [...byName.values()];
  const tests = suites.reduce((sum, suite) => sum + suite.tests, 0);
  const failures = suites.reduce((sum, suite) => sum + suite.failures, 0);
  const time = suites.reduce((sum, suite) => sum + suite.time, 0);
  const first = suites
    .map((suite) => suite.timestamp)
    .filter((stamp) => stamp !== undefined)
    .sort()[0];
  const stamp = first === undefined ? '' : ` timestamp="${first}"`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="gen regress" tests="${tests}" failures="${failures}" errors="0" time="${time.toFixed(3)}"${stamp}>`,
  ];
  for (const suite of suites) {
    const suiteStamp = suite.timestamp === undefined ? '' : ` timestamp="${suite.timestamp}"`;
    lines.push(
      `  <testsuite name="${suite.name}" tests="${suite.tests}" failures="${suite.failures}" errors="0" skipped="0" time="${suite.time.toFixed(3)}"${suiteStamp}>`,
      ...suite.properties,
      ...[...suite.cases].sort((a, b) => a.index - b.index).map((testCase) => testCase.text),
      '  </testsuite>',
    );
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

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
  readonly junit?: string;
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
export function mergeShards(folders: readonly string[], out: string): MergedShards {
  if (folders.length === 0) throw new UserError('gen regress merge: name the shard folders to merge');
  const shards = folders.map((folder) => ({ folder, ...shardContents(folder) }));
  mkdirSync(out, { recursive: true });
  const junitFiles = shards.flatMap((shard) => shard.junit).map((file) => ({ name: file, text: readUserText(file) }));
  const junit = junitFiles.length > 0 ? mergeJunit(junitFiles) : undefined;
  if (junit !== undefined) writeFileAtomic(join(out, MERGED_FILES.junit), junit);
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
