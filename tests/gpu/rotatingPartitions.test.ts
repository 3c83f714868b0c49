/**
 * The thirty-ninth batch (two H100s; gpu/probes/README.md): the rotating stream with its warps
 * placed by L2 partition (`l2Partitions rotpart`), so that a line's next reader runs in the same
 * partition as its previous one for a chosen share of the warps. On silicon the copy a partition
 * keeps of a line serves its next reader there from just below the L2's size to about 1.6 times
 * it, only where nearly every next reader shares the partition, and the plain stream reads as the
 * share that the block scheduler's order gives it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const RESULTS = join(import.meta.dirname, '../../gpu/probes/results');
const MiB = 2 ** 20;

interface RotatingRecord {
  readonly probe: string;
  readonly footprintBytes: number;
  readonly GBps: number;
  readonly warpsARun?: number;
  readonly samePartitionShare?: number;
  readonly nextReader?: string;
}

function records(file: string): RotatingRecord[] {
  return readFileSync(join(RESULTS, file), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as RotatingRecord);
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** The mean rate of the records that `pick` selects, failing where none does. */
function rate(from: readonly RotatingRecord[], what: string, pick: (record: RotatingRecord) => boolean): number {
  const picked = from.filter(pick).map((record) => record.GBps);
  if (picked.length === 0) throw new Error(`no ${what}`);
  return mean(picked);
}

describe("the first H100 (results/2026-12-07l): each warp's next reader in its own partition or the other", () => {
  const runs = [...records('2026-12-07l/rotPart.jsonl'), ...records('2026-12-07l/rotPartMore.jsonl')];
  /** Same partition against the other, at `mib` and 512 B more (two rounds each). */
  function gain(mib: number): number {
    const at = (nextReader: string) =>
      rate(
        runs,
        `${mib} MiB ${nextReader}`,
        (r) => r.probe === 'rotpart' && Math.round(r.footprintBytes / MiB) === mib && r.nextReader === nextReader,
      );
    return at('same partition') / at('other partition') - 1;
  }

  it("gains from the own partition's copy from just below the L2's 50 MiB to about 1.6 times it", () => {
    // In the L2, and twice its size and more: alike.
    for (const mib of [24, 32, 96, 128]) expect(Math.abs(gain(mib)), `${mib} MiB`).toBeLessThan(0.03);
    // Around its size a third faster; at 40 and 80 MiB a tenth.
    for (const mib of [48, 56, 64]) expect(gain(mib), `${mib} MiB`).toBeGreaterThan(0.25);
    for (const mib of [40, 80]) expect(gain(mib), `${mib} MiB`).toBeGreaterThan(0.05);
    for (const mib of [40, 80]) expect(gain(mib), `${mib} MiB`).toBeLessThan(0.15);
  });

  it('has every warp of a placed launch in the grid, with both partitions of 66 SMs', () => {
    for (const record of runs.filter((r) => r.probe === 'rotpart')) {
      expect(record).toMatchObject({ residentBlocksPerSm: 8, partitionSms: [66, 66] });
    }
  });
});

describe('the second H100 (results/2026-12-07m): a share of the next readers in the own partition', () => {
  const runs = records('2026-12-07m/rotRuns.jsonl');
  const FOOTPRINTS = [48, 56, 64, 80];
  /** The placed stream at `mib` with `share` of the next readers in the own partition, in runs of `run` warps. */
  const placed = (mib: number, share: number, run = 4) =>
    rate(
      runs,
      `${mib} MiB at ${share}, runs of ${run}`,
      (r) =>
        r.probe === 'rotpart' &&
        Math.round(r.footprintBytes / MiB) === mib &&
        r.samePartitionShare === share &&
        r.warpsARun === run,
    );

  it('keeps little of the gain unless nearly every next reader shares the partition', () => {
    for (const mib of FOOTPRINTS) {
      const [all, most, half, none] = [1, 0.75, 0.5, 0].map((share) => placed(mib, share));
      expect(all, `${mib} MiB`).toBeGreaterThan(most!);
      expect(most, `${mib} MiB`).toBeGreaterThan(half!);
      expect(half, `${mib} MiB`).toBeGreaterThan(none!);
      // Half the next readers get a quarter to two fifths of the gain (linear would be half), in
      // runs of 4 warps or of 2 alike.
      for (const halfRate of [half!, placed(mib, 0.5, 2)]) {
        const kept = (halfRate - none!) / (all! - none!);
        expect(kept, `${mib} MiB`).toBeGreaterThan(0.15);
        expect(kept, `${mib} MiB`).toBeLessThan(0.45);
      }
    }
  });

  it("reads the plain stream as the share of next readers its own launch's order gave it", () => {
    // rotatingSteps.py reads each rotsteps launch's share from its warps' SMs and the card's map.
    const text = execFileSync(
      'python3',
      [join(import.meta.dirname, '../../gpu/probes/rotatingSteps.py'), join(RESULTS, '2026-12-07m/rotSteps.jsonl')],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    // One launch a paragraph: its first line, then lines indented by two.
    const launches = text.split(/\n(?=\d)/).map((paragraph) => {
      const head = /^(\d+) MiB over .*: ([\d,]+) GB\/s/.exec(paragraph);
      const share = /next reader in the same L2 partition: ([\d.]+) %/.exec(paragraph);
      if (!head || !share) throw new Error(`no rate or share in:\n${paragraph}`);
      return [head[1]!, head[2]!, share[1]!] as const;
    });
    expect(launches).toHaveLength(8);
    const shares = [0, 0.5, 0.75, 1];
    for (const [mib, GBps, percent] of launches) {
      const share = Number(percent) / 100;
      // Between the placed launches' shares on either side, linearly.
      const upper = shares.findIndex((s) => s >= share);
      const [low, high] = [shares[upper - 1]!, shares[upper]!];
      const [lowRate, highRate] = [placed(Number(mib), low), placed(Number(mib), high)];
      const expected = lowRate + ((share - low) / (high - low)) * (highRate - lowRate);
      expect(Math.abs(Number(GBps.replace(/,/g, '')) / expected - 1), `${mib} MiB at ${percent} %`).toBeLessThan(0.04);
    }
  });
});
