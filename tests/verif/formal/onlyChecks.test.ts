import { describe, expect, it } from 'vitest';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { BitmapDecoder } from '../../../coruscant/designs/decoder/bitmapDecoder.ts';
import { BitmapThreadSlice } from '../../../coruscant/designs/decoder/bitmapThreadSlice.ts';
import { onlyChecksOf } from '../../../verif/formal/formalModel.ts';

describe('onlyChecksOf (gen prove --only)', () => {
  it("keeps the sequencer's checks and cuts the thread slices, which no kept check reads", () => {
    const cut = onlyChecksOf(elaborate(BitmapDecoder), new Set(['DensePointerIncrementer']));
    expect(cut.modules.map((module) => module.name)).toEqual(['DensePointerIncrementer', 'BitmapDecoder']);
    expect(cut.modules[1]!.instances.map((instance) => instance.name)).toEqual(['dense_pointer']);
    expect(cut.modules[0]!.checks!.length).toBe(7);
  });

  it('keeps the children whose outputs a kept check reads, without their own checks', () => {
    const cut = onlyChecksOf(elaborate(BitmapThreadSlice), new Set(['BitmapThreadSlice']));
    const names = cut.modules.map((module) => module.name);
    // The slice's checks read the lane detector's rank and count, the adder chain's base and the
    // register index emitter's zero flags: all three stay, the lane detector without its checks.
    expect(names).toEqual(['LaneDetector', 'AdderChain', 'RegisterIndexEmitter', 'BitmapThreadSlice']);
    expect(cut.modules.find((module) => module.name === 'LaneDetector')!.checks).toEqual([]);
  });
});
