import { describe, expect, it } from 'vitest';
import { Resvg } from '@resvg/resvg-js';
import { barChartSvg, lineChartSvg, niceTicks } from '../../common/svgChart.ts';

/** Parses and rasterises the SVG; resvg throws on malformed documents. */
function render(svg: string): { width: number; height: number } {
  const image = new Resvg(svg).render();
  return { width: image.width, height: image.height };
}

describe('svgChart', () => {
  it('chooses 1/2/5 ticks covering the range', () => {
    expect(niceTicks(0, 210)).toEqual([0, 50, 100, 150, 200, 250]);
    expect(niceTicks(0.3, 0.7, 4)).toEqual([0.3, 0.4, 0.5, 0.6, 0.7]);
  });

  it('draws a valid line chart with a labelled reference line, a legend and gaps for missing points', () => {
    const svg = lineChartSvg({
      title: 'Sizes <&>',
      xLabel: 'sparsity (%)',
      yLabel: 'size (%)',
      series: [
        {
          name: 'A',
          points: [
            { x: 30, y: 140 },
            { x: 50, y: 100 },
            { x: 70, y: 60 },
          ],
        },
        {
          name: 'B',
          points: [
            { x: 30, y: 80 },
            { x: 50, y: null },
            { x: 70, y: 40 },
          ],
        },
      ],
      referenceLines: [{ y: 100, label: 'dense (100 %)' }],
    });
    expect(render(svg)).toEqual({ width: 720, height: 420 });
    expect(svg).toContain('Sizes &lt;&amp;&gt;');
    expect(svg).toContain('class="reference"');
    expect(svg).toContain('dense (100 %)');
    // B's null splits it into two one-point runs; A is one three-point line.
    const seriesB = svg.split('\n').find((line) => line.includes('data-name="B"'))!;
    expect(seriesB.match(/<polyline/g)).toHaveLength(2);
    expect(svg.match(/class="legend"/g)).toHaveLength(2);
  });

  it('draws a valid grouped bar chart', () => {
    const svg = barChartSvg({
      title: 'Area',
      xLabel: 'block',
      yLabel: 'µm²',
      categories: ['decoder', 'lane'],
      series: [
        { name: '45 nm', values: [10, 20] },
        { name: '7 nm', values: [1, null] },
      ],
    });
    expect(render(svg).width).toBe(720);
    expect(svg.match(/<rect x=/g)!.length).toBe(1 + 3 + 2); // background, 3 bars, 2 legend swatches
  });
});
