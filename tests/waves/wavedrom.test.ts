import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../../common/errors.ts';
import { globToRegExp } from '../../waves/signalSelect.ts';
import { readVcdFile, type VcdTrace } from '../../waves/vcdReader.ts';
import {
  renderSvgToPng,
  renderWaveDromSvg,
  traceToWaveDrom,
  type WaveGroup,
  type WaveLane,
} from '../../waves/wavedrom.ts';
import { VcdWriter } from '../../waves/vcdWriter.ts';

const directory = mkdtempSync(join(tmpdir(), 'vcd-wavedrom-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** Checks that every tag opened in the SVG is closed in order: enough to catch broken markup. */
export function expectWellFormedXml(xml: string): void {
  const stack: string[] = [];
  const body = xml.replace(/<!--[\s\S]*?-->/g, '').replace(/<\?[\s\S]*?\?>/g, '');
  for (const match of body.matchAll(
    /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|<|&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)/gi,
  )) {
    if (match[2] === undefined) throw new Error(`stray '${match[0]}' at ${match.index}`);
    if (match[1]) expect(stack.pop(), `closing </${match[2]}>`).toBe(match[2]);
    else if (!match[4]) stack.push(match[2]);
  }
  expect(stack).toEqual([]);
}

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
export function pngSize(png: Uint8Array): { width: number; height: number } {
  const bytes = Buffer.from(png);
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(bytes.toString('latin1', 12, 16)).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function lanesOf(items: readonly unknown[]): WaveLane[] {
  return items.flatMap((item) =>
    Array.isArray(item)
      ? lanesOf(item.slice(1))
      : item && typeof item === 'object' && 'wave' in item
        ? [item as WaveLane]
        : [],
  );
}

describe('WaveDrom pictures', () => {
  let trace: VcdTrace;

  beforeAll(async () => {
    const path = join(directory, 'buses.vcd');
    const writer = new VcdWriter(path);
    const clk = writer.addSignal(['top'], 'clk', 1);
    const ids = [1, 7, 64, 128].map((width) => ({
      width,
      id: writer.addSignal(['top', 'dec'], `base${width}`, width),
    }));
    const other = writer.addSignal(['top', 'other'], 'flag', 1);
    writer.beginDump();
    for (let cycle = 0; cycle < 12; cycle++) {
      // The engines' time base: cycle k's values at 10k with the clock low, its edge at 10k+5.
      writer.setTime(cycle * 10);
      writer.change(clk, 0);
      writer.change(other, 0);
      for (const { width, id } of ids) {
        // unknown for cycles 2-3, then a value that holds for two cycles
        const value = BigInt(Math.floor(cycle / 2) * 0x9e3779b9) * (width > 64 ? 0x1000000000000000100000001n : 1n);
        writer.change(id, cycle === 2 || cycle === 3 ? 'x' : value & ((1n << BigInt(width)) - 1n));
      }
      writer.setTime(cycle * 10 + 5);
      writer.change(clk, 1);
    }
    writer.setTime(120);
    await writer.close();
    trace = readVcdFile(path);
  });

  it('makes a clock lane, scope groups, 0/1 lanes and hex-labelled buses with x and repeats', () => {
    const source = traceToWaveDrom(trace, { patterns: ['top.dec.base*'], fromCycle: 1, toCycle: 6 });
    expect(source.signal[0]).toEqual({ name: 'top.clk', wave: 'p.....' });
    const group = source.signal[2] as WaveGroup;
    expect(group[0]).toBe('top');
    expect((group[1] as WaveGroup)[0]).toBe('dec');
    const lanes = lanesOf(source.signal);
    expect(lanes.map((lane) => lane.name)).toEqual(['top.clk', 'base1', 'base7', 'base64', 'base128']);
    // cycles 1…6: value(0), x, x, value(2), value(2), value(3)
    expect(lanes[1]).toEqual({ name: 'base1', wave: '0x.0.1' });
    expect(lanes[3]).toEqual({
      name: 'base64',
      wave: '=x.=.=',
      data: ['0', (2 * 0x9e3779b9).toString(16), (3 * 0x9e3779b9).toString(16)],
    });
    expect(lanes[4]!.data![1]).toBe(
      ((BigInt(2 * 0x9e3779b9) * 0x1000000000000000100000001n) & ((1n << 128n) - 1n)).toString(16),
    );
    expect(source.config?.hscale).toBeGreaterThan(1);
    expect(source.head?.tock).toBe(1);
  });

  it.each([1, 7, 64, 128])('renders a %i-bit bus to well-formed SVG and a PNG with text', (width) => {
    const svg = renderWaveDromSvg(traceToWaveDrom(trace, { patterns: [`top.dec.base${width}`] }));
    expect(svg.startsWith('<svg')).toBe(true);
    expectWellFormedXml(svg);
    expect(svg).toContain(`base${width}`);
    const png = renderSvgToPng(svg);
    const { width: pixels, height } = pngSize(png);
    expect(pixels).toBeGreaterThan(0);
    expect(height).toBeGreaterThan(0);
    // without fonts resvg silently drops every label: the picture must differ from that one
    const { Resvg } = createRequire(import.meta.url)('@resvg/resvg-js') as typeof import('@resvg/resvg-js');
    const textless = new Resvg(svg, { font: { loadSystemFonts: false }, fitTo: { mode: 'zoom', value: 2 } })
      .render()
      .asPng();
    expect(Buffer.from(png).equals(Buffer.from(textless))).toBe(false);
  });

  it('selects by globs: * within a scope, ** across, and rejects a pattern matching nothing', () => {
    expect(globToRegExp('top.dec.base*').test('top.dec.base64')).toBe(true);
    expect(globToRegExp('top.*').test('top.dec.base64')).toBe(false);
    expect(globToRegExp('top.**').test('top.dec.base64')).toBe(true);
    expect(globToRegExp('top.?lk').test('top.clk')).toBe(true);
    expect(lanesOf(traceToWaveDrom(trace, { patterns: ['**.flag'] }).signal).map((lane) => lane.name)).toEqual([
      'top.clk',
      'flag',
    ]);
    expect(() => traceToWaveDrom(trace, { patterns: ['top.nothing*'] })).toThrow(UserError);
  });

  it('rejects windows outside the trace or too wide to draw', () => {
    expect(() => traceToWaveDrom(trace, { fromCycle: 50 })).toThrow(/outside the trace's cycles 0…11/);
    expect(() => traceToWaveDrom(trace, { fromCycle: 5, toCycle: 2 })).toThrow(/before the first cycle drawn, 5/);
    expect(() => traceToWaveDrom(trace, { cycles: { clock: 'top.nope' } })).toThrow(/no signal named top.nope/);
  });
});
