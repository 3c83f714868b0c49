import { barChartSvg } from '../common/charts.ts';
import { figure } from './figure.ts';
import type { ComponentReport, SynthReport } from './componentReport.ts';

function label(component: ComponentReport, index: number): string {
  const name = index === 0 ? `${component.displayName} (total)` : component.displayName;
  return component.instances > 1 ? `${name} ×${component.instances}` : name;
}

/** Column titles and cell extractors of the Table-2-style report. */
function columns(report: SynthReport): { title: string; cell: (row: ComponentReport, index: number) => string }[] {
  const node = `${report.target.node} nm`;
  return [
    { title: 'component', cell: label },
    { title: 'cells', cell: (row) => String(row.cells) },
    { title: 'area µm² 45 nm', cell: (row) => figure(row.area45) },
    { title: `area µm² ${node}`, cell: (row) => figure(row.areaTarget) },
    { title: 'leakage µW', cell: (row) => figure(row.power45.leakageUw) },
    { title: 'dynamic µW', cell: (row) => figure(row.power45.dynamicUw) },
    { title: 'total µW 45 nm', cell: (row) => figure(row.power45.totalUw) },
    { title: `total µW ${node}`, cell: (row) => figure(row.totalUwTarget) },
    { title: 'path ps 45 nm', cell: (row) => figure(row.criticalPathPs45) },
    { title: `path ps ${node}`, cell: (row) => figure(row.criticalPathPsTarget) },
  ];
}

/** The whole design's cells by library type, largest area first: `DFF_X1 5 (22.61 µm²), …`. */
function cellTypeLine(total: ComponentReport | undefined): string {
  const types = [...(total?.byType ?? [])].sort((a, b) => b.area - a.area || (a.type < b.type ? -1 : 1));
  return `cells: ${types.map((entry) => `${entry.type} ${entry.count} (${figure(entry.area)} µm²)`).join(', ')}`;
}

/** The report as an aligned plain-text table plus the assumptions a reader needs to trust it. */
export function formatSynthReport(report: SynthReport): string {
  const cols = columns(report);
  const rows = [
    cols.map((col) => col.title),
    ...report.components.map((row, index) => cols.map((col) => col.cell(row, index))),
  ];
  const widths = cols.map((_, c) => Math.max(...rows.map((row) => (row[c] ?? '').length)));
  const line = (row: readonly string[]): string =>
    row
      .map((text, c) => (c === 0 ? text.padEnd(widths[c] ?? 0) : text.padStart(widths[c] ?? 0)))
      .join('  ')
      .trimEnd();
  const total = report.components[0];
  const t = report.timing;
  const f = report.factors;
  const point = (p: { flavor: string; node: number; vdd: number }): string => `${p.flavor}${p.node} @ ${p.vdd} V`;
  return [
    line(rows[0] ?? []),
    widths.map((width) => '-'.repeat(width)).join('  '),
    ...rows.slice(1).map(line),
    '',
    cellTypeLine(total),
    `library ${report.library} (NanGate FreePDK45 typical, 1.1 V); Yosys engine ${report.engine}; stat -liberty chip area ${figure(report.yosysChipArea)} µm²`,
    `power at ${report.clockGhz} GHz from ${report.stimulus}, measured over ${report.measuredCycles} cycles after reset; total clock power ${figure(total?.power45.clockUw ?? 0)} µW`,
    ...(report.composition ?? []).map(
      (note) =>
        `composed: ${note.module} ×${note.instances} measured as one gate-level instance on ${note.stimulus} over ${note.measuredCycles} cycles, power × ${note.instances}; the rest at gate level with it as RTL`,
    ),
    ...(report.macros ?? []).map(
      (macro) =>
        `SRAM macro ${macro.cell}: ${macro.words} × ${macro.width} bits (${macro.readPorts} read, ${macro.writePorts} write ports), ` +
        `${figure(macro.area45)} µm², leakage ${figure(macro.leakageUw45)} µW, ${macro.cycleEnergyPj45.toPrecision(3)} pJ per port-cycle = ${figure(macro.accessUw45)} µW at 45 nm; ` +
        `${report.target.node} nm ${figure(macro.areaTarget)} µm², ${figure(macro.totalUwTarget)} µW (45 nm SRAM table, docs/reference/sram45.md; in the rows above, not as flip-flops)`,
    ),
    `critical path ${figure(t.delayPs)} ps (${t.startpoint} → ${t.endpoint}), max clock ${t.maxClockGhz.toFixed(2)} GHz at 45 nm, by ${t.engine}${t.fallbackReason ? ` (OpenSTA not used: ${t.fallbackReason})` : ''}; block rows: built-in longest path inside the block`,
    `scaling ${point(report.source)} → ${point(report.target)} (Stillmaker & Baas): area ×${f.area.toPrecision(3)}, delay ×${f.delay.toPrecision(4)}, energy ×${f.energy.toPrecision(4)}, power ×${f.power.toPrecision(4)}; ` +
      `${report.target.node} nm power = dynamic × energy factor (same clock) + leakage × power factor`,
    '',
  ].join('\n');
}

/**
 * Area and power of every row (the whole design first) as two horizontal bar charts stacked in
 * one SVG document; sideways bars give every component name its own line.
 */
export function reportChartSvg(report: SynthReport): string {
  const categories = report.components.map(label);
  const width = 720;
  const node = `${report.target.node} nm`;
  const charts = [
    barChartSvg({
      title: `Area of ${report.top}`,
      xLabel: 'component',
      yLabel: 'area (µm²)',
      categories,
      horizontal: true,
      series: [
        { name: '45 nm', values: report.components.map((row) => row.area45) },
        { name: node, values: report.components.map((row) => row.areaTarget) },
      ],
      width,
    }),
    barChartSvg({
      title: `Power of ${report.top} at ${report.clockGhz} GHz`,
      xLabel: 'component',
      yLabel: 'power (µW)',
      categories,
      series: [
        { name: 'leakage 45 nm', values: report.components.map((row) => row.power45.leakageUw) },
        { name: 'dynamic 45 nm', values: report.components.map((row) => row.power45.dynamicUw) },
        { name: `total ${node}`, values: report.components.map((row) => row.totalUwTarget) },
      ],
      horizontal: true,
      width,
    }),
  ];
  // Each chart is a standalone document; nested <svg> elements stack them without re-drawing anything.
  const heights = charts.map((chart) => Number(/<svg[^>]* height="(\d+(?:\.\d+)?)"/.exec(chart)?.[1] ?? 0));
  let top = 0;
  const nested = charts.map((chart, index) => {
    const placed = chart.replace(/^<\?xml[^>]*>\n/, '').replace('<svg ', `<svg y="${top}" `);
    top += heights[index]!;
    return placed;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${top}" viewBox="0 0 ${width} ${top}">\n${nested.join('')}</svg>\n`;
}
