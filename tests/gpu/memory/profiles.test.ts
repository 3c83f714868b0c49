import { describe, expect, it } from 'vitest';
import { UserError } from '../../../common/errors.ts';
import { GPU_MEMORY_PROFILES, memoryProfile, withL1DataBytes } from '../../../gpu/memory/profiles.ts';

/** Paths of objects that hold a number (or an array of numbers) but no non-empty `source` string. */
function unsourcedGroups(value: unknown, path: string): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  const entries = Object.entries(value);
  const holdsNumbers = entries.some(
    ([, v]) => typeof v === 'number' || (Array.isArray(v) && v.some((x) => typeof x === 'number')),
  );
  const source = (value as { source?: unknown }).source;
  const own = holdsNumbers && !(typeof source === 'string' && source.length > 20) ? [path] : [];
  return [...own, ...entries.flatMap(([k, v]) => unsourcedGroups(v, `${path}.${k}`))];
}

/** Names of the numeric fields of an object (own, not nested). */
function numericFields(value: object): string[] {
  return Object.entries(value)
    .filter(([, v]) => typeof v === 'number' || (Array.isArray(v) && v.every((x) => typeof x === 'number')))
    .map(([k]) => k);
}

describe('GPU memory profiles', () => {
  it('lists the three named profiles', () => {
    expect(Object.keys(GPU_MEMORY_PROFILES)).toEqual(['rtx4090', 'rtx6000ada', 'h200']);
  });

  for (const profile of Object.values(GPU_MEMORY_PROFILES)) {
    describe(profile.name, () => {
      it('gives every group of numbers a source', () => {
        expect(unsourcedGroups(profile, profile.name)).toEqual([]);
      });

      it("names every numeric field in its group's source, citing memory.md or the seed", () => {
        for (const group of [
          profile.sm,
          profile.l1,
          profile.l2,
          profile.l2.sliceHash,
          profile.dram,
          profile.dram.mapping,
        ]) {
          expect(group.source).toMatch(/memory\.md|seed/);
          for (const field of numericFields(group)) expect(group.source, field).toContain(field);
        }
      });

      it('states its assumptions', () => {
        expect(profile.assumptions.length).toBeGreaterThan(2);
      });

      it('is internally consistent: slice hash covers the slices, slices split evenly over channels', () => {
        const { l2, dram } = profile;
        expect(l2.sliceHash.modulus * 2 ** l2.sliceHash.parityMasks.length).toBe(l2.slices);
        expect(l2.slices / l2.slicesPerChannel).toBe(dram.channels);
        expect(2 ** l2.setIndexMasks.length).toBe(l2.setsPerSlice);
        expect(2 ** profile.l1.setIndexMasks.length).toBe(profile.l1.sets);
      });
    });
  }

  it('pins the sizes the references give', () => {
    const mib = 2 ** 20;
    const l2Bytes = (name: string): number => {
      const { l2 } = memoryProfile(name);
      return l2.slices * l2.setsPerSlice * l2.ways * l2.lineBytes;
    };
    expect(l2Bytes('rtx4090')).toBe(72 * mib);
    expect(l2Bytes('rtx6000ada')).toBe(96 * mib);
    expect(memoryProfile('rtx6000ada').sm.count).toBe(142);
    expect(memoryProfile('rtx6000ada').dram.bandwidthGBps).toBe(960);
  });

  it('rejects an unknown profile with a UserError that lists the choices', () => {
    expect(() => memoryProfile('rtx9999')).toThrow(UserError);
    expect(() => memoryProfile('rtx9999')).toThrow(/rtx4090, rtx6000ada, h200/);
  });

  it('shrinks the L1 ways for a shared-memory carve-out', () => {
    const profile = withL1DataBytes(memoryProfile('rtx4090'), 28 * 1024);
    expect(profile.l1.ways).toBe(1);
    expect(profile.l1.sets).toBe(128);
    expect(() => withL1DataBytes(memoryProfile('rtx4090'), 1024)).toThrow(UserError);
  });
});
