import { describe, expect, it } from 'vitest';
import { escapeHtml, inlineSvg } from '../../../coruscant/report/html.ts';

describe('inlineSvg', () => {
  it('drops the XML prolog and prefixes ids and every reference to them, leaving other links alone', () => {
    const svg = '<?xml version="1.0"?>\n<svg><defs><marker id="arrow"/><clipPath id="c1"/></defs><use href="#arrow"/><use xlink:href="#arrow"/><g clip-path="url(#c1)"/><a href="#elsewhere"/></svg>';
    const inlined = inlineSvg(svg, 'fig');
    expect(inlined.startsWith('<svg>')).toBe(true);
    expect(inlined).toContain('id="fig-arrow"');
    expect(inlined).toContain('href="#fig-arrow"');
    expect(inlined).toContain('xlink:href="#fig-arrow"');
    expect(inlined).toContain('url(#fig-c1)');
    expect(inlined).toContain('href="#elsewhere"');
  });

  it('escapes text for elements and attributes', () => {
    expect(escapeHtml('<a href="x">&</a>')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;');
  });
});
