/**
 * gpu/probes/rotatingSteps.py reads an H100's rotating stream with each warp's steps by cycles
 * (thirty-eighth batch, results/2026-12-07j): past the L2's size every warp gets some short steps,
 * about a third of its own at 80 MiB over 25.6 passes, more the further it runs ahead of its lines'
 * previous reader (gpu/probes/README.md, "Thirty-eighth batch"). With the card's partition map beside
 * the records it reads how many warps' next reader shares their L2 partition (thirty-ninth batch).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { expectOneLineError } from './probeScript.ts';

const PROBES = join(import.meta.dirname, '../../gpu/probes');
const SCRIPT = join(PROBES, 'rotatingSteps.py');
const work = mkdtempSync(join(tmpdir(), 'gen-rotating-steps-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const read = (jsonl: string) => execFileSync('python3', [SCRIPT, jsonl], { encoding: 'utf8', timeout: 60_000 });
const batch = read(join(PROBES, 'results/2026-12-07j/rotSteps.jsonl'));

/** The reader's lines for the run of `mib` over `totalMiB`. */
function run(mib: number, totalMiB: number): string {
  const match = new RegExp(`^${mib} MiB over ${totalMiB} MiB .*(?:\\n  .*)*`, 'm').exec(batch);
  if (!match) throw new Error(`no ${mib} MiB over ${totalMiB} MiB in:\n${batch}`);
  return match[0];
}

/** The warps by tenths of their short steps, and r, of one run's text. */
function shares(text: string): { mean: number; tenths: number[]; r: number } {
  const match = /steps under \d+ cycles: ([\d.]+) % .* tenths of theirs: ([\d ]+); r .* ([+-][\d.]+)$/m.exec(text);
  if (!match) throw new Error(`no shares in:\n${text}`);
  return { mean: Number(match[1]), tenths: match[2]!.trim().split(' ').map(Number), r: Number(match[3]) };
}

it('reads every run with the whole grid resident and the timed loop as fast as the untimed one', () => {
  const runs = batch.match(/^\d+ MiB over .*$/gm) ?? [];
  expect(runs).toHaveLength(6);
  for (const line of runs) {
    expect(line).toMatch(/8 blocks resident per SM/);
    const [timed, untimed] = [...line.matchAll(/([\d,]+) GB\/s|untimed loop ([\d,]+)/g)].map((m) =>
      Number((m[1] ?? m[2])!.replace(/,/g, '')),
    );
    expect(Math.abs(timed! / untimed! - 1)).toBeLessThan(0.03);
  }
  expect(run(24, 2046)).toMatch(/steps: 3072 \/ 3584 \/ 4864 cycles/);
  expect(run(24, 2046)).toMatch(/the latest start 1\.2 µs/);
  // The block scheduler deals the grid in turn: each round of 132 blocks reaches nearly every SM.
  for (const [mib, total] of [
    [24, 2046],
    [80, 2046],
    [1024, 2046],
  ] as const)
    expect(run(mib, total)).toMatch(
      /blocks: 1056 of 8 warps, 0 split over SMs; each round of 132 blocks on 124–132 SMs \(17 if dealt SM by SM\)/,
    );
});

it('reads the hits past the L2 spread over every warp at 80 MiB, growing with the launch, none from DRAM alone', () => {
  const long = shares(run(80, 2046));
  expect(long.mean).toBe(33.1);
  // Every warp has 10–50 % of its steps short: none runs on hits, none goes without.
  expect(long.tenths).toEqual([0, 1, 2568, 5042, 805, 32, 0, 0, 0, 0]);
  expect(long.r).toBeGreaterThan(0.5);
  expect(shares(run(80, 512)).mean).toBe(11.1);
  expect(shares(run(1024, 2046)).mean).toBe(4.6);
  expect(run(80, 2046)).toMatch(/warps end at 0\.760 \/ 1\.048 of the median/);
  // That card's partition map was not taken: no share of next readers.
  expect(batch).not.toMatch(/same L2 partition/);
});

it("reads with the card's partition map the share of next readers in each warp's own partition", () => {
  // The thirty-ninth batch's second H100 (results/2026-12-07m): two launches each at 48–80 MiB.
  const text = read(join(PROBES, 'results/2026-12-07m/rotSteps.jsonl'));
  const shares = [...text.matchAll(/same L2 partition: ([\d.]+) % of the warps/g)].map((m) => Number(m[1]));
  expect(shares).toEqual([67.4, 33.7, 67.0, 58.3, 68.9, 33.0, 64.4, 58.7]);
});

it('reads a synthetic batch: percentiles, shares by tenths and their r against the lead', () => {
  const dir = join(work, 'synthetic');
  // Two warps, next reader one on. At 8 MiB (the reference) every step is 512–767 cycles, so short
  // is under 512; at 80 MiB warp 0 ends first (ahead of warp 1, its lines' previous reader) with 3
  // of its 4 steps short, warp 1 with 1.
  const make = [
    'import io, os, sys, tarfile',
    'dir = sys.argv[1]; os.makedirs(dir, exist_ok=True)',
    'header = "warp," + ",".join(f"from{b * 256}" for b in range(32))',
    'def steps(rows): return header + "\\n" + "\\n".join(f"{w}," + ",".join(map(str, row)) for w, row in enumerate(rows)) + "\\n"',
    'def bins(**at): return [at.get(f"b{b}", 0) for b in range(32)]',
    'files = {',
    '  "rot-8-steps.csv": steps([bins(b2=4), bins(b2=4)]),',
    '  "rot-8-warps.csv": "warp,sm,startNs,endNs\\n0,0,0,1000\\n1,1,0,1000\\n",',
    '  "rot-80-steps.csv": steps([bins(b1=3, b20=1), bins(b1=1, b20=3)]),',
    '  "rot-80-warps.csv": "warp,sm,startNs,endNs\\n0,0,0,2000\\n1,1,0,3000\\n",',
    '}',
    'with tarfile.open(os.path.join(dir, "rotSteps.txz"), "w:xz") as archive:',
    '  for name, text in files.items():',
    '    data = text.encode(); member = tarfile.TarInfo(f"rotsteps/{name}"); member.size = len(data)',
    '    archive.addfile(member, io.BytesIO(data))',
  ].join('\n');
  execFileSync('python3', ['-c', make, dir]);
  writeFileSync(join(dir, 'smSets.txt'), 'all 0,1\nnear 0\nfar 1\n');
  const record = (mib: number) => ({
    probe: 'rotsteps',
    footprintBytes: mib << 20,
    bytes: 160 << 20,
    residentBlocksPerSm: 8,
    threads: 32,
    nextReaderWarps: 1,
    GBps: 100,
    prefix: `/tmp/rotsteps/rot-${mib}`,
  });
  const stream = (mib: number) => ({ probe: 'stream', footprintBytes: mib << 20, GBps: 101 });
  const jsonl = join(dir, 'rotSteps.jsonl');
  writeFileSync(jsonl, [record(8), stream(8), record(80), stream(80)].map((r) => JSON.stringify(r)).join('\n') + '\n');
  const text = read(jsonl);
  expect(text).toMatch(
    /^80 MiB over 160 MiB \(2\.0 passes\), 8 blocks resident per SM, next reader 1 warps on: 100 GB\/s \(the untimed loop 101\)$/m,
  );
  expect(text).toMatch(/^ {2}steps: 256 \/ 256 \/ 5120 cycles .*; 0\.0 % at 7936 and more$/m);
  expect(text).toMatch(
    /steps under 512 cycles: 50\.0 % of a warp's on average; warps by tenths of theirs: 0 0 1 0 0 0 0 1 0 0; r against the lead over the line's previous reader \+1\.00$/m,
  );
  expect(text).toMatch(/warps end at 0\.667 \/ 1\.000 of the median \(3\.0 µs/);
  expect(text).toMatch(
    /^ {2}blocks: 2 of 1 warps, 0 split over SMs; each round of 2 blocks on 2–2 SMs \(2 if dealt SM by SM\)$/m,
  );
  // Warp 0 on SM 0 (near), its next reader warp 1 on SM 1 (far), and back.
  expect(text).toMatch(/^ {2}next reader in the same L2 partition: 0\.0 % of the warps$/m);
  for (const map of ['all 0,1\n', 'near 0,x\n']) {
    writeFileSync(join(dir, 'smSets.txt'), map);
    expectOneLineError(SCRIPT, [jsonl], /synthetic\/smSets\.txt: no near line of SM numbers$/);
  }
});

it('answers bad input in one line naming the file', () => {
  const empty = join(work, 'empty.jsonl');
  writeFileSync(empty, '{"probe":"stream"}\n');
  expectOneLineError(SCRIPT, [empty], /empty\.jsonl: no rotsteps record$/);
  const partial = join(work, 'partial.jsonl');
  writeFileSync(partial, '{"probe":"rotsteps","footprintBytes":1,"bytes":2,"GBps":3,"prefix":"x"}\n');
  expectOneLineError(SCRIPT, [partial], /partial\.jsonl: rotsteps record 1: no nextReaderWarps$/);
  const alone = join(work, 'alone.jsonl');
  const record = { probe: 'rotsteps', footprintBytes: 1, bytes: 2, nextReaderWarps: 1, GBps: 3, prefix: 'x' };
  writeFileSync(alone, `${JSON.stringify(record)}\n{"probe":"stream","footprintBytes":1,"GBps":3}\n`);
  expectOneLineError(SCRIPT, [alone], /rotSteps\.txz: No such file or directory$/);
  expectOneLineError(SCRIPT, [], /^usage: python3 gpu\/probes\/rotatingSteps\.py/);
});
