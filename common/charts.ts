import { createHash } from 'node:crypto';
import * as echarts from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, MarkLineComponent, TitleComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';

/**
 * Line and grouped bar charts as standalone SVG documents, drawn by Apache ECharts' server-side
 * SVG renderer (no browser, no canvas). This module only lays the chart out: ECharts draws it.
 *
 * ECharts measures text with a per-character width table of a narrow sans-serif font when no
 * canvas exists; browsers often render a wider one (DejaVu Sans on Linux is about 10 % wider than
 * Helvetica). So every text is measured here with a deliberately wide estimate, and the margins,
 * legend column, tick-label rotation and axis-name gaps are computed from those widths — a legend
 * entry, category label or axis title is never clipped by the SVG or drawn over another text (a
 * Chromium test checks the page's figures for both).
 *
 * Usage: `lineChartSvg({ title, xLabel, yLabel, series: [{ name, points: [{ x, y }] }] })`; a
 * point with `y: null` (or NaN) is a gap. `barChartSvg` takes categories and one value per
 * category per series; `horizontal: true` lays the bars sideways, for long category names.
 * Output is deterministic text.
 */

echarts.use([LineChart, BarChart, GridComponent, LegendComponent, MarkLineComponent, TitleComponent, SVGRenderer]);

export interface ChartPoint {
  readonly x: number;
  /** null (or NaN) = no value here (not applicable); lines break at gaps. */
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
  /** Default 420; a horizontal bar chart grows with its categories unless given. */
  readonly height?: number;
  readonly referenceLines?: readonly ReferenceLine[];
  /** Forces the value range to include these values (e.g. 0). */
  readonly yIncludes?: readonly number[];
  readonly formatX?: (x: number) => string;
  readonly formatY?: (y: number) => string;
}

export interface LineChartOptions extends ChartFrame {
  readonly series: readonly LineSeries[];
  /** `log`: a base-2 logarithmic x axis (e.g. batch sizes 1…4096). Default linear. */
  readonly xScale?: 'linear' | 'log';
}

export interface BarSeries {
  readonly name: string;
  /** One value per category (null or NaN = no bar). */
  readonly values: readonly (number | null)[];
}

export interface BarChartOptions extends Omit<ChartFrame, 'formatX'> {
  readonly categories: readonly string[];
  readonly series: readonly BarSeries[];
  /** Bars grow to the right, categories listed top to bottom (first at the top). */
  readonly horizontal?: boolean;
}

/** Colour-blind-friendly palette (Okabe & Ito), cycled by series index. */
const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];
const FONT_FAMILY = 'sans-serif';
const SIZE = { title: 15, axisName: 13, tick: 11, legend: 12 } as const;
const LINE_HEIGHT = 1.3;
const PAD = 10;
const LEGEND_ICON = 25;
const LEGEND_GAP = 8;
const LABEL_MARGIN = 8;

/**
 * Advance widths (in em) of the widest common sans-serif (DejaVu Sans / Verdana class), rounded
 * up; characters not listed count as a full em. Deliberately generous: a text estimated too wide
 * costs a little white space, one estimated too narrow gets clipped.
 */
const NARROW = new Set("il.,:;!|'`()[]{} ");
const MEDIUM = new Set('frtjI1/-\\"');
const WIDE = new Set('mwMW%@');
const CAPITAL = /[A-Z]/;

export function textWidth(text: string, fontSize: number, bold = false): number {
  let em = 0;
  for (const char of text) {
    if (NARROW.has(char)) em += 0.36;
    else if (MEDIUM.has(char)) em += 0.48;
    else if (WIDE.has(char)) em += 1.0;
    else if (CAPITAL.test(char)) em += 0.76;
    else if (char.charCodeAt(0) < 128) em += 0.66;
    else em += 1.0;
  }
  return em * fontSize * (bold ? 1.1 : 1);
}

/** Splits `text` at spaces into lines no wider than `width` (a single longer word keeps its own line). */
function wrap(text: string, fontSize: number, width: number, bold = false): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (line !== '' && textWidth(candidate, fontSize, bold) > width) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  lines.push(line);
  return lines;
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

const defined = (v: number | null | undefined): v is number => v !== null && v !== undefined && Number.isFinite(v);

/** The value axis: nice ticks over the data, references and forced values. */
function valueAxisTicks(frame: ChartFrame, values: readonly number[]): number[] {
  const all = [...values, ...(frame.referenceLines ?? []).map((r) => r.y), ...(frame.yIncludes ?? [])];
  if (all.length === 0) all.push(0, 1);
  const [min, max] = [Math.min(...all), Math.max(...all)];
  return niceTicks(min, max === min ? min + 1 : max);
}

interface Layout {
  readonly width: number;
  readonly height: number;
  readonly titleLines: string[];
  readonly grid: { left: number; right: number; top: number; bottom: number };
  readonly legendLeft: number;
}

/**
 * Title on top (wrapped), legend in its own column at the right, the plot in between. `left` and
 * `bottom` are the room the axes need below and left of the plot (labels, names).
 */
function frameLayout(
  frame: ChartFrame,
  legendNames: readonly string[],
  left: number,
  bottom: number,
  height: number,
): Layout {
  const width = frame.width ?? 720;
  const titleLines = wrap(frame.title, SIZE.title, width - 2 * PAD, true);
  const titleHeight = titleLines.length * SIZE.title * LINE_HEIGHT;
  const legendWidth = Math.max(0, ...legendNames.map((n) => textWidth(n, SIZE.legend))) + LEGEND_ICON;
  const top = PAD + titleHeight + 2 * PAD;
  const right = legendWidth + 3 * PAD;
  return {
    width,
    height,
    titleLines,
    grid: { left, right, top, bottom },
    legendLeft: width - legendWidth - PAD,
  };
}

function baseOption(frame: ChartFrame, layout: Layout, legendNames: readonly string[]): Record<string, unknown> {
  return {
    animation: false,
    color: PALETTE,
    textStyle: { fontFamily: FONT_FAMILY },
    backgroundColor: '#ffffff',
    title: {
      text: layout.titleLines.join('\n'),
      left: 'center',
      top: PAD,
      textStyle: {
        fontSize: SIZE.title,
        fontWeight: 'bold',
        lineHeight: Math.round(SIZE.title * LINE_HEIGHT),
        color: '#000',
      },
    },
    legend: {
      data: [...legendNames],
      orient: 'vertical',
      left: layout.legendLeft,
      top: layout.grid.top,
      itemGap: LEGEND_GAP,
      itemWidth: 18,
      itemHeight: 10,
      textStyle: { fontSize: SIZE.legend, color: '#000' },
    },
    grid: { ...layout.grid, outerBoundsMode: 'none' },
  };
}

function axisName(text: string, gap: number, rotate?: number): Record<string, unknown> {
  return {
    name: text,
    nameLocation: 'middle',
    nameGap: gap,
    nameRotate: rotate,
    nameMoveOverlap: false,
    nameTextStyle: { fontSize: SIZE.axisName, color: '#000' },
  };
}

/** A value axis with exactly the given ticks, and the room its labels and name need. */
function valueAxis(
  frame: ChartFrame,
  ticks: readonly number[],
  vertical: boolean,
): { axis: Record<string, unknown>; room: number } {
  const format = frame.formatY ?? ((v: number) => String(v));
  const labelExtent = vertical
    ? Math.max(...ticks.map((t) => textWidth(format(t), SIZE.tick)))
    : SIZE.tick * LINE_HEIGHT;
  const gap = LABEL_MARGIN + labelExtent + PAD;
  const axis = {
    type: 'value',
    min: ticks[0],
    max: ticks[ticks.length - 1],
    interval: ticks.length > 1 ? ticks[1]! - ticks[0]! : undefined,
    axisLine: { show: true, lineStyle: { color: '#000' } },
    axisTick: { show: true },
    axisLabel: { fontSize: SIZE.tick, color: '#000', margin: LABEL_MARGIN, formatter: format },
    splitLine: { show: true, lineStyle: { color: '#e0e0e0' } },
    ...axisName(frame.yLabel, gap, vertical ? 90 : 0),
  };
  return { axis, room: gap + SIZE.axisName * LINE_HEIGHT + PAD };
}

function markLines(frame: ChartFrame, horizontal: boolean): Record<string, unknown> | undefined {
  const references = frame.referenceLines ?? [];
  if (references.length === 0) return undefined;
  return {
    silent: true,
    symbol: 'none',
    lineStyle: { color: '#555', type: [6, 4], width: 1.5 },
    label: { position: 'insideStartTop', fontSize: SIZE.tick, color: '#555', formatter: '{b}' },
    data: references.map((r) => (horizontal ? { xAxis: r.y, name: r.label } : { yAxis: r.y, name: r.label })),
  };
}

function render(option: Record<string, unknown>, width: number, height: number): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption(option);
    // The renderer's hover rules and their per-instance class names mean nothing in a static
    // figure and would make the text depend on how many charts were drawn before.
    // Clip-path ids are named after the renderer instance; named after the content instead, they
    // are the same in every run and distinct between figures inlined in one page.
    const svg = chart
      .renderToSVGString()
      .replace(/<style[^>]*>\s*<!\[CDATA\[[\s\S]*?\]\]>\s*<\/style>\n?/g, '')
      .replace(/ class="zr\d+-cls-\d+"/g, '')
      .replace(/zr\d+-c(\d+)/g, 'CHART-c$1');
    const id = `chart${createHash('sha256').update(svg).digest('hex').slice(0, 10)}`;
    return `<?xml version="1.0" encoding="UTF-8"?>\n${svg.replace(/CHART-c/g, `${id}-c`)}\n`;
  } finally {
    chart.dispose();
  }
}

/** A line chart, one line (with point markers) per series, as a standalone SVG document. */
export function lineChartSvg(options: LineChartOptions): string {
  const xs = [...new Set(options.series.flatMap((s) => s.points.map((p) => p.x)))].sort((a, b) => a - b);
  if (xs.length === 0) throw new RangeError('a line chart needs at least one point');
  const log = options.xScale === 'log';
  if (log && xs[0]! <= 0) throw new RangeError('a logarithmic x axis needs positive x values');
  const ys = options.series.flatMap((s) => s.points.map((p) => p.y).filter(defined));
  const ticks = valueAxisTicks(options, ys);
  const y = valueAxis(options, ticks, true);
  const formatX = options.formatX ?? ((v: number) => String(v));
  const xRoom = LABEL_MARGIN + SIZE.tick * LINE_HEIGHT + PAD;
  const names = options.series.map((s) => s.name);
  const layout = frameLayout(options, names, y.room, xRoom + SIZE.axisName * LINE_HEIGHT + PAD, options.height ?? 420);
  // The x labels are the data's x values; one too close to the previous shown one is left out.
  const plotWidth = layout.width - layout.grid.left - layout.grid.right;
  const position = (x: number): number => {
    const [lo, hi] = log ? [Math.log2(xs[0]!), Math.log2(xs[xs.length - 1]!)] : [xs[0]!, xs[xs.length - 1]!];
    const v = log ? Math.log2(x) : x;
    return hi === lo ? plotWidth / 2 : ((v - lo) / (hi - lo)) * plotWidth;
  };
  const shown: number[] = [];
  for (const x of xs) {
    const last = shown[shown.length - 1];
    const room =
      (textWidth(formatX(x), SIZE.tick) + (last === undefined ? 0 : textWidth(formatX(last), SIZE.tick))) / 2;
    if (last === undefined || position(x) - position(last) > room + 6) shown.push(x);
  }
  const [lo, hi] = xs.length === 1 ? [xs[0]! - 1, xs[0]! + 1] : [xs[0]!, xs[xs.length - 1]!];
  const option = {
    ...baseOption(options, layout, names),
    xAxis: {
      type: log ? 'log' : 'value',
      logBase: log ? 2 : undefined,
      min: log && xs.length === 1 ? xs[0]! / 2 : lo,
      max: log && xs.length === 1 ? xs[0]! * 2 : hi,
      axisLine: { show: true, onZero: false, lineStyle: { color: '#000' } },
      axisTick: { show: true, customValues: shown },
      axisLabel: { fontSize: SIZE.tick, color: '#000', margin: LABEL_MARGIN, customValues: shown, formatter: formatX },
      splitLine: { show: false },
      ...axisName(options.xLabel, xRoom),
    },
    yAxis: y.axis,
    series: options.series.map((series, i) => ({
      type: 'line',
      name: series.name,
      symbol: 'circle',
      symbolSize: 6,
      lineStyle: { width: 2 },
      connectNulls: false,
      data: series.points.map((p) => [p.x, defined(p.y) ? p.y : '-']),
      markLine: i === 0 ? markLines(options, false) : undefined,
    })),
  };
  return render(option, layout.width, layout.height);
}

/** A grouped bar chart: one group per category, one bar per series, as a standalone SVG document. */
export function barChartSvg(options: BarChartOptions): string {
  const values = options.series.flatMap((s) => s.values.filter(defined));
  const ticks = valueAxisTicks(options, [...values, 0]);
  const names = options.series.map((s) => s.name);
  const labelWidths = options.categories.map((c) => textWidth(c, SIZE.tick));
  const widest = Math.max(0, ...labelWidths);
  const horizontal = options.horizontal ?? false;
  const data = (series: BarSeries): (number | string)[] => series.values.map((v) => (defined(v) ? v : '-'));
  let layout: Layout;
  let categoryAxis: Record<string, unknown>;
  let valueAxisOption: Record<string, unknown>;
  if (horizontal) {
    const x = valueAxis(options, ticks, false);
    const categoryRoom = LABEL_MARGIN + widest + PAD;
    const perCategory = Math.max(28, options.series.length * 14 + 14);
    const guess = frameLayout(options, names, categoryRoom, x.room, 0);
    const height =
      options.height ?? Math.ceil(guess.grid.top + guess.grid.bottom + perCategory * options.categories.length);
    layout = frameLayout(options, names, categoryRoom, x.room, height);
    categoryAxis = {
      type: 'category',
      inverse: true,
      data: [...options.categories],
      axisLine: { show: true, lineStyle: { color: '#000' } },
      axisTick: { show: true, alignWithLabel: false },
      axisLabel: { fontSize: SIZE.tick, color: '#000', margin: LABEL_MARGIN, interval: 0 },
    };
    valueAxisOption = x.axis;
  } else {
    const y = valueAxis(options, ticks, true);
    const width = options.width ?? 720;
    // Rotate the category labels only when they do not fit side by side, and only as far as needed.
    const provisional = frameLayout(options, names, y.room, 0, 0);
    const band = (width - provisional.grid.left - provisional.grid.right) / Math.max(1, options.categories.length);
    const rotate = widest + 6 <= band ? 0 : band * 0.5 >= SIZE.tick * LINE_HEIGHT + 2 ? 30 : band * 0.7 >= 16 ? 45 : 90;
    const radians = (rotate * Math.PI) / 180;
    const labelExtent = widest * Math.sin(radians) + SIZE.tick * LINE_HEIGHT * Math.cos(radians);
    const xRoom = LABEL_MARGIN + labelExtent + PAD;
    // A rotated first label reaches left of its tick; keep it clear of the y axis' name.
    const reach = rotate === 0 ? 0 : (labelWidths[0] ?? 0) * Math.cos(radians) - band / 2;
    const left = Math.max(y.room, reach + PAD + SIZE.axisName * LINE_HEIGHT + PAD);
    layout = frameLayout(options, names, left, xRoom + SIZE.axisName * LINE_HEIGHT + PAD, options.height ?? 420);
    categoryAxis = {
      type: 'category',
      data: [...options.categories],
      axisLine: { show: true, lineStyle: { color: '#000' } },
      axisTick: { show: true },
      axisLabel: { fontSize: SIZE.tick, color: '#000', margin: LABEL_MARGIN, interval: 0, rotate },
      ...axisName(options.xLabel, xRoom),
    };
    valueAxisOption = y.axis;
  }
  const option = {
    ...baseOption(options, layout, names),
    xAxis: horizontal ? valueAxisOption : categoryAxis,
    yAxis: horizontal ? categoryAxis : valueAxisOption,
    series: options.series.map((series, i) => ({
      type: 'bar',
      name: series.name,
      barGap: '10%',
      barCategoryGap: '25%',
      data: data(series),
      markLine: i === 0 ? markLines(options, horizontal) : undefined,
    })),
  };
  return render(option, layout.width, layout.height);
}
