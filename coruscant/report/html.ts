/** Small HTML builders for the report page: escaping, tables, checked numbers, inlined SVG figures. */
import { escapeHtml } from '../../api/plugin.ts';

export { escapeHtml, tableHtml } from '../../api/plugin.ts';


/** How a number is printed: fixed decimals, or a whole number with thousands separators. */
export type NumberFormat = { readonly digits: number } | 'integer';

export function formatNumber(value: number, format: NumberFormat): string {
  if (format === 'integer') return Math.round(value).toLocaleString('en-US');
  return value.toLocaleString('en-US', { minimumFractionDigits: format.digits, maximumFractionDigits: format.digits });
}

/**
 * The numbers one section shows, recorded as they are rendered: every figure on the page carries
 * its summary.json key and exact value (`data-key`, `data-value`), so the two cannot drift apart.
 */
export class ShownNumbers {
  readonly values: Record<string, number> = {};

  constructor(private readonly prefix: string) {}

  /** Records `value` under `prefix.key` and returns its HTML. */
  show(key: string, value: number, format: NumberFormat = { digits: 2 }): string {
    const fullKey = `${this.prefix}.${key}`;
    if (!Number.isFinite(value)) throw new RangeError(`report figure ${fullKey} is not a finite number: ${value}`);
    const previous = this.values[fullKey];
    if (previous !== undefined && previous !== value) throw new RangeError(`report figure ${fullKey} shown twice with different values (${previous}, ${value})`);
    this.values[fullKey] = value;
    return `<span class="num" data-key="${escapeHtml(fullKey)}" data-value="${value}">${formatNumber(value, format)}</span>`;
  }
}


/**
 * An SVG document ready to inline: no XML prolog, and every id prefixed so two figures drawn by the
 * same library (whose ids repeat) cannot capture each other's references.
 */
export function inlineSvg(svg: string, idPrefix: string): string {
  const ids = new Set([...svg.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1] as string));
  let text = svg.replace(/^\s*<\?xml[^>]*>\s*/, '').replace(/<!DOCTYPE[^>]*>\s*/i, '');
  if (ids.size === 0) return text;
  text = text.replace(/(\sid=")([^"]+)"/g, (whole, start: string, id: string) => (ids.has(id) ? `${start}${idPrefix}-${id}"` : whole));
  text = text.replace(/((?:xlink:)?href="#|url\(#)([^")]+)/g, (whole, start: string, id: string) => (ids.has(id) ? `${start}${idPrefix}-${id}` : whole));
  return text;
}

/** A figure: the inlined SVG and a caption; `data-figure` names it for checks. */
export function figureHtml(name: string, svg: string, caption: string): string {
  return `<figure data-figure="${escapeHtml(name)}">\n${inlineSvg(svg, name)}\n<figcaption>${escapeHtml(caption)}</figcaption>\n</figure>`;
}

/**
 * A WaveDrom picture with room for its lane names: WaveDrom sizes the name column for Helvetica,
 * and a browser substituting a wider sans-serif (DejaVu Sans, Liberation Sans) would cut the
 * longest name off at the left edge. The view box grows to the left by a fifth of an 11 pt
 * character per character of the longest name, which covers the widest common substitute.
 */
export function waveSvgWithNameRoom(svg: string): string {
  const names = [...svg.matchAll(/class="info"[^>]*>(?:<tspan>)?([^<]*)/g)].map((match) => match[1]!.length);
  const extra = Math.ceil(Math.max(0, ...names) * 3);
  const root = /<svg\b[^>]*>/.exec(svg);
  if (root === null || extra === 0) return svg;
  const size = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(root[0]);
  if (size === null) return svg;
  const width = Number(size[1]) + extra;
  const widened = root[0]
    .replace(size[0], `viewBox="${-extra} 0 ${width} ${size[2]}"`)
    .replace(/\swidth="[\d.]+"/, ` width="${width}"`);
  return svg.replace(root[0], widened);
}
