import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildReport } from '../../coruscant/report/buildReport.ts';
import type { ReportSection } from '../../gen/project/reportSection.ts';

/*
 * What a killed `gen report` leaves — its scratch folder in the system temp folder (`gen-report-*`,
 * never removed before) and its staging folder beside --out — is removed by the next report run.
 */

const dir = mkdtempSync(join(tmpdir(), 'hardening-report-'));
const deadPid = spawnSync('true').pid!;
const leftScratch = join(tmpdir(), `gen-report-${deadPid}-AbC123`);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(leftScratch, { recursive: true, force: true });
});

const section: ReportSection = {
  id: 'one',
  title: 'One',
  reproduce: () => [],
  run: async () => ({ numbers: {}, html: '<p>one</p>', headline: 'one' }),
};

describe('report leftovers of a killed run', () => {
  it('the next run removes the dead run’s scratch (temp folder) and staging (beside --out), and keeps none of its own', async () => {
    mkdirSync(leftScratch);
    mkdirSync(join(dir, `.report.staging-${deadPid}-0123abcd`));
    const before = readdirSync(tmpdir()).filter((name) => name.startsWith(`gen-report-${process.pid}-`));
    await buildReport({ out: join(dir, 'report'), quick: true, command: 'test', sections: [section] });
    expect(existsSync(leftScratch)).toBe(false);
    expect(readdirSync(dir)).toEqual(['report']);
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith(`gen-report-${process.pid}-`))).toEqual(before);
  });
});
