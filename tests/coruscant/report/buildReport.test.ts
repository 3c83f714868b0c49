import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ToolError } from '../../../common/errors.ts';
import { buildReport, type ReportSummary } from '../../../coruscant/report/buildReport.ts';
import { ShownNumbers } from '../../../coruscant/report/html.ts';
import type { ReportSection } from '../../../gen/project/reportSection.ts';

/** A section that shows one number and writes one file. */
function fakeSection(id: string, value: number): ReportSection {
  return {
    id,
    title: `Fake ${id}`,
    reproduce: () => [`node bin/gen.js ${id}`],
    run: async () => {
      const shown = new ShownNumbers(id);
      return { numbers: shown.values, html: `<p>${shown.show('value', value)}</p>`, headline: `${id} = ${value}`, files: new Map([[`${id}.txt`, String(value)]]) };
    },
  };
}

const throwing = (error: Error): ReportSection => ({ id: 'broken', title: 'Broken', reproduce: () => [], run: async () => Promise.reject(error) });

function scratchFolder(): string {
  return mkdtempSync(join(tmpdir(), 'report-build-'));
}

describe('buildReport', () => {
  it('writes index.html, summary.json and the sections\' files, numbers keyed by section', async () => {
    const out = join(scratchFolder(), 'r');
    const summary = await buildReport({ out, quick: true, command: 'test', sections: [fakeSection('a', 1.5), fakeSection('b', 2)] });
    expect(summary.numbers).toEqual({ 'a.value': 1.5, 'b.value': 2 });
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as ReportSummary).toMatchObject({ quick: true, numbers: { 'a.value': 1.5 } });
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    expect(html).toContain('data-key="a.value" data-value="1.5">1.50<');
    expect(html).not.toMatch(/<(script|link)\b|https?:\/\/(?!www\.w3\.org)/);
    expect(readFileSync(join(out, 'b.txt'), 'utf8')).toBe('2');
  });

  it('leaves no half report and keeps the previous one when a section throws', async () => {
    const parent = scratchFolder();
    const out = join(parent, 'r');
    mkdirSync(out);
    writeFileSync(join(out, 'index.html'), 'previous');
    await expect(buildReport({ out, quick: true, command: 'test', sections: [fakeSection('a', 1), throwing(new Error('boom'))] })).rejects.toThrow('boom');
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe('previous');
    expect(existsSync(join(out, 'a.txt'))).toBe(false);
    expect(readdirSync(parent)).toEqual(['r']);
  });

  it('replaces a previous report whole, and notes a section whose tool is missing instead of failing', async () => {
    const parent = scratchFolder();
    const out = join(parent, 'r');
    mkdirSync(out);
    writeFileSync(join(out, 'stale.txt'), 'old');
    const summary = await buildReport({ out, quick: false, command: 'test', sections: [throwing(new ToolError('verilator', 'not installed')), fakeSection('a', 3)] });
    expect(summary.sections.map((section) => section.status)).toEqual(['skipped', 'ok']);
    expect(existsSync(join(out, 'stale.txt'))).toBe(false);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toMatch(/class="note">could not run here: .*not installed/);
    expect(readdirSync(parent)).toEqual(['r']);
  });
});

describe('ShownNumbers', () => {
  it('refuses a non-finite figure and one key shown with two values', () => {
    const shown = new ShownNumbers('s');
    expect(shown.show('n', 1234.5, 'integer')).toContain('>1,235<');
    expect(() => shown.show('n', 2)).toThrow(/shown twice/);
    expect(() => shown.show('m', Number.NaN)).toThrow(/not a finite number/);
  });
});
