import { writeFileAtomic } from '../../common/atomicWrite.ts';
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
 * JUnit XML for CI dashboards: one <testsuite> per suite × engine, one <testcase> per case (named
 * by its index and seed), a <failure> with the mismatch and the replay command for each failing one.
 * The run seed is a <property> of every testsuite, the start time its `timestamp`.
 */
export function junitXml(runs: readonly SuiteRun[], info: JunitRunInfo = {}): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
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
  lines.push(
    `<testsuites name="gen regress" tests="${totals.tests}" failures="${totals.failures}" errors="0" time="${seconds(runs.reduce((sum, run) => sum + run.milliseconds, 0))}"${stamp}>`,
  );
  for (const run of runs) {
    const name = `${run.suite}.${run.engine}`;
    const failures = new Map(run.failures.map((failure) => [failure.caseIndex, failure]));
    lines.push(
      `  <testsuite name="${xmlEscape(name)}" tests="${run.cases}" failures="${run.failures.length}" errors="0" skipped="0" time="${seconds(run.milliseconds)}"${stamp}>`,
      ...properties,
    );
    run.caseIndices.forEach((caseIndex, position) => {
      const failure = failures.get(caseIndex);
      const open = `    <testcase classname="${xmlEscape(name)}" name="case ${caseIndex} (seed ${run.caseSeeds[position]})" time="${seconds(run.milliseconds / Math.max(1, run.cases))}"`;
      if (!failure) return void lines.push(`${open}/>`);
      const body = [
        failure.message,
        `replay: ${failure.replay}`,
        ...(failure.folder ? [`saved: ${failure.folder}`] : []),
      ].join('\n');
      lines.push(
        `${open}>`,
        `      <failure message="${xmlEscape(failure.message)}" type="mismatch">${xmlEscape(body)}</failure>`,
        '    </testcase>',
      );
    });
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

/** Writes the JUnit file atomically (a CI reader never sees half of it). */
export function writeJunit(file: string, runs: readonly SuiteRun[], info: JunitRunInfo = {}): void {
  writeFileAtomic(file, junitXml(runs, info));
}
