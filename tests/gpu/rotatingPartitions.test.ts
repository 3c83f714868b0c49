/**
 * The thirty-ninth batch (two H100s; gpu/probes/README.md): the rotating stream with its warps
 * placed by L2 partition (`l2Partitions rotpart`), so that a line's next reader runs in the same
 * partition as its previous one for a chosen share of the warps. On silicon the copy a partition
 * keeps of a line serves its next reader there from just below the L2's size to about 1.6 times
 * it, only where nearly every next reader shares the partition, and the plain stream reads as the
 * share that the block scheduler's order gives it. The fortieth batch (the first card again)
 * counts where those reads come from, and walks one thread over the H100's L2 for its partition
 * size; on a third card, with a share of the next readers in the own partition. The forty-first
 * batch has each partition's warps read only the lines homed in it (`l2Partitions rothome`): no
 * copies, and what a partition keeps is its own lines. The forty-second batch (no device) reads
 * the far walk's counts again: some reads a partition counts as near hits still cross the fabric.
 * The forty-third batch (one H100) finds those reads to be Nsight Compute's: a set of counts reads
 * DRAM in a replay that starts cold. It counts DRAM alone, and walks one partition's copies alone.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectOneLineError } from './probeScript.ts';

const RESULTS = join(import.meta.dirname, '../../gpu/probes/results');
const SECTOR_SHARES = join(import.meta.dirname, '../../gpu/probes/sectorShares.py');
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

/** Where each profiled launch's reads came from, per sector its SMs read (sectorShares.py). */
interface Shares {
  readonly launch: string;
  readonly GBps: number;
  readonly near: number;
  readonly far: number;
  readonly dram: number;
  /** Sectors the fabric brought to a home partition for reading, looked up there neither as a hit nor as a miss (NaN without the counts). */
  readonly unlooked: number;
}

/** The row of `launch` in `rows`, failing where there is none. */
function launchOf(rows: readonly Shares[], launch: string): Shares {
  const found = rows.find((r) => r.launch === launch);
  if (!found) throw new Error(`no launch ${launch}`);
  return found;
}

/** The footprints, MiB, that each of rothome's profiled walks ran at (h200Batch.sh's homeWalksNcu). */
const HOME_WALK_FOOTPRINTS = [24, 40, 48, 56, 64, 80, 96, 128];

function sectorShares(...files: string[]): Shares[] {
  return execFileSync('python3', [SECTOR_SHARES, ...files.map((file) => join(RESULTS, file))], {
    encoding: 'utf8',
    timeout: 60_000,
  })
    .split('\n')
    .slice(1)
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const fields = line.trim().split(/\s+/);
      const [GBps, near, far, dram] = fields.slice(-6, -2);
      return {
        launch: fields.slice(0, -7).join(' '),
        GBps: Number(GBps!.replace(/,/g, '')),
        near: Number(near),
        far: Number(far),
        dram: Number(dram),
        unlooked: Number(fields.at(-1)),
      };
    });
}

describe("the first H100 again (results/2026-12-07n): where a placed launch's reads come from", () => {
  const rows = sectorShares('2026-12-07n/rotPartNcu.txt', '2026-12-07n/rotPartNcuMore.txt');
  /** The profiled launches at `mib` (whole MiB: every next reader in the own partition; 512 B more: the other). */
  const placed = (mib: number, nextReader: 'same' | 'other') =>
    rows.filter((row) => {
      const footprint = /^rotpart ([\d.]+)/.exec(row.launch)?.[1];
      return footprint === (nextReader === 'same' ? `${mib}` : `${mib}.00048828125`);
    });
  const FOOTPRINTS = [40, 48, 56, 64, 80, 96, 128];

  it('reads every sector once: near hits, far hits and DRAM add up to the sectors read, within 5 %', () => {
    expect(rows.length).toBe(29);
    // DRAM reads up to 5 % more than the sectors that missed.
    for (const row of rows) expect(Math.abs(row.near + row.far + row.dram - 1), row.launch).toBeLessThan(0.05);
  });

  it('finds nothing in the home partition of a line that only the other partition reads', () => {
    for (const mib of FOOTPRINTS) {
      for (const row of placed(mib, 'same')) expect(row.far, row.launch).toBeLessThan(0.01);
      // Read from both partitions, a line is found across the fabric for 8–16 % of the reads up to 96 MiB.
      for (const row of placed(mib, 'other'))
        if (mib <= 96) {
          expect(row.far, row.launch).toBeGreaterThan(0.08);
          expect(row.far, row.launch).toBeLessThan(0.16);
        }
    }
  });

  it('keeps less on chip the larger the footprint, and more with every next reader in the own partition up to 80 MiB', () => {
    const onChip = (mib: number, nextReader: 'same' | 'other') => {
      const launches = placed(mib, nextReader);
      expect(launches.length, `${mib} MiB ${nextReader}`).toBeGreaterThan(0);
      return mean(launches.map((row) => row.near + row.far));
    };
    for (const nextReader of ['same', 'other'] as const)
      for (let i = 1; i < FOOTPRINTS.length; i++)
        expect(onChip(FOOTPRINTS[i]!, nextReader), `${FOOTPRINTS[i]} MiB ${nextReader}`).toBeLessThan(
          onChip(FOOTPRINTS[i - 1]!, nextReader) + 0.03,
        );
    for (const mib of [40, 48, 56, 64, 80])
      expect(onChip(mib, 'same'), `${mib} MiB`).toBeGreaterThan(onChip(mib, 'other'));
  });

  it("profiles launches that read as the timed batch's on the same card", () => {
    const timed = [...records('2026-12-07l/rotPart.jsonl'), ...records('2026-12-07l/rotPartMore.jsonl')];
    for (const mib of [40, 48, 56, 64, 80, 96, 128])
      for (const nextReader of ['same', 'other'] as const) {
        const batch = rate(
          timed,
          `${mib} MiB ${nextReader}`,
          (r) =>
            r.probe === 'rotpart' &&
            Math.round(r.footprintBytes / MiB) === mib &&
            r.nextReader === `${nextReader} partition`,
        );
        for (const row of placed(mib, nextReader))
          expect(Math.abs(row.GBps / batch - 1), row.launch).toBeLessThan(0.06);
      }
  });
});

describe("a third H100 with the same map (results/2026-12-07o): a share's reads, in runs of 4 warps", () => {
  const rows = sectorShares('2026-12-07o/rotRunsNcu.txt');
  /** The profiled launch at `mib` with `chunks` of 512 B more (0, 1, 2, 4: 100, 75, 50 and 0 % of the next readers in the own partition). */
  const at = (mib: number, chunks: number) => {
    const more = ({ 0: '', 1: '.00048828125', 2: '.0009765625', 4: '.001953125' } as Record<number, string>)[chunks];
    const row = rows.find((r) => r.launch === `rotpart ${mib}${more} runs of 4`);
    if (!row) throw new Error(`no ${mib} MiB launch with ${chunks} chunks more`);
    return row;
  };

  it('misses the gain because the lines are gone: half the next readers get a fifth to a third of the DRAM saved', () => {
    expect(rows).toHaveLength(16);
    for (const mib of [48, 56, 64, 80]) {
      const [all, most, half, none] = [0, 1, 2, 4].map((chunks) => at(mib, chunks));
      expect(all!.dram, `${mib} MiB`).toBeLessThan(most!.dram);
      expect(most!.dram, `${mib} MiB`).toBeLessThan(half!.dram);
      expect(half!.dram, `${mib} MiB`).toBeLessThan(none!.dram);
      // The share of the DRAM reads that every next reader in the own partition saves, at half.
      const saved = (none!.dram - half!.dram) / (none!.dram - all!.dram);
      expect(saved, `${mib} MiB`).toBeGreaterThan(0.15);
      expect(saved, `${mib} MiB`).toBeLessThan(0.4);
      // And the rate's part, as in the second card's timed runs.
      const gained = (half!.GBps - none!.GBps) / (all!.GBps - none!.GBps);
      expect(gained, `${mib} MiB`).toBeGreaterThan(0.2);
      expect(gained, `${mib} MiB`).toBeLessThan(0.45);
    }
  });
});

interface Walk {
  readonly footprintBytes: number;
  readonly lines: number;
  readonly threshold: number;
  readonly seed: number;
  readonly binCycles: number;
  readonly passes: readonly { readonly above: number; readonly histogram: readonly number[] }[];
}

/** l2Replacement's walks at 400 cycles with the first permutation, by footprint MiB. */
function walks(file: string): Map<number, Walk> {
  return new Map(
    readFileSync(join(RESULTS, file), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Walk)
      .filter((walk) => walk.threshold === 400 && walk.seed === 1)
      .map((walk) => [walk.footprintBytes / MiB, walk]),
  );
}

/** The share of a walk's loads (its three timed passes) above its threshold. */
const aboveShare = (walk: Walk) =>
  walk.passes.reduce((sum, pass) => sum + pass.above, 0) / (walk.lines * walk.passes.length);

/**
 * Of a walk's loads that missed the near partition, the share that a far hit served (384–543
 * cycles: a copy lost, its home partition keeping the line) rather than DRAM (544 and more: a line
 * homed near, lost).
 */
function farHitShareOfMisses(walk: Walk): number {
  let farHits = 0;
  let misses = 0;
  for (const pass of walk.passes)
    pass.histogram.forEach((count, bin) => {
      const cycles = bin * walk.binCycles;
      if (cycles >= 384) misses += count;
      if (cycles >= 384 && cycles < 544) farHits += count;
    });
  return farHits / misses;
}

describe("an H100's single walk (results/2026-12-07n/replacement.jsonl)", () => {
  const h100 = walks('2026-12-07n/replacement.jsonl');
  const above = (mib: number) => aboveShare(h100.get(mib)!);

  it("leaves the near partition between 23 and 30 MiB, the H200's 28–36 MiB at 25 / 30 of its size", () => {
    for (const mib of [8, 12, 16, 20, 22]) expect(above(mib), `${mib} MiB`).toBeLessThan(0.01);
    for (const mib of [24, 25, 26, 28]) {
      expect(above(mib), `${mib} MiB`).toBeGreaterThan(0.03);
      expect(above(mib), `${mib} MiB`).toBeLessThan(0.9);
    }
    for (const mib of [30, 32]) expect(above(mib), `${mib} MiB`).toBe(1);
  });

  it('loses copies and home lines alike on the way: the same split of its misses as when nothing is kept', () => {
    // On this card and on the H200 (results/2026-12-02d): wherever a tenth or more of the loads
    // miss the near partition, the far hits' share of the misses is within 2 points of that at
    // full thrash, where every copy and every home line is lost.
    for (const [card, byFootprint] of [
      ['H100', h100],
      ['H200', walks('2026-12-02d/replacement.jsonl')],
    ] as const) {
      const all = [...byFootprint.values()];
      const thrashed = all.filter((walk) => aboveShare(walk) === 1);
      expect(thrashed.length, card).toBeGreaterThan(0);
      const full = mean(thrashed.map(farHitShareOfMisses));
      expect(full, card).toBeGreaterThan(0.5);
      expect(full, card).toBeLessThan(0.6);
      const partial = all.filter((walk) => aboveShare(walk) >= 0.1 && aboveShare(walk) < 1);
      expect(partial.length, card).toBeGreaterThan(2);
      for (const walk of partial)
        expect(Math.abs(farHitShareOfMisses(walk) - full), `${card} ${walk.footprintBytes / MiB} MiB`).toBeLessThan(
          0.02,
        );
    }
  });
});

describe('an H100 of the forty-first batch (results/2026-12-07p): each partition reading only the lines homed in it', () => {
  interface HomeRecord extends RotatingRecord {
    readonly walk: 'home' | 'mixed';
    readonly partitionBlocks: readonly [number, number];
    readonly unknownBlocksOfMap: number;
    readonly homes?: string;
  }
  const homeRecords = records('2026-12-07p/rotHome.jsonl') as HomeRecord[];
  const rows = sectorShares('2026-12-07p/rotHomeNcu.txt');
  const row = (launch: string) => launchOf(rows, launch);
  const home = (mib: number) => row(`rothome ${mib} MiB home`);
  const mixed = (mib: number) => row(`rothome ${mib} MiB mixed`);
  const plain = (mib: number) => row(`stream ${mib} MiB rotating 2048`);

  it("maps each 4 KiB block's home as homemap did: a 2 MiB page's parity of bits 12, 13, 16, 17 and 19, flipped by the page", () => {
    const mapped = homeRecords.filter((r) => r.walk === 'home');
    expect(mapped).toHaveLength(10);
    for (const record of mapped) {
      const blocks = record.footprintBytes / 4096;
      const homedNear = (block: number) => (parseInt(record.homes![block >> 2]!, 16) >> (block & 3)) & 1;
      expect(record.unknownBlocksOfMap).toBe(0);
      expect(record.partitionBlocks).toEqual([blocks / 2, blocks / 2]);
      for (let page = 0; page < blocks / 512; page++) {
        let agree = 0;
        for (let block = page * 512; block < (page + 1) * 512; block++) {
          const parity = [12, 13, 16, 17, 19].reduce((bit, b) => bit ^ (((block * 4096) >> b) & 1), 0);
          agree += Number(homedNear(block) === parity);
        }
        expect([0, 512], `${record.footprintBytes / MiB} MiB page ${page}`).toContain(agree);
      }
    }
  });

  it('reads nothing across the fabric, and keeps every line while its half fits the partition', () => {
    expect(rows).toHaveLength(3 * HOME_WALK_FOOTPRINTS.length);
    for (const r of rows) expect(Math.abs(r.near + r.far + r.dram - 1), r.launch).toBeLessThan(0.05);
    for (const mib of HOME_WALK_FOOTPRINTS) expect(home(mib).far, `${mib} MiB`).toBeLessThan(0.001);
    // 24 MiB of own lines a partition at 48 MiB: all kept, where the single walk (lines and copies
    // from one SM) leaves the near partition from 23 MiB.
    for (const mib of [24, 40, 48]) expect(home(mib).near, `${mib} MiB`).toBeGreaterThan(0.99);
  });

  it('keeps a part of its own lines past its size that falls with the footprint, more than with copies about', () => {
    // Near hits at 56, 64, 80, 96 and 128 MiB: 0.83, 0.72, 0.62, 0.46, 0.30.
    const past = [56, 64, 80, 96, 128];
    for (let i = 1; i < past.length; i++)
      expect(home(past[i]!).near, `${past[i]} MiB`).toBeLessThan(home(past[i - 1]!).near - 0.08);
    expect(home(56).near).toBeGreaterThan(0.8);
    expect(home(128).near).toBeGreaterThan(0.25);
    for (const mib of past) {
      const onChip = (r: Shares) => r.near + r.far;
      expect(onChip(home(mib)), `${mib} MiB`).toBeGreaterThan(onChip(mixed(mib)) + 0.03);
      expect(onChip(home(mib)), `${mib} MiB`).toBeGreaterThan(onChip(plain(mib)) + 0.1);
    }
  });

  it('costs a step its list load: from the L2, the mixed walk reads 4–8 % slower than the plain stream', () => {
    // Both read every line in the same order; the list is the difference.
    const slower = 1 - mixed(24).GBps / plain(24).GBps;
    expect(slower).toBeGreaterThan(0.04);
    expect(slower).toBeLessThan(0.08);
  });
});

describe('the far walk (results/2026-12-07q): each partition reading only the lines homed in the other', () => {
  const rows = sectorShares('2026-12-07q/rotFarNcu.txt');
  const first = sectorShares('2026-12-07p/rotHomeNcu.txt');
  const far = (mib: number) => launchOf(rows, `rothome ${mib} MiB far`);

  it('reads the walk without copies as the first card did, within 2 points at every footprint', () => {
    expect(rows).toHaveLength(2 * HOME_WALK_FOOTPRINTS.length);
    for (const mib of HOME_WALK_FOOTPRINTS) {
      const launch = `rothome ${mib} MiB home`;
      expect(Math.abs(launchOf(rows, launch).near - launchOf(first, launch).near), launch).toBeLessThan(0.02);
    }
  });

  it('keeps every copy up to 20 MiB of them a partition, and loses a part of them from 24 MiB', () => {
    for (const mib of HOME_WALK_FOOTPRINTS) expect(far(mib).far, `${mib} MiB`).toBeLessThan(0.01);
    for (const mib of [24, 40]) expect(far(mib).near, `${mib} MiB`).toBeGreaterThan(0.97);
    expect(far(48).near).toBeLessThan(0.6);
    for (let i = 3; i < HOME_WALK_FOOTPRINTS.length; i++)
      expect(far(HOME_WALK_FOOTPRINTS[i]!).near, `${HOME_WALK_FOOTPRINTS[i]} MiB`).toBeLessThan(
        far(HOME_WALK_FOOTPRINTS[i - 1]!).near,
      );
    // Each launch's reads add up within 5 % but two, whose DRAM reads exceed what missed by 8–9
    // points: the 40 MiB far walk (1.092: its unlooked reads, below) and the 128 MiB walk without
    // copies (1.076).
    const over = ['rothome 40 MiB far', 'rothome 128 MiB home'];
    for (const row of rows) {
      const sum = row.near + row.far + row.dram;
      expect(Math.abs(sum - 1), row.launch).toBeLessThan(over.includes(row.launch) ? 0.1 : 0.05);
    }
  });

  it("counts from DRAM what its home partitions missed and what reached them unlooked: at 40 MiB 11 % of the set's reads though 98 % hit near", () => {
    for (const mib of HOME_WALK_FOOTPRINTS) {
      const r = far(mib);
      // A near miss crosses and is looked up at home (a far hit, or a DRAM read); the reads the home
      // partition did not look up are read from DRAM as well.
      expect(Math.abs(r.dram - (1 - r.near - r.far + r.unlooked)), `${mib} MiB`).toBeLessThan(0.02);
      expect(launchOf(rows, `rothome ${mib} MiB home`).unlooked, `${mib} MiB home`).toBeLessThan(0.001);
    }
    expect(far(40).near).toBeGreaterThan(0.97);
    // The set's DRAM replay starts cold (results/2026-12-07r, below): these are its extra reads.
    expect(far(40).unlooked).toBeGreaterThan(0.07);
    expect(1 - far(40).dram).toBeLessThan(0.9);
  });

  it('is bound by the fabric past the L2: 2.0–2.2 TB/s of missed reads cross it at 48–128 MiB', () => {
    for (const mib of [48, 56, 64, 80, 96, 128]) {
      const crossing = (far(mib).GBps * (1 - far(mib).near)) / 1000;
      expect(crossing, `${mib} MiB`).toBeGreaterThan(1.95);
      expect(crossing, `${mib} MiB`).toBeLessThan(2.25);
    }
  });
});

/** One launch of an ncu text: its name, record, metrics (bytes in bytes) and the replays it took (1 where ncu printed none). */
interface ProfiledLaunch {
  readonly name: string;
  readonly footprintBytes: number;
  /** What the launch read, and in how many passes over its footprint. */
  readonly bytes: number;
  readonly passes: number;
  readonly replays: number;
  readonly metric: Readonly<Record<string, number>>;
}

const UNIT_BYTES: Readonly<Record<string, number>> = { byte: 1, Kbyte: 1e3, Mbyte: 1e6, Gbyte: 1e9 };

function profiledLaunches(file: string): ProfiledLaunch[] {
  return readFileSync(join(RESULTS, file), 'utf8')
    .split(/^== /m)
    .slice(1)
    .map((block) => {
      const lines = block.split('\n');
      const record = JSON.parse(lines.find((line) => line.startsWith('{'))!) as {
        footprintBytes: number;
        bytes: number;
        passes: number;
      };
      const metric: Record<string, number> = {};
      for (const [, key, unit, value] of block.matchAll(/^\s+(\w+__\S+)\s+(\S+)\s+([\d,.]+)$/gm))
        metric[key!] = Number(value!.replace(/,/g, '')) * (UNIT_BYTES[unit!] ?? 1);
      return {
        name: lines[0]!.trim(),
        footprintBytes: record.footprintBytes,
        bytes: record.bytes,
        passes: record.passes,
        replays: Number(/- (\d+) passes/.exec(block)?.[1] ?? 1),
        metric,
      };
    });
}

/** Of a launch's reads, the share kept on chip by its DRAM count (undefined where it has none: a launch never made). */
function dramOnChip(launch: ProfiledLaunch): number | undefined {
  const dram = launch.metric['dram__bytes_read.sum'];
  return dram === undefined ? undefined : 1 - dram / launch.bytes;
}

describe("Nsight Compute's replays (results/2026-12-07r): a set of counts reads DRAM in a replay that starts cold", () => {
  const launches = profiledLaunches('2026-12-07r/replayPasses.txt');
  /** The launch of `walk` at `mib` counted for `set`: DRAM alone, the lookups alone, or the whole set. */
  const counted = (mib: number, walk: string, set: 'dram' | 'lookups' | 'all') => {
    const found = launches.filter((l) => l.name.startsWith(`rothome ${mib} MiB ${walk}:`));
    expect(found).toHaveLength(3);
    return found[['dram', 'lookups', 'all'].indexOf(set)]!;
  };

  it('reads nothing from DRAM at 24 MiB counted alone, and one footprint in the set, whose lookups all hit', () => {
    for (const walk of ['home', 'far']) {
      expect(counted(24, walk, 'dram').replays).toBe(1);
      expect(counted(24, walk, 'lookups').replays).toBe(3);
      const all = counted(24, walk, 'all');
      expect(all.replays).toBe(7);
      expect(counted(24, walk, 'dram').metric['dram__bytes_read.sum'], walk).toBeLessThan(1e4);
      expect(Math.abs(all.metric['dram__bytes_read.sum']! / all.footprintBytes - 1), walk).toBeLessThan(0.02);
      expect(all.metric['lts__t_sectors_lookup_miss.sum']! * 32, walk).toBeLessThan(all.footprintBytes / 1000);
    }
  });

  it("leaves the lookups' counts alone: the share that misses moves under half a point between replays", () => {
    for (const mib of [24, 40, 48])
      for (const walk of ['home', 'far']) {
        const missShare = (l: ProfiledLaunch) =>
          l.metric['lts__t_sectors_lookup_miss.sum']! /
          (l.metric['lts__t_sectors_lookup_hit.sum']! + l.metric['lts__t_sectors_lookup_miss.sum']!);
        const [alone, all] = [counted(mib, walk, 'lookups'), counted(mib, walk, 'all')];
        expect(Math.abs(missShare(alone) - missShare(all)), `${mib} MiB ${walk}`).toBeLessThan(0.005);
      }
  });

  it("reads from DRAM alone, in the far walk at 40 MiB, only the home's misses: 3 % of the reads, not the set's 11 %", () => {
    const dramShare = (l: ProfiledLaunch) => l.metric['dram__bytes_read.sum']! / l.bytes;
    expect(dramShare(counted(40, 'far', 'dram'))).toBeLessThan(0.04);
    expect(dramShare(counted(40, 'far', 'all'))).toBeGreaterThan(0.1);
  });
});

describe('the same card, DRAM alone (results/2026-12-07s) and the oneway walk (2026-12-07r)', () => {
  const alone = new Map(profiledLaunches('2026-12-07s/dramAlone.txt').map((l) => [l.name, l]));
  /** Of the reads, the share kept on chip by DRAM counted alone, per byte the launch read. */
  const onChip = (name: string) => {
    const launch = alone.get(name);
    if (!launch) throw new Error(`no launch ${name}`);
    expect(launch.replays, name).toBe(1);
    return dramOnChip(launch)!;
  };
  const oneway = sectorShares('2026-12-07r/rotOnewayNcu.txt');
  const home = sectorShares('2026-12-07q/rotFarNcu.txt');

  it('agrees with sectorShares.py, which prints a launch counted alone per byte of its record', () => {
    const rows = sectorShares('2026-12-07s/dramAlone.txt');
    expect(rows).toHaveLength(alone.size);
    for (const row of rows) {
      expect(Math.abs(1 - row.dram - onChip(row.launch)), row.launch).toBeLessThan(0.0005);
      expect(row.near, row.launch).toBeNaN();
    }
  });

  it('keeps copies alone as own lines alone: near hits within 2.5 points of the walk without copies at 48–96 MiB', () => {
    for (const mib of [48, 56, 64, 80, 96]) {
      const copies = launchOf(oneway, `rothome ${mib} MiB oneway`).near;
      const own = launchOf(home, `rothome ${mib} MiB home`).near;
      expect(Math.abs(copies - own), `${mib} MiB`).toBeLessThan(0.025);
    }
    // The other partition, holding only the lines it fetched for them, serves a part of their misses.
    for (const mib of [56, 64])
      expect(launchOf(oneway, `rothome ${mib} MiB oneway`).far, `${mib} MiB`).toBeGreaterThan(0.1);
  });

  it("keeps every copy at 20 MiB of them a partition beside the other's lines, and loses a third at 24 MiB", () => {
    for (const walk of ['home', 'far', 'oneway']) expect(onChip(`rothome 24 MiB ${walk}`), walk).toBeGreaterThan(0.999);
    expect(onChip('rothome 40 MiB far')).toBeGreaterThan(0.96);
    expect(onChip('rothome 48 MiB far')).toBeLessThan(0.7);
    expect(onChip('rothome 48 MiB oneway')).toBeGreaterThan(0.99);
    expect(onChip('rothome 48 MiB home')).toBeGreaterThan(0.99);
    // Past the edge the far walk keeps less than either kind of line alone, at every footprint to 80 MiB.
    for (const mib of [56, 64, 80]) {
      const far = onChip(`rothome ${mib} MiB far`);
      expect(far, `${mib} MiB`).toBeLessThan(onChip(`rothome ${mib} MiB home`) - 0.2);
      expect(far, `${mib} MiB`).toBeLessThan(onChip(`rothome ${mib} MiB oneway`) - 0.3);
    }
  });

  it("counts in the set about one pass's cold reads more than alone up to 48 MiB, and four passes' in the far walk at 40 MiB", () => {
    const sets = profiledLaunches('2026-12-07r/rotOnewayNcu.txt');
    expect(sets).toHaveLength(2 * HOME_WALK_FOOTPRINTS.length);
    for (const set of sets.filter((s) => s.footprintBytes <= 48 * MiB)) {
      const name = set.name;
      // In passes of the walk's own reads (the oneway walk reads half the footprint a pass).
      const extra =
        (set.metric['dram__bytes_read.sum']! - alone.get(name)!.metric['dram__bytes_read.sum']!) /
        (set.bytes / set.passes);
      if (name === 'rothome 40 MiB far') expect(extra, name).toBeGreaterThan(3);
      else {
        expect(extra, name).toBeGreaterThan(0.75);
        expect(extra, name).toBeLessThan(1.05);
      }
    }
  });
});

describe("another H100 (results/2026-12-08): DRAM alone in a run's first, third and sixth launch", () => {
  const launches = profiledLaunches('2026-12-08/dramHistory.txt');
  const forty3 = new Map(profiledLaunches('2026-12-07s/dramAlone.txt').map((l) => [l.name, l]));
  /** The share on chip of launch `n` of `run` (a block's name up to its comma), or undefined where it was not profiled. */
  const onChip = (run: string, n: number) => {
    const launch = launches.find((l) => l.name === `${run}, launch ${n}`);
    expect(launch, `${run}, launch ${n}`).toBeDefined();
    return dramOnChip(launch!);
  };
  const WALKS = [
    'rothome 40 MiB far',
    'rothome 56 MiB far',
    'rothome 80 MiB far',
    'rothome 80 MiB home',
    'rothome 80 MiB oneway',
  ];

  it("reads the third launch as the forty-third batch's card did, within 2.5 points", () => {
    for (const run of [...WALKS, 'stream 80 MiB rotating 2048']) {
      const other = forty3.get(run)!;
      expect(other, run).toBeDefined();
      expect(Math.abs(onChip(run, 3)! - dramOnChip(other)!), run).toBeLessThan(0.025);
    }
  });

  it('keeps past the L2 about what its first launch kept: at most 4 points more by the third at 56–80 MiB, the plain stream no more by the sixth', () => {
    for (const run of WALKS.slice(1)) {
      const gain = onChip(run, 3)! - onChip(run, 1)!;
      expect(gain, run).toBeGreaterThan(0);
      expect(gain, run).toBeLessThan(0.04);
    }
    // At 40 MiB the far walk's first launch is still coming back from a cold start (the forty-third batch).
    expect(onChip('rothome 40 MiB far', 3)! - onChip('rothome 40 MiB far', 1)!).toBeGreaterThan(0.05);
    const plain = [1, 3, 6].map((n) => onChip('stream 80 MiB rotating 2048', n)!);
    expect(Math.max(...plain) - Math.min(...plain)).toBeLessThan(0.015);
    // rothome makes four launches: its sixth was asked for and not profiled.
    for (const run of WALKS) expect(onChip(run, 6), run).toBeUndefined();
  });

  it('prints through sectorShares.py, the launches never made as not profiled', () => {
    const text = execFileSync('python3', [SECTOR_SHARES, join(RESULTS, '2026-12-08/dramHistory.txt')], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    const notProfiled = text
      .split('\n')
      .filter((line) => line.endsWith('not profiled: the program made no such launch'));
    expect(notProfiled.map((line) => line.split(',')[0])).toEqual(WALKS);
    expect(text).toMatch(/^stream 80 MiB rotating 2048, launch 6 .* 0\.698 /m);
  });
});

describe('sectorShares.py on bad input', () => {
  const work = mkdtempSync(join(tmpdir(), 'gen-sector-shares-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('answers in one line naming the file', () => {
    const write = (name: string, text: string) => {
      writeFileSync(join(work, name), text);
      return join(work, name);
    };
    expectOneLineError(
      SECTOR_SHARES,
      [write('none.txt', 'metrics: x\n')],
      /none\.txt: no launch \(a line starting '== '\)$/,
    );
    expectOneLineError(
      SECTOR_SHARES,
      [write('partial.txt', '== rotpart 40\n    dram__bytes_read.sum   Gbyte   1.0\n')],
      /partial\.txt: 'rotpart 40' has no lts__t_sectors_srcunit_tex_op_read\.sum, lts__t_sectors_srcunit_tex_op_read_lookup_hit\.sum$/,
    );
    expectOneLineError(
      SECTOR_SHARES,
      [write('record.txt', '== rotpart 40\n{"probe":\n')],
      /record\.txt: 'rotpart 40': its record is not JSON/,
    );
    expectOneLineError(SECTOR_SHARES, [join(work, 'absent.txt')], /absent\.txt: No such file or directory$/);
    expectOneLineError(SECTOR_SHARES, [], /^usage: python3 gpu\/probes\/sectorShares\.py/);
  });
});
