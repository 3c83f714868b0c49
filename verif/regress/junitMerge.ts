import { closeSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { UserError } from '../../common/errors.ts';
import { AtomicFileStream } from '../../common/atomicWrite.ts';
import { openUserFile } from '../../common/userFiles.ts';

/**
 * `gen regress merge`'s JUnit half, streamed: a shard of a 10^7-case run holds hundreds of
 * megabytes of <testcase> lines, so the files are read in bounded chunks, twice: once for the
 * suites' headers (the totals come first in the output), then once per suite, its cases joined
 * in case order from every shard (each shard lists its cases in increasing order, as gen
 * regress writes them). Memory holds the headers and one case per shard.
 */

/** Bytes read from a shard file at a time (one buffer per shard open at once). */
const CHUNK_BYTES = 64 * 1024;

/** Lines written to the merged file per write. */
const LINES_PER_WRITE = 4096;

/** One <testsuite> of a shard's JUnit file, without its cases. */
interface SuiteHeader {
  readonly name: string;
  readonly tests: number;
  readonly failures: number;
  readonly time: number;
  readonly timestamp?: string;
  /** The <properties> block's lines, as written. */
  readonly properties: string[];
}

/** One <testcase> element (one line, or several with its <failure>) and its case index. */
interface CaseEntry {
  readonly index: number;
  readonly lines: readonly string[];
}

/** What a merge wrote: the merged run's totals. */
export interface MergedJunit {
  readonly tests: number;
  readonly failures: number;
}

const attribute = (tag: string, name: string): string | undefined => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
const SUITE_OPEN = /^ {2}<testsuite\b/;
const SUITE_CLOSE = /^ {2}<\/testsuite>/;

/** The lines of a file, read CHUNK_BYTES at a time (a regular file only: openUserFile refuses the rest in one line). */
function* fileLines(file: string): Generator<string> {
  const { fd } = openUserFile(file);
  try {
    const buffer = Buffer.alloc(CHUNK_BYTES);
    const decoder = new StringDecoder('utf8');
    let rest = '';
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) {
      const lines = (rest + decoder.write(buffer.subarray(0, read))).split('\n');
      rest = lines.pop()!;
      yield* lines;
    }
    rest += decoder.end();
    if (rest !== '') yield rest;
  } finally {
    closeSync(fd);
  }
}

/** The testsuites of a `gen regress` JUnit file, without their cases (other files are refused in one line). */
function suiteHeaders(file: string): SuiteHeader[] {
  const suites: SuiteHeader[] = [];
  let isJunit = false;
  let inProperties = false;
  for (const line of fileLines(file)) {
    if (line.includes('<testsuites')) isJunit = true;
    if (SUITE_OPEN.test(line)) {
      const timestamp = attribute(line, 'timestamp');
      suites.push({
        name: attribute(line, 'name') ?? '',
        tests: Number(attribute(line, 'tests') ?? 0),
        failures: Number(attribute(line, 'failures') ?? 0),
        time: Number(attribute(line, 'time') ?? 0),
        ...(timestamp === undefined ? {} : { timestamp }),
        properties: [],
      });
    }
    if (/^ {4}<properties>/.test(line)) inProperties = true;
    if (inProperties) suites.at(-1)?.properties.push(line);
    if (/^ {4}<\/properties>/.test(line)) inProperties = false;
  }
  if (!isJunit) throw new UserError(`${file}: not a JUnit file of gen regress (no <testsuites>)`);
  return suites;
}

/** The cases of suite `name` in a shard's file, in file order; a case out of increasing order is refused in one line. */
function* suiteCases(file: string, name: string): Generator<CaseEntry> {
  let inside = false;
  let open: string[] | undefined;
  let last = -1;
  const entry = (lines: string[]): CaseEntry => {
    const index = Number(/name="case (\d+)/.exec(lines[0]!)?.[1] ?? -1);
    if (index <= last)
      throw new UserError(`${file}: ${name} lists case ${index} after case ${last} (not a JUnit file of gen regress?)`);
    last = index;
    return { index, lines };
  };
  for (const line of fileLines(file)) {
    if (!inside) {
      inside = SUITE_OPEN.test(line) && attribute(line, 'name') === name;
      continue;
    }
    if (open) {
      open.push(line);
      if (!/^ {4}<\/testcase>/.test(line)) continue;
      const done = open;
      open = undefined;
      yield entry(done);
    } else if (SUITE_CLOSE.test(line)) return;
    else if (/^ {4}<testcase\b[^>]*\/>/.test(line)) yield entry([line]);
    else if (/^ {4}<testcase\b/.test(line)) open = [line];
  }
}

/** The shards' next cases, the least index on top (a binary heap: a case costs O(log shards)). */
class NextCases {
  private readonly heap: { entry: CaseEntry; source: Generator<CaseEntry> }[] = [];

  /** Takes in `source`'s next case, if it has one. */
  add(source: Generator<CaseEntry>): void {
    const next = source.next();
    if (next.done) return;
    this.heap.push({ entry: next.value, source });
    for (let at = this.heap.length - 1; at > 0 && this.less(at, (at - 1) >> 1); at = (at - 1) >> 1)
      this.swap(at, (at - 1) >> 1);
  }

  /** The least case, its shard's next case taken in; undefined once every shard is done. */
  take(): CaseEntry | undefined {
    const top = this.heap[0];
    if (!top) return undefined;
    const last = this.heap.pop()!;
    if (this.heap.length > 0) {
      this.heap[0] = last;
      for (let at = 0; ;) {
        const smallest = [2 * at + 1, 2 * at + 2]
          .filter((child) => child < this.heap.length)
          .reduce((best, child) => (this.less(child, best) ? child : best), at);
        if (smallest === at) break;
        this.swap(at, smallest);
        at = smallest;
      }
    }
    this.add(top.source);
    return top.entry;
  }

  private less(a: number, b: number): boolean {
    return this.heap[a]!.entry.index < this.heap[b]!.entry.index;
  }

  private swap(a: number, b: number): void {
    [this.heap[a], this.heap[b]] = [this.heap[b]!, this.heap[a]!];
  }
}

/** The cases of several shards' runs of one suite, in case order. */
function* casesInOrder(sources: readonly Generator<CaseEntry>[]): Generator<CaseEntry> {
  const next = new NextCases();
  try {
    for (const source of sources) next.add(source);
    for (let entry = next.take(); entry; entry = next.take()) yield entry;
  } finally {
    // A refusal midway leaves shards unread: their generators close their files.
    for (const source of sources) source.return(undefined);
  }
}

/** The headers of one suite from every shard, joined: counts and times summed, the earliest start; shards of different seeds refused. */
function joinHeaders(name: string, parts: readonly { file: string; header: SuiteHeader }[]): SuiteHeader {
  const seedOf = (lines: readonly string[]): string | undefined =>
    lines.map((line) => /name="seed" value="(\d+)"/.exec(line)?.[1]).find((seed) => seed !== undefined);
  const first = parts[0]!;
  for (const { file, header } of parts)
    if (seedOf(header.properties) !== seedOf(first.header.properties))
      throw new UserError(
        `${file}: ${name} has seed ${seedOf(header.properties)}, another shard ${seedOf(first.header.properties)}: shards of different regressions`,
      );
  const stamp = parts
    .map(({ header }) => header.timestamp)
    .filter((timestamp): timestamp is string => timestamp !== undefined)
    .sort()[0];
  return {
    name,
    tests: parts.reduce((sum, { header }) => sum + header.tests, 0),
    failures: parts.reduce((sum, { header }) => sum + header.failures, 0),
    time: parts.reduce((sum, { header }) => sum + header.time, 0),
    ...(stamp === undefined ? {} : { timestamp: stamp }),
    properties: first.header.properties,
  };
}

/**
 * Joins the shards' JUnit files into `out` (written whole or not at all): each suite × engine's
 * cases in case order, counts and times summed, the earliest start kept.
 */
export async function mergeJunitFiles(files: readonly string[], out: string): Promise<MergedJunit> {
  const bySuite = new Map<string, { file: string; header: SuiteHeader }[]>();
  for (const file of files)
    for (const header of suiteHeaders(file))
      bySuite.set(header.name, [...(bySuite.get(header.name) ?? []), { file, header }]);
  const suites = [...bySuite].map(([name, parts]) => ({
    header: joinHeaders(name, parts),
    files: parts.map((p) => p.file),
  }));
  const tests = suites.reduce((sum, { header }) => sum + header.tests, 0);
  const failures = suites.reduce((sum, { header }) => sum + header.failures, 0);
  const time = suites.reduce((sum, { header }) => sum + header.time, 0);
  const first = suites
    .map(({ header }) => header.timestamp)
    .filter((stamp) => stamp !== undefined)
    .sort()[0];
  const stampOf = (stamp: string | undefined): string => (stamp === undefined ? '' : ` timestamp="${stamp}"`);
  const output = new AtomicFileStream(out);
  try {
    let pending: string[] = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<testsuites name="gen regress" tests="${tests}" failures="${failures}" errors="0" time="${time.toFixed(3)}"${stampOf(first)}>`,
    ];
    const flush = async (): Promise<void> => {
      await output.writeAndWait(`${pending.join('\n')}\n`);
      pending = [];
    };
    for (const { header, files: shardFiles } of suites) {
      pending.push(
        `  <testsuite name="${header.name}" tests="${header.tests}" failures="${header.failures}" errors="0" skipped="0" time="${header.time.toFixed(3)}"${stampOf(header.timestamp)}>`,
        ...header.properties,
      );
      for (const entry of casesInOrder(shardFiles.map((file) => suiteCases(file, header.name)))) {
        pending.push(...entry.lines);
        if (pending.length >= LINES_PER_WRITE) await flush();
      }
      pending.push('  </testsuite>');
    }
    pending.push('</testsuites>');
    await flush();
    await output.commit();
  } catch (error) {
    output.abort();
    throw error;
  }
  return { tests, failures };
}
