/**
 * The split L2's partition sets (gpu/memory/partitionSets.ts): a share of the sets keeps a cyclic
 * walk up to its measured footprint and thrashes beyond it, the same lines every pass, as
 * l2Replacement.cu found on the H200.
 */
import { describe, expect, it } from 'vitest';
import { PartitionSets } from '../../../gpu/memory/partitionSets.ts';
import { MemoryPathSimulator } from '../../../gpu/memory/pathModel.ts';
import { memoryProfile } from '../../../gpu/memory/profiles.ts';
import { HIT } from '../../../gpu/memory/sectoredCache.ts';

const LINE = 128;
const MiB = 2 ** 20;

/** Lines of a cyclic walk over `bytes` (in address order) that miss, per pass after a warm one. */
function missesPerPass(copies: PartitionSets, bytes: number, passes: number): Set<number>[] {
  const lines = bytes / LINE;
  for (let line = 0; line < lines; line++) copies.access(0, line * LINE);
  return Array.from({ length: passes }, () => {
    const missed = new Set<number>();
    for (let line = 0; line < lines; line++) if (copies.access(0, line * LINE) !== HIT) missed.add(line);
    return missed;
  });
}

describe('partition sets that keep different parts of a buffer', () => {
  const shares = [
    { share: 0.25, keptMiB: 2 },
    { share: 0.75, keptMiB: 4 },
  ];

  it('keeps a walk within every share near, and loses one share once the walk outgrows it, the same lines every pass', () => {
    expect(missesPerPass(new PartitionSets(1, shares, LINE, 32), 1.9 * MiB, 2).map((set) => set.size)).toEqual([0, 0]);
    const [first, second] = missesPerPass(new PartitionSets(1, shares, LINE, 32), 3 * MiB, 2);
    const lines = (3 * MiB) / LINE;
    expect(first!.size / lines).toBeCloseTo(0.25, 2);
    expect([...first!].every((line) => second!.has(line))).toBe(true);
    expect(second!.size).toBe(first!.size);
    const [beyond] = missesPerPass(new PartitionSets(1, shares, LINE, 32), 4.25 * MiB, 1);
    expect(beyond!.size).toBe((4.25 * MiB) / LINE);
  });

  it('keeps partitions apart', () => {
    const copies = new PartitionSets(2, shares, LINE, 32);
    copies.access(0, 0);
    expect(copies.access(1, 0)).not.toBe(HIT);
    expect(copies.access(0, 0)).toBe(HIT);
  });

  it('refuses shares that do not add up to the whole', () => {
    expect(() => new PartitionSets(1, [{ share: 0.5, keptMiB: 1 }], LINE, 32)).toThrow(/add up to 0.5/);
  });
});

/**
 * The h200 profile's split L2 as the eleventh batch measured it: a single SM's walk that outgrows
 * its partition (40 MiB: its lines and its copies of the other half exceed the partition's 30.9 MiB)
 * reads half its lines across the link from their home partition and the other half, its own
 * partition's, from DRAM (gpu/probes/README.md, "Eleventh batch": the walk's two latency groups).
 */
describe("h200: a partition's own lines and its copies share its sets", () => {
  const profile = memoryProfile('h200');
  const cycles = (ns: number) => (ns * profile.sm.clockMHz) / 1000;

  /** Per load of the second pass of one SM's dependent walk over `bytes` in address order, its latency in SM cycles. */
  function secondPassLatencies(bytes: number): number[] {
    const simulator = new MemoryPathSimulator(profile);
    const lines = bytes / LINE;
    let now = 0;
    const latencies: number[] = [];
    for (let pass = 0; pass < 2; pass++)
      for (let line = 0; line < lines; line++) {
        const done = simulator.request(0, line * LINE, 4, now);
        if (pass === 1) latencies.push(cycles(done - now));
        now = done;
      }
    return latencies;
  }

  it("keeps a 16 MiB walk in the SM's partition: every load at the L2 hit latency", () => {
    const latencies = secondPassLatencies(16 * MiB);
    expect(latencies.reduce((a, b) => Math.max(a, b))).toBeCloseTo(profile.l2.hitLatencyCycles, 0);
  }, 60_000);

  it("sends half of a 40 MiB walk across the link (far hits) and its own partition's half to DRAM", () => {
    const latencies = secondPassLatencies(40 * MiB);
    const farHit = profile.l2.hitLatencyCycles + profile.l2.partitions!.farExtraCycles;
    const far = latencies.filter((c) => Math.abs(c - farHit) < 1).length / latencies.length;
    const nearDram = latencies.filter((c) => c > farHit + 50).length / latencies.length;
    expect(far).toBeGreaterThan(0.45);
    expect(nearDram).toBeGreaterThan(0.45);
    expect(far + nearDram).toBeGreaterThan(0.99);
  }, 60_000);
});
