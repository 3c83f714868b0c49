import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { barChartSvg, lineChartSvg } from '../../../common/charts.ts';
import { figureHtml } from '../../../coruscant/report/html.ts';
import { chromiumSession, figureTextProblems } from './browser.ts';

const folder = mkdtempSync(join(tmpdir(), 'figure-text-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
/** The file's pages open in one Chromium. */
const browser = chromiumSession();
afterAll(() => browser.close());

/** The figures on a page of their own, checked in headless Chromium. */
async function problemsOf(figures: Record<string, string>): Promise<string[]> {
  const file = join(folder, `page-${Object.keys(figures).join('-')}.html`);
  const body = Object.entries(figures).map(([name, svg]) => figureHtml(name, svg, name));
  writeFileSync(file, `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>${body.join('\n')}</body></html>`);
  return browser.withPage(pathToFileURL(file).href, figureTextProblems);
}

const LONG_NAMES = ['BitmapDecoder (total)', 'DensePointerIncrementer', 'BitmapThreadSlice ×32', 'RegisterIndexEmitter ×32'];

describe('figure text in headless Chromium', () => {
  it('finds a legend cut off by the SVG edge and category labels running into each other', async () => {
    // What the hand-written charts drew: a legend column too narrow for its names, and centred
    // category labels wider than their slots.
    const broken = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200" viewBox="0 0 400 200" font-family="sans-serif">
<text x="330" y="40" font-size="12">Flash-LLM format</text>
<text x="100" y="180" text-anchor="middle" font-size="11">BitmapDecoder (total)</text>
<text x="160" y="180" text-anchor="middle" font-size="11">DensePointerIncrementer</text></svg>`;
    const problems = await problemsOf({ broken });
    expect(problems).toContain('broken: "Flash-LLM format" is clipped by its SVG');
    expect(problems).toContain('broken: "BitmapDecoder (total)" overlaps "DensePointerIncrementer"');
  }, 60_000);

  it('finds nothing wrong in the charts the library draws, crowded ones included', async () => {
    const series = [
      { name: 'leakage 45 nm', values: [1, 2, 3, 4] },
      { name: 'dynamic 45 nm', values: [20, 5, 30, 8] },
      { name: 'total 7 nm', values: [2, 1, 3, 1] },
    ];
    const problems = await problemsOf({
      sideways: barChartSvg({ title: 'Power of BitmapDecoder at 1 GHz', xLabel: 'component', yLabel: 'power (µW)', categories: LONG_NAMES, series, horizontal: true }),
      // Long names under upright bars in a narrow chart: the labels must turn, not collide.
      upright: barChartSvg({ title: 'Area of a design with long block names', xLabel: 'component', yLabel: 'area (µm²)', categories: LONG_NAMES, series, width: 520 }),
      many: barChartSvg({
        title: 'Bytes read from DRAM (A and B), 9216×9216 (model; cf. paper Fig. 17)',
        xLabel: 'sparsity',
        yLabel: 'MB',
        categories: ['10 %', '20 %', '30 %', '40 %', '50 %', '60 %', '70 %', '80 %', '90 %', '95 %', '98 %', '99 %'],
        series: ['dense', 'Flash-LLM format', 'Coruscant format', 'Coruscant STC format'].map((name, i) => ({ name, values: Array.from({ length: 12 }, (_, k) => 170 - 10 * k - i) })),
      }),
      lines: lineChartSvg({
        title: 'Speedup over dense vs N, 9216×9216 at 70 %, rtx6000ada (cf. paper Fig. 24b), a title long enough to wrap onto a second line',
        xLabel: 'N (batch)',
        yLabel: 'speedup over dense',
        xScale: 'log',
        referenceLines: [{ y: 1, label: 'dense' }],
        yIncludes: [0],
        series: ['Flash-LLM', 'Coruscant', 'Coruscant STC'].map((name, i) => ({ name, points: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024].map((x) => ({ x, y: 2.2 - i * 0.3 - x / 1024 })) })),
      }),
    });
    expect(problems).toEqual([]);
  }, 60_000);
});
