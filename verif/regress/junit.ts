import { once } from 'node:events';
import { AtomicFileStream } from '../../common/atomicWrite.ts';
import { caseSeed } from './cases.ts';
import type { SuiteRun } from './regression.ts';

/** Text safe inside an XML attribute or element (and free of characters XML 1.0 forbids). */
export function xmlEscape(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- removing exactly the control characters XML 1.0 forbids
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

/** What identifies the whole run: its seed replays it, its start time places it. */
export interface JunitRunInfo {
  readonly seed?: number;
  readonly startedAt?: Date;
}

/** `2026-12-01T14:17:40` (UTC, no zone: the JUnit schema's timestamp form). */
const junitTimestamp = (date: Date): string => date.toISOString().replace(/\.\d+Z$/, '');

/**
 * JUnit XML for CI dashboards, line by line: one <testsuite> per suite × engine, one <testcase>
 * per case (named by its index and seed), a <failure> with the mismatch and the replay command for
 * each failing one. The run seed is a <property> of every testsuite, the start time its
 * `timestamp`. A generator, so a run of 10^7 cases is written without holding its text.
 */
export function* junitLines(runs: readonly SuiteRun[], info: JunitRunInfo = {}): Generator<string> {
  const totals = {
    tests: runs.reduce((sum, run) => sum + run.cases, 0),
    failures: runs.reduce((sum, run) => sum + run.failures.length, 0),
  };
  const seconds = (milliseconds: number): string => (milliseconds / 1000).toFixed(3);
  const stamp = info.startedAt ? ` timestamp="${junitTimestamp(info.startedAt)}"` : '';
  const properties =
    info.seed === undefined
      ? []
      : [
          '    <properties>',
          `      <property name="seed" value="${info.seed}"/>`,
          `      <property name="replay" value="${xmlEscape(`--seed ${info.seed}`)}"/>`,
          '    </properties>',
        ];
  yield '<?xml version="1.0" encoding="UTF-8"?>';
  yield `<testsuites name="gen regress" tests="${totals.tests}" failures="${totals.failures}" errors="0" time="${seconds(runs.reduce((sum, run) => sum + run.milliseconds, 0))}"${stamp}>`;
  for (const run of runs) {
    const name = `${run.suite}.${run.engine}`;
    const failures = new Map(run.failures.map((failure) => [failure.caseIndex, failure]));
    const time = seconds(run.milliseconds / Math.max(1, run.cases));
    yield `  <testsuite name="${xmlEscape(name)}" tests="${run.cases}" failures="${run.failures.length}" errors="0" skipped="0" time="${seconds(run.milliseconds)}"${stamp}>`;
    yield* properties;
    for (let position = 0; position < run.span.count; position++) {
      const caseIndex = run.span.first + position * run.span.step;
      const failure = failures.get(caseIndex);
      const open = `    <testcase classname="${xmlEscape(name)}" name="case ${caseIndex} (seed ${caseSeed(run.runSeed, caseIndex)})" time="${time}"`;
      if (!failure) {
        yield `${open}/>`;
        continue;
      }
      const body = [
        failure.message,
        `replay: ${failure.replay}`,
        ...(failure.folder ? [`saved: ${failure.folder}`] : []),
      ];
      yield `${open}>`;
      yield `      <failure message="${xmlEscape(failure.message)}" type="mismatch">${xmlEscape(body.join('\n'))}</failure>`;
      yield '    </testcase>';
    }
    yield '  </testsuite>';
  }
  yield '</testsuites>';
}

/** The whole JUnit text of a run small enough to hold (tests, merges). */
export function junitXml(runs: readonly SuiteRun[], info: JunitRunInfo = {}): string {
  return `${[...junitLines(runs, info)].join('\n')}\n`;
}

/** Lines written to the stream per write: few enough syscalls, a bounded buffer. */
const LINES_PER_WRITE = 4096;

/** Streams the JUnit file and renames it into place (a CI reader never sees half of it; memory stays flat). */
export async function writeJunit(file: string, runs: readonly SuiteRun[], info: JunitRunInfo = {}): Promise<void> {
  const output = new AtomicFileStream(file);
  try {
    let pending: string[] = [];
    for (const line of junitLines(runs, info)) {
      pending.push(line);
      if (pending.length < LINES_PER_WRITE) continue;
      if (!output.stream.write(`${pending.join('\n')}\n`)) await once(output.stream, 'drain');
      pending = [];
    }
    output.write(pending.length > 0 ? `${pending.join('\n')}\n` : '');
    await output.commit();
  } catch (error) {
    output.abort();
    throw error;
  }
}
