import { execa } from 'execa';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportSummary } from '../../../coruscant/report/buildReport.ts';
import { REGRESS_SUITES } from '../../support/regressSuites.ts';
import { chromiumSession, figureTextProblems } from './browser.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
/**
 * The brief's two-minute bound on `gen report --quick` is measured by `make bench`
 * (bench/reportQuick.ts), on a build cache with the models built; here the run only must not hang.
 */
const HANG_LIMIT_MS = 300_000;
/** Figures the quick report must draw. */
const REQUIRED_FIGURES = ['decoder-wave', 'mma-wave', 'formats', 'synthesis', 'spmm-latency-9216x9216', 'spmm-bytes-9216x9216'];

const folder = mkdtempSync(join(tmpdir(), 'gen-report-test-'));
const out = join(folder, 'report');
let elapsedMs = 0;
let stdout = '';
let summary: ReportSummary;

beforeAll(async () => {
  const started = performance.now();
  const run = await execa('node', ['bin/gen.js', 'report', '--out', out, '--quick'], {
    cwd: ROOT,
    env: { ...process.env, CI: '1' },
    maxBuffer: 1 << 24,
  });
  elapsedMs = performance.now() - started;
  stdout = run.stdout;
  console.log(`gen report --quick took ${(elapsedMs / 1000).toFixed(1)} s; report in ${out}`);
  summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as ReportSummary;
}, 600_000);

// The report (VCDs included) is tens of MB; only the screenshot is kept to look at.
afterAll(() => rmSync(out, { recursive: true, force: true }));
/** The file's pages open in one Chromium. */
const browser = chromiumSession();
afterAll(() => browser.close());

/** The number a rendered cell shows (thousands separators removed). */
const shownValue = (text: string): number => Number(text.replace(/,/g, ''));

describe('gen report --quick', () => {
  it('finishes and prints where the report is and its key numbers', () => {
    expect(elapsedMs, 'wall-clock time of the run').toBeLessThan(HANG_LIMIT_MS);
    expect(stdout).toContain(`report: ${out}/index.html`);
    expect(stdout).toMatch(/Coruscant 56\.25 % of dense at 50 % sparsity, 36\.25 % at 70 %/);
    expect(summary.quick).toBe(true);
  });

  it('runs every section that has its parts, and passes them', () => {
    const status = Object.fromEntries(summary.sections.map((section) => [section.id, section.status]));
    for (const id of ['inventory', 'regression', 'decoderWave', 'mmaWave', 'formats', 'synthesis', 'spmm']) expect(status[id], id).toBe('ok');
    expect(Object.values(status)).not.toContain('failed');
    expect(summary.numbers['formats.Coruscant.s50']).toBe(56.25);
    expect(summary.numbers['decoderWave.mismatches']).toBe(0);
    expect(summary.numbers['decoderWave.mmaCycles']).toBe(16);
    expect(summary.numbers['mmaWave.mismatches']).toBe(0);
    expect(summary.numbers['spmm.numericsMismatches']).toBe(0);
    expect(summary.numbers['synthesis.bandwidth.paperBytes']).toBe(344);
    expect(summary.numbers['regression.failures']).toBe(0);
    expect(summary.numbers['regression.BitmapDecoder.ts.cases']).toBe(3);
    expect(existsSync(join(out, 'verilog', 'BitmapDecoder', 'BitmapDecoder.v'))).toBe(true);
    expect(readFileSync(join(out, 'waves', 'decoder.vcd'), 'utf8')).toContain('$enddefinitions');
  });

  it('loads in headless Chromium with no errors, every figure drawn, every number equal to summary.json', async () => {
    const checks = await browser.withPage(pathToFileURL(join(out, 'index.html')).href, async (page, consoleErrors) => {
      const screenshot = join(folder, 'report.png');
      await page.screenshot({ path: screenshot, fullPage: true });
      console.log(`screenshot: ${screenshot}`);
      const figures = await page.$$eval('figure[data-figure]', (elements) =>
        elements.map((element) => {
          const svg = element.querySelector('svg');
          const box = svg?.getBoundingClientRect();
          return { name: element.getAttribute('data-figure'), width: box?.width ?? 0, height: box?.height ?? 0, shapes: svg?.querySelectorAll('path, rect, line, polyline, text').length ?? 0 };
        }),
      );
      const numbers = await page.$$eval('[data-key]', (elements) => elements.map((element) => ({ key: element.getAttribute('data-key') ?? '', value: element.getAttribute('data-value') ?? '', text: element.textContent ?? '' })));
      const sections = await page.$$eval('section', (elements) => elements.map((element) => ({ id: element.id, status: element.getAttribute('data-status'), reproduce: element.querySelector('pre.reproduce')?.textContent ?? '' })));
      return { consoleErrors: [...consoleErrors], figures, numbers, sections };
    });
    expect(checks.consoleErrors).toEqual([]);
    expect(checks.figures.map((figure) => figure.name)).toEqual(expect.arrayContaining(REQUIRED_FIGURES));
    for (const figure of checks.figures) {
      expect(figure.width, `${figure.name} width`).toBeGreaterThan(100);
      expect(figure.height, `${figure.name} height`).toBeGreaterThan(100);
      expect(figure.shapes, `${figure.name} shapes`).toBeGreaterThan(10);
    }
    // Every number on the page is summary.json's, exactly in data-value and to its printed precision in the text.
    for (const { key, value, text } of checks.numbers) {
      const expected = summary.numbers[key];
      expect(expected, key).toBeDefined();
      expect(Number(value), key).toBe(expected);
      const decimals = text.split('.')[1]?.length ?? 0;
      expect(Math.abs(shownValue(text) - expected!), `${key}: "${text}" vs ${expected}`).toBeLessThanOrEqual(0.5 * 10 ** -decimals + 1e-9);
    }
    expect(new Set(checks.numbers.map((entry) => entry.key))).toEqual(new Set(Object.keys(summary.numbers)));
    expect(checks.sections.map((section) => section.id)).toEqual(summary.sections.map((section) => section.id));
    for (const section of checks.sections) {
      expect(section.reproduce, section.id).toMatch(/node bin\/gen\.js|npx/);
      expect(section.status, section.id).toBe(summary.sections.find((entry) => entry.id === section.id)?.status === 'skipped' ? 'skipped' : 'ok');
    }
  }, 120_000);

  it('opens with what it found, each finding linking to its section, and the inventory last as an appendix', async () => {
    const page = readFileSync(join(out, 'index.html'), 'utf8');
    const findings = page.indexOf('<div id="findings">');
    expect(findings).toBeGreaterThan(0);
    expect(findings).toBeLessThan(page.indexOf('<section '));
    const items = [...page.matchAll(/<li data-finding="([^"]+)">(.*?)<\/li>/g)];
    expect(items.map((m) => m[1])).toEqual(summary.sections.filter((s) => s.id !== 'inventory').map((s) => s.id));
    for (const [, id, text] of items) expect(text, id).toContain(`<a href="#${id}">`);
    const text = Object.fromEntries(items.map((m) => [m[1], m[2]!.replace(/<[^>]+>/g, '')]));
    // Counted from what ran (the suites grow), not a number fixed here: every suite, each case once per engine.
    const perSuite = Object.entries(summary.numbers).filter(([key]) => /^regression\.[^.]+\.[^.]+\.cases$/.test(key));
    const cases = perSuite.reduce((sum, [, value]) => sum + value, 0);
    expect(summary.numbers['regression.cases']).toBe(cases);
    expect(new Set(perSuite.map(([key]) => key.split('.')[1])).size).toBe(REGRESS_SUITES.length);
    expect(text['regression']).toContain(
      `${cases.toLocaleString('en-US')} cases of ${REGRESS_SUITES.length} suites on 3 engines (ts, verilator, icarus), equal to the golden models on every engine`,
    );
    expect(text['formats']).toMatch(/56\.25 % \/ 36\.25 % of the dense bytes, as in the paper's Fig\. 3/);
    expect(text['synthesis']).toMatch(/BitmapDecoder_threads_4 decoder takes [\d,.]+ µm² and [\d,]+ µW at 45 nm .*BitmapThreadSlice is \d+ % of its area and \d+ % of its power/);
    // Per GPU profile the report models: the speedup and what bounds it, as summary.json records it.
    const bound = (kernel: string): string => summary.strings[`spmm.9216x9216.s50.${kernel}Bound`]!;
    expect(summary.strings['spmm.profile']).toBe('rtx6000ada');
    for (const kernel of ['dense', 'flashllm', 'coruscant', 'stc']) expect(bound(kernel), kernel).toMatch(/^[A-Za-z0-9 ()]+$/);
    expect(text['spmm']).toContain(
      `SpMM on rtx6000ada (model, N = 8): the Coruscant STC over dense ${summary.numbers['spmm.9216x9216.s50.stcOverDense']!.toFixed(2)}× at 50 % on 9216×9216 (paper 1.50×; bound: STC by ${bound('stc')}, dense by ${bound('dense')})`,
    );
    expect(summary.sections.at(-1)?.id).toBe('inventory');
    expect(page.lastIndexOf('<section ')).toBe(page.indexOf('<section id="inventory"'));
  });

  it('draws every figure with no text clipped by its SVG or overlapping another text (headless Chromium)', async () => {
    const problems = await browser.withPage(pathToFileURL(join(out, 'index.html')).href, async (page) => {
      await page.screenshot({ path: join(folder, 'first-screen.png') });
      console.log(`first screen: ${join(folder, 'first-screen.png')}`);
      return figureTextProblems(page);
    });
    expect(problems).toEqual([]);
  }, 120_000);
});
