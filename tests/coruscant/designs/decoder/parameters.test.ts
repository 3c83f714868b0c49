import { describe, expect, it } from 'vitest';
import { elaborate } from '../../../../hw/ir/elaborate.ts';
import { InvalidParameterError } from '../../../../hw/core/index.ts';
import { BitmapDecoder, LaneDetector, decoderWidths } from '../../../../coruscant/designs/decoder/index.ts';

describe('decoder parameters', () => {
  it('derive the paper widths at the defaults and grow with the tile', () => {
    expect(decoderWidths({ tileLength: 64, slots: 4 })).toEqual({
      rank: 2,
      count: 3,
      base: 7,
      index: 6,
      register: 5,
      pointer: 6,
    });
    expect(decoderWidths({ tileLength: 128, slots: 8 })).toEqual({
      rank: 3,
      count: 4,
      base: 8,
      index: 7,
      register: 6,
      pointer: 7,
    });
  });

  it.each([
    [{ slots: 3 }, /multiple of slots/],
    [{ slots: 64 }, /at least 2 cycles/],
    [{ threads: 0 }, /threads must be a whole number from 1/],
    [{ tileLength: 2 }, /tileLength must be a whole number from 4/],
  ])('refuse %o with a clear message at the user-facing definition', (params, message) => {
    expect(() => elaborate(BitmapDecoder, params)).toThrow(InvalidParameterError);
    expect(() => elaborate(BitmapDecoder, params)).toThrow(message);
  });

  it('refuse a lane detector without slots', () => {
    expect(() => elaborate(LaneDetector, { slots: 0 })).toThrow(/slots must be a whole number from 1 to 64, got 0/);
  });
});
