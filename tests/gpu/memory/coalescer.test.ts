import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coalesceWarpAccess, pushWarpAccess } from '../../../gpu/memory/coalescer.ts';
import { TraceBuilder } from '../../../gpu/memory/requestTrace.ts';
import { fastCheckSeed } from './seed.ts';

const lanes = (f: (t: number) => number): number[] => Array.from({ length: 32 }, (_, t) => f(t));

describe('warp coalescer', () => {
  it('32 consecutive 4-byte loads: one line, four sectors', () => {
    expect(
      coalesceWarpAccess(
        lanes((t) => 0x1000 + 4 * t),
        4,
      ),
    ).toEqual([0x1000, 0x1020, 0x1040, 0x1060]);
  });

  it('LDG.128 of 32 consecutive threads: 512 bytes, 16 sectors', () => {
    expect(
      coalesceWarpAccess(
        lanes((t) => 16 * t),
        16,
      ),
    ).toHaveLength(16);
  });

  it('a 128-byte stride: one sector per thread; the same address: one sector', () => {
    expect(
      coalesceWarpAccess(
        lanes((t) => 128 * t),
        4,
      ),
    ).toHaveLength(32);
    expect(
      coalesceWarpAccess(
        lanes(() => 64),
        4,
      ),
    ).toEqual([64]);
  });

  it('skips inactive threads', () => {
    expect(
      coalesceWarpAccess(
        lanes((t) => 128 * t),
        4,
        0b101,
      ),
    ).toEqual([0, 256]);
  });

  it('rejects misaligned and odd sizes', () => {
    expect(() => coalesceWarpAccess([2], 4)).toThrow(/aligned/);
    expect(() => coalesceWarpAccess([0], 12)).toThrow(/access size/);
  });

  it("returns exactly the distinct sectors that hold the threads' bytes", () => {
    const seed = fastCheckSeed('coalescer');
    const size = fc.constantFrom(1, 2, 4, 8, 16);
    fc.assert(
      fc.property(
        size,
        fc.array(fc.integer({ min: 0, max: 4096 }), { minLength: 32, maxLength: 32 }),
        // Ascending addresses (the common case, which skips the sort) as well as any order.
        fc.boolean(),
        fc.nat(0xffffffff),
        (bytes, drawn, ascending, mask) => {
          const slots = ascending ? [...drawn].sort((a, b) => a - b) : drawn;
          const addresses = slots.map((s) => s * bytes);
          const sectors = coalesceWarpAccess(addresses, bytes, mask);
          const active = addresses.filter((_, t) => ((mask >>> t) & 1) === 1);
          const expected = new Set(active.map((a) => Math.floor(a / 32) * 32));
          expect(sectors).toEqual([...expected].sort((a, b) => a - b));
        },
      ),
      { seed, numRuns: 200 },
    );
  });

  it('pushes one trace entry per run of adjacent sectors within a line', () => {
    const trace = new TraceBuilder();
    const sectors = pushWarpAccess(trace, 3, 7, [0, 32, 96, 128, 160], 4, 0b11111);
    expect(sectors).toBe(5);
    const built = trace.build();
    expect([...built.address]).toEqual([0, 96, 128]);
    expect([...built.bytes]).toEqual([64, 32, 64]);
    expect([...built.sm]).toEqual([3, 3, 3]);
    expect([...built.time]).toEqual([7, 7, 7]);
  });
});
