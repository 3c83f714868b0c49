import { figure } from './figure.ts';

/** One labelled bar. */
export interface Bar {
  readonly label: string;
  readonly value: number;
}

/** A titled group of bars sharing one scale. */
export interface BarPanel {
  readonly title: string;
  readonly unit: string;
  readonly bars: readonly Bar[];
}

const escapeXml = (text: string): string => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

const labelWidth = 180;
const barAreaWidth = 420;
const valueWidth = 110;
const rowHeight = 22;
const panelGap = 18;
const titleHeight = 24;

function panelSvg(panel: BarPanel, top: number): string[] {
  const largest = Math.max(...panel.bars.map((bar) => bar.value), 0);
  const scale = largest > 0 ? barAreaWidth / largest : 0;
  const parts = [`<text x="8" y="${top + 16}" font-weight="bold">${escapeXml(panel.title)} (${escapeXml(panel.unit)})</text>`];
  panel.bars.forEach((bar, index) => {
    const y = top + titleHeight + index * rowHeight;
    const width = Math.max(0, bar.value * scale);
    parts.push(
      `<text x="${labelWidth - 6}" y="${y + 15}" text-anchor="end">${escapeXml(bar.label)}</text>`,
      `<rect x="${labelWidth}" y="${y + 3}" width="${width.toFixed(2)}" height="${rowHeight - 6}" fill="#4472c4"/>`,
      `<text x="${(labelWidth + width + 6).toFixed(2)}" y="${y + 15}">${figure(bar.value)}</text>`,
    );
  });
  return parts;
}

/** Horizontal bar charts, one panel under another, as a standalone SVG document (no fonts or scripts needed). */
export function barChartSvg(panels: readonly BarPanel[]): string {
  const heights = panels.map((panel) => titleHeight + panel.bars.length * rowHeight);
  const totalHeight = heights.reduce((sum, height) => sum + height + panelGap, panelGap);
  const width = labelWidth + barAreaWidth + valueWidth;
  const body: string[] = [];
  let top = panelGap / 2;
  panels.forEach((panel, index) => {
    body.push(...panelSvg(panel, top));
    top += (heights[index] ?? 0) + panelGap;
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${totalHeight}" viewBox="0 0 ${width} ${totalHeight}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    ...body,
    `</svg>`,
    '',
  ].join('\n');
}
