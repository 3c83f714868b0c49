import { describe, expect, it } from 'vitest';
import { displayModuleName } from '../../synth/components.ts';

describe('displayModuleName', () => {
  it('spells out Yosys parameter specializations', () => {
    expect(displayModuleName("$paramod\\lane\\W=s32'00000000000000000000000000010000")).toBe('lane(W=16)');
    expect(displayModuleName("$paramod\\fifo\\DEPTH=s32'00000000000000000000000000000100\\NAME=hello")).toBe(
      'fifo(DEPTH=4, NAME=hello)',
    );
    expect(displayModuleName('$paramod$4f1c2a9e\\wide')).toBe('wide(…)');
    expect(displayModuleName('popcount16')).toBe('popcount16');
  });
});
