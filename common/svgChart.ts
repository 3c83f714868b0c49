/**
 * Small standalone SVG charts (line and grouped bar) for figures in reports and CLI output, with
 * no browser or plotting library: axes with "nice" ticks, a legend, optional labelled horizontal
 * reference lines (e.g. the 100 % dense line of a compression chart). Output is deterministic
 * text, so figures diff cleanly; numbers are rounded to 0.01 px.
 *
 * Usage: `lineChartSvg({ title, xLabel, yLabel, series: [{ name, points: [{ x, y }] }] })`;
 * a point with `y: null` is a gap (the line breaks there). `barChartSvg` takes categories and one
 * value per category per series.
 */

export interface ChartPoint {
  readonly x: number;
  /** null = no value here (not applicable); lines break at gaps. */
  readonly y: number | null;
}

export interface LineSeries {
  readonly name: string;
  readonly points: readonly ChartPoint[];
}

export interface ReferenceLine {
  readonly y: number;
  readonly label: string;
}

interface ChartFrame {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly width?: number;
  readonly height?: number;
  readonly referenceLines?: readonly ReferenceLine[];
  /** Forces the y range to include this value (e.g. 0). */
  readonly yIncludes?: readonly number[];
  readonly formatX?: (x: number) => string;
  readonly formatY?: (y: number) => string;
}

export interface LineChartOptions extends ChartFrame {
  readonly series: readonly LineSeries[];
}

export interface BarSeries {
  readonly name: string;
  /** One value per category (null = no bar). */
  readonly values: readonly (number | null)[];
}

export interface BarChartOptions extends Omit<ChartFrame, 'formatX'> {
  readonly categories: readonly string[];
  readonly series: readonly BarSeries[];
}

/** Colour-blind-friendly palette (Okabe & Ito), cycled by series index. */
const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];
const MARGIN = { left: 64, right: 150, top: 40, bottom: 52 };

function seriesColour(index: number): string {
  return PALETTE[index % PALETTE.length]!;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function px(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** Ticks at 1/2/5 × 10ⁿ steps, about `count` of them, from at or below `min` to at or above `max`. */
export function niceTicks(min: number, max: number, count = 6): number[] {
  if (min === max) return [min];
  const rough = (max - min) / count;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= rough) ?? 10 * magnitude;
  // The epsilon absorbs binary fractions like 0.3 / 0.1 = 2.9999999999999996.
  const first = Math.floor(min / step + 1e-9);
  const last = Math.ceil(max / step - 1e-9);
  const ticks: number[] = [];
  for (let k = first; k <= last; k++) ticks.push(Number((k * step).toPrecision(12)));
  return ticks;
}

interface Plot {
  readonly width: number;
  readonly height: number;
  readonly x: (value: number) => number;
  readonly y: (value: number) => number;
  readonly parts: string[];
}

/** Frame, title, y axis with grid and reference lines; the caller adds x ticks and data. */
function startPlot(frame: ChartFrame, xRange: [number, number], yValues: number[]): Plot {
  const width = frame.width ?? 720;
  const height = frame.height ?? 420;
  const formatY = frame.formatY ?? ((v: number) => String(v));
  const allY = [...yValues, ...(frame.referenceLines ?? []).map((r) => r.y), ...(frame.yIncludes ?? [])];
  const yTicks = niceTicks(Math.min(...allY), Math.max(...allY));
  const [yMin, yMax] = [Math.min(yTicks[0]!, ...allY), Math.max(yTicks[yTicks.length - 1]!, ...allY)];
  const plotWidth = width - MARGIN.left - MARGIN.right;
  const plotHeight = height - MARGIN.top - MARGIN.bottom;
  const x = (v: number): number =>
    MARGIN.left + (xRange[1] === xRange[0] ? plotWidth / 2 : ((v - xRange[0]) / (xRange[1] - xRange[0])) * plotWidth);
  const y = (v: number): number =>
    MARGIN.top + (yMax === yMin ? plotHeight / 2 : (1 - (v - yMin) / (yMax - yMin)) * plotHeight);
  const parts = [
    `<rect x="0" y="0" width="${width}" height="${height}" fill="white"/>`,
    `<text x="${px(width / 2)}" y="24" text-anchor="middle" font-size="16" font-weight="bold">${escapeXml(frame.title)}</text>`,
  ];
  for (const tick of yTicks) {
    parts.push(
      `<line x1="${MARGIN.left}" x2="${px(MARGIN.left + plotWidth)}" y1="${px(y(tick))}" y2="${px(y(tick))}" stroke="#e0e0e0"/>`,
    );
    parts.push(
      `<text x="${MARGIN.left - 6}" y="${px(y(tick) + 4)}" text-anchor="end" font-size="11">${escapeXml(formatY(tick))}</text>`,
    );
  }
  for (const reference of frame.referenceLines ?? []) {
    const ry = px(y(reference.y));
    parts.push(
      `<line class="reference" x1="${MARGIN.left}" x2="${px(MARGIN.left + plotWidth)}" y1="${ry}" y2="${ry}" stroke="#555" stroke-dasharray="6 4" stroke-width="1.5"/>`,
    );
    // Labelled at the left end, where falling size-vs-sparsity lines are least likely to cross it.
    parts.push(
      `<text class="reference-label" x="${MARGIN.left + 4}" y="${px(y(reference.y) - 5)}" font-size="11" fill="#555">${escapeXml(reference.label)}</text>`,
    );
  }
  const axisBottom = px(MARGIN.top + plotHeight);
  parts.push(`<line x1="${MARGIN.left}" x2="${MARGIN.left}" y1="${MARGIN.top}" y2="${axisBottom}" stroke="black"/>`);
  parts.push(
    `<line x1="${MARGIN.left}" x2="${px(MARGIN.left + plotWidth)}" y1="${axisBottom}" y2="${axisBottom}" stroke="black"/>`,
  );
  parts.push(
    `<text x="${px(MARGIN.left + plotWidth / 2)}" y="${height - 12}" text-anchor="middle" font-size="13">${escapeXml(frame.xLabel)}</text>`,
  );
  parts.push(
    `<text x="16" y="${px(MARGIN.top + plotHeight / 2)}" text-anchor="middle" font-size="13" transform="rotate(-90 16 ${px(MARGIN.top + plotHeight / 2)})">${escapeXml(frame.yLabel)}</text>`,
  );
  return { width, height, x, y, parts };
}

function xTick(plot: Plot, position: number, label: string): string {
  const bottom = plot.height - MARGIN.bottom;
  return `<line x1="${px(position)}" x2="${px(position)}" y1="${bottom}" y2="${bottom + 5}" stroke="black"/><text x="${px(position)}" y="${bottom + 18}" text-anchor="middle" font-size="11">${escapeXml(label)}</text>`;
}

function legend(plot: Plot, names: readonly string[], marker: (index: number, x: number, y: number) => string): string {
  const left = plot.width - MARGIN.right + 16;
  return names
    .map((name, i) => {
      const top = MARGIN.top + 8 + i * 20;
      return `<g class="legend">${marker(i, left, top)}<text x="${left + 28}" y="${top + 4}" font-size="12">${escapeXml(name)}</text></g>`;
    })
    .join('');
}

function finish(plot: Plot): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${plot.width}" height="${plot.height}" viewBox="0 0 ${plot.width} ${plot.height}" font-family="sans-serif">\n${plot.parts.join('\n')}\n</svg>\n`;
}

/** A line chart, one polyline (with point markers) per series, as a standalone SVG document. */
export function lineChartSvg(options: LineChartOptions): string {
  const xs = options.series.flatMap((s) => s.points.map((p) => p.x));
  const ys = options.series.flatMap((s) => s.points.flatMap((p) => (p.y === null ? [] : [p.y])));
  if (xs.length === 0) throw new RangeError('a line chart needs at least one point');
  const plot = startPlot(options, [Math.min(...xs), Math.max(...xs)], ys.length > 0 ? ys : [0]);
  const formatX = options.formatX ?? ((v: number) => String(v));
  for (const x of [...new Set(xs)].sort((a, b) => a - b)) plot.parts.push(xTick(plot, plot.x(x), formatX(x)));
  options.series.forEach((series, i) => {
    const colour = seriesColour(i);
    // Consecutive defined points form one run; a null y ends it.
    const runs: ChartPoint[][] = [[]];
    for (const point of series.points) {
      if (point.y === null) runs.push([]);
      else runs[runs.length - 1]!.push(point);
    }
    const drawn = runs.filter((run) => run.length > 0);
    const paths = drawn.map(
      (run) =>
        `<polyline fill="none" stroke="${colour}" stroke-width="2" points="${run.map((p) => `${px(plot.x(p.x))},${px(plot.y(p.y!))}`).join(' ')}"/>`,
    );
    const markers = drawn
      .flat()
      .map((p) => `<circle cx="${px(plot.x(p.x))}" cy="${px(plot.y(p.y!))}" r="3" fill="${colour}"/>`);
    plot.parts.push(`<g class="series" data-name="${escapeXml(series.name)}">${[...paths, ...markers].join('')}</g>`);
  });
  plot.parts.push(
    legend(
      plot,
      options.series.map((s) => s.name),
      (i, x, y) => `<line x1="${x}" x2="${x + 20}" y1="${y}" y2="${y}" stroke="${seriesColour(i)}" stroke-width="2"/>`,
    ),
  );
  return finish(plot);
}

/** A grouped bar chart: one group per category, one bar per series, as a standalone SVG document. */
export function barChartSvg(options: BarChartOptions): string {
  const values = options.series.flatMap((s) => s.values.flatMap((v) => (v === null ? [] : [v])));
  const plot = startPlot(options, [0, options.categories.length], [...values, 0]);
  const groupWidth = plot.x(1) - plot.x(0);
  const barWidth = (groupWidth * 0.8) / Math.max(1, options.series.length);
  options.categories.forEach((category, c) => plot.parts.push(xTick(plot, plot.x(c + 0.5), category)));
  options.series.forEach((series, i) => {
    const bars = series.values.flatMap((value, c) => {
      if (value === null) return [];
      const left = plot.x(c) + groupWidth * 0.1 + i * barWidth;
      const [top, bottom] = [plot.y(Math.max(value, 0)), plot.y(Math.min(value, 0))];
      return [
        `<rect x="${px(left)}" y="${px(top)}" width="${px(barWidth)}" height="${px(bottom - top)}" fill="${seriesColour(i)}"/>`,
      ];
    });
    plot.parts.push(`<g class="series" data-name="${escapeXml(series.name)}">${bars.join('')}</g>`);
  });
  plot.parts.push(
    legend(
      plot,
      options.series.map((s) => s.name),
      (i, x, y) => `<rect x="${x}" y="${y - 6}" width="20" height="12" fill="${seriesColour(i)}"/>`,
    ),
  );
  return finish(plot);
}
