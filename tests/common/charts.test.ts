import { describe, expect, it } from 'vitest';
import { Resvg } from '@resvg/resvg-js';
import { barChartSvg, lineChartSvg, niceTicks, textWidth } from '../../common/charts.ts';

/** Parses and rasterises the SVG; resvg throws on malformed documents. */
function render(svg: string): { width: number; height: number } {
  const image = new Resvg(svg).render();
  return { width: image.width, height: image.height };
}

const texts = (svg: string): string[] => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!);

const line = () =>
  lineChartSvg({
    title: 'Sizes <&>',
    xLabel: 'sparsity (%)',
    yLabel: 'size (% of dense)',
    series: [
      { name: 'Coruscant', points: [30, 50, 70].map((x) => ({ x, y: 176 - 2 * x })) },
      {
        name: 'Tiled-CSL',
        points: [
          { x: 30, y: 140 },
          { x: 50, y: null },
          { x: 70, y: 60 },
        ],
      },
    ],
    referenceLines: [{ y: 100, label: 'dense (100 %)' }],
    yIncludes: [0],
  });

describe('charts', () => {
  it('chooses 1/2/5 ticks covering the range', () => {
    expect(niceTicks(0, 210)).toEqual([0, 50, 100, 150, 200, 250]);
    expect(niceTicks(0.3, 0.7, 4)).toEqual([0.3, 0.4, 0.5, 0.6, 0.7]);
  });

  it('draws a valid line chart with title, axis names, legend, reference label and the data x values as ticks', () => {
    const svg = line();
    expect(render(svg)).toEqual({ width: 720, height: 420 });
    expect(texts(svg)).toEqual(
      expect.arrayContaining([
        'Sizes &lt;&amp;&gt;',
        'sparsity (%)',
        'size (% of dense)',
        'Coruscant',
        'Tiled-CSL',
        'dense (100 %)',
        '30',
        '50',
        '70',
        '150',
      ]),
    );
  });

  it('is the same text every time, whatever was drawn before (ids named after the content)', () => {
    const first = line();
    barChartSvg({ title: 't', xLabel: 'x', yLabel: 'y', categories: ['a'], series: [{ name: 's', values: [1] }] });
    expect(line()).toBe(first);
    expect(first).not.toMatch(/zr\d/);
    expect(first).not.toContain('<style');
  });

  it('lays horizontal bars out with room for the longest category name and grows with the categories', () => {
    const categories = ['BitmapDecoder (total)', 'DensePointerIncrementer', 'BitmapThreadSlice ×32'];
    const svg = barChartSvg({
      title: 'Power',
      xLabel: 'component',
      yLabel: 'power (µW)',
      categories,
      horizontal: true,
      series: [
        { name: 'leakage 45 nm', values: [1, 2, 3] },
        { name: 'total 7 nm', values: [2, NaN, 4] },
      ],
    });
    const { height } = render(svg);
    expect(height).toBeGreaterThan(150);
    for (const name of [...categories.map((c) => c.replace('×', '×')), 'leakage 45 nm', 'power (µW)'])
      expect(texts(svg)).toContain(name);
    // The plot starts right of the widest estimated category label.
    const gridLeft = Math.min(
      ...[...svg.matchAll(/<path d="M([\d.]+) [\d.]+L[\d.]+ [\d.]+" fill="none"[^>]*stroke="#e0e0e0"/g)].map((m) =>
        Number(m[1]),
      ),
    );
    expect(gridLeft).toBeGreaterThan(textWidth('DensePointerIncrementer', 11));
  });

  it('rotates vertical category labels that would not fit side by side', () => {
    const many = Array.from({ length: 12 }, (_, i) => `category number ${i}`);
    const svg = barChartSvg({
      title: 'Many',
      xLabel: 'c',
      yLabel: 'v',
      categories: many,
      series: [{ name: 's', values: many.map((_, i) => i) }],
    });
    expect(svg).toMatch(/rotate|matrix\(0\.8|matrix\(0\.7|matrix\(0,/);
    expect(render(svg).width).toBe(720);
  });

  it('rejects an empty line chart and a log axis over non-positive x', () => {
    expect(() => lineChartSvg({ title: '', xLabel: '', yLabel: '', series: [] })).toThrow(RangeError);
    expect(() =>
      lineChartSvg({
        title: '',
        xLabel: '',
        yLabel: '',
        xScale: 'log',
        series: [{ name: 'a', points: [{ x: 0, y: 1 }] }],
      }),
    ).toThrow(/positive/);
  });
});
