import { describe, expect, it } from 'vitest';
import { decoderPortShape, registerFileBandwidthReport } from '../../../../coruscant/designs/decoder/bandwidth.ts';
import type { IrPort } from '../../../../hw/ir/ir.ts';

describe('registerFileBandwidthReport', () => {
  const report = registerFileBandwidthReport();

  it("reproduces the paper's 344 bytes per cycle per warp, within Volta's 384", () => {
    expect(report.shape).toEqual({
      threads: 32,
      slots: 4,
      tileLength: 64,
      registerAddressBits: 5,
      pointerBits: 6,
      cyclesPerMma: 16,
    });
    expect(report.paper.lines.map((line) => line.bytesPerCycle)).toEqual([256, 8, 64, 16]);
    expect(report.paper.total).toBe(344);
    expect(report.paper.withinBudget).toBe(true);
    expect(report.text).toContain('= (128 + 4 + 32) × 2 B + 16 B = 344 B');
  });

  it('counts this design at 288 bytes, and names the two ways past the budget', () => {
    expect(report.design.total).toBe(288);
    expect(report.fp32AccumulatorEveryCycle).toBe(408);
    expect(report.wholeRegisterA.bytesPerCycle).toBe(384);
  });

  it('follows the elaborated ports when the decoder is reshaped', () => {
    const wide = registerFileBandwidthReport({ threads: 8, slots: 8, tileLength: 128 });
    expect(wide.shape).toMatchObject({
      threads: 8,
      slots: 8,
      tileLength: 128,
      registerAddressBits: 6,
      cyclesPerMma: 16,
    });
    expect(wide.paper.total).toBe((8 * 8 + 8 + 8) * 2 + 8);
    expect(wide.wholeRegisterA.count).toBe(8 * 5);
  });

  it('refuses a port list that is not a BitmapDecoder', () => {
    const ports: IrPort[] = [{ name: 'start', direction: 'input', width: 1, net: 0 }];
    expect(() => decoderPortShape(ports)).toThrow(/not a BitmapDecoder/);
  });
});
