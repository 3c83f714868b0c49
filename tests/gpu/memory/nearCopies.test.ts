/**
 * The split L2's near copies (gpu/memory/nearCopies.ts): a share of the sets keeps a cyclic walk
 * near up to its measured footprint and thrashes beyond it, the same lines every pass, as
 * l2Replacement.cu found on the H200.
 */
import { describe, expect, it } from 'vitest';
import { NearCopies } from '../../../gpu/memory/nearCopies.ts';
import { HIT } from '../../../gpu/memory/sectoredCache.ts';

const LINE = 128;
const MiB = 2 ** 20;

/** Lines of a cyclic walk over `bytes` (in address order) that miss, per pass after a warm one. */
function missesPerPass(copies: NearCopies, bytes: number, passes: number): Set<number>[] {
  const lines = bytes / LINE;
  for (let line = 0; line < lines; line++) copies.access(0, line * LINE);
  return Array.from({ length: passes }, () => {
    const missed = new Set<number>();
    for (let line = 0; line < lines; line++) if (copies.access(0, line * LINE) !== HIT) missed.add(line);
    return missed;
  });
}

describe('near copies with sets that keep different parts of a buffer', () => {
  const shares = [
    { share: 0.25, keptMiB: 2 },
    { share: 0.75, keptMiB: 4 },
  ];

  it('keeps a walk within every share near, and loses one share once the walk outgrows it, the same lines every pass', () => {
    expect(missesPerPass(new NearCopies(1, shares, LINE, 32), 1.9 * MiB, 2).map((set) => set.size)).toEqual([0, 0]);
    const [first, second] = missesPerPass(new NearCopies(1, shares, LINE, 32), 3 * MiB, 2);
    const lines = (3 * MiB) / LINE;
    expect(first!.size / lines).toBeCloseTo(0.25, 2);
    expect([...first!].every((line) => second!.has(line))).toBe(true);
    expect(second!.size).toBe(first!.size);
    const [beyond] = missesPerPass(new NearCopies(1, shares, LINE, 32), 4.25 * MiB, 1);
    expect(beyond!.size).toBe((4.25 * MiB) / LINE);
  });

  it('keeps partitions apart', () => {
    const copies = new NearCopies(2, shares, LINE, 32);
    copies.access(0, 0);
    expect(copies.access(1, 0)).not.toBe(HIT);
    expect(copies.access(0, 0)).toBe(HIT);
  });

  it('refuses shares that do not add up to the whole', () => {
    expect(() => new NearCopies(1, [{ share: 0.5, keptMiB: 1 }], LINE, 32)).toThrow(/add up to 0.5/);
  });
});
