/**
 * gpu/probes/dramClock.py reads an H100's traces of one thread's DRAM reads (thirty-second and
 * thirty-third batches, results/2026-12-06s and 2026-12-07): the waits past a line's fastest round
 * are flat up to a hard end, they bunch in time and their rate cycles every 100.14 µs; lines slow in
 * every round follow the order of the reads. Threads on several SMs at once (the thirty-fourth,
 * 2026-12-07b) say how much of DRAM one window holds (docs/system-model.md, "When the tail comes").
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { expectOneLineError } from './probeScript.ts';

const PROBES = join(import.meta.dirname, '../../gpu/probes');
const SCRIPT = join(PROBES, 'dramClock.py');
const work = mkdtempSync(join(tmpdir(), 'gen-dram-clock-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The reader's text for one results folder. */
const readerText = (folder: string) =>
  execFileSync('python3', [SCRIPT, join(PROBES, `results/${folder}/dramClock.jsonl`)], {
    encoding: 'utf8',
    timeout: 120_000,
  });
const text = readerText('2026-12-06s');
const clean = readerText('2026-12-07');
const pairs = readerText('2026-12-07b');

/** The first number after `label` in the reader's text (the first batch's unless another is given). */
function figure(label: string, from = text): number {
  const match = new RegExp(`${label}\\D*?([\\d.]+)`).exec(from);
  if (!match) throw new Error(`no "${label}" in:\n${from}`);
  return Number(match[1]);
}

/** The numbers in the run of them after `label` in `from`. */
function figures(label: string, from: string): number[] {
  const match = new RegExp(`${label} ([\\d. ]+)`).exec(from);
  if (!match) throw new Error(`no "${label}" in:\n${from}`);
  return match[1]!.trim().split(' ').map(Number);
}

it('reads the three cold rounds’ waits as flat up to a hard end of 464 cycles (234 ns)', () => {
  expect(text).toMatch(/^scattered ×6781, 1024 MiB, cold: 3 × 262144 reads on SM 124 at 1\.980 GHz/m);
  expect(figure('waits past the fastest round:')).toBe(6.8);
  expect(text).toMatch(/0\.25 % a 16-cycle bin, ending at 464 cycles \(234 ns\)/);
});

it('reads a histogram’s tail as more than the waits: it also counts the 4.4 % of lines slow in every round', () => {
  expect(figure("dramTail.py's tail of its 32-cycle histogram:")).toBe(10);
  expect(text).toMatch(/p99 1243 cycles; 4\.4 % of lines slow in every round \(over 1011 cycles\)/);
});

it('reads the waits as bunched in time: empty 20-µs windows six times as often as independent waits would leave', () => {
  expect(figure('the read after a waiting one waits')).toBeGreaterThan(9);
  expect(figure('dispersion')).toBeGreaterThan(2);
  expect(text).toMatch(/none waiting in 23 % \(4 % if independent\)/);
});

it('reads a cycle of 100.14 µs in the waiting reads’ rate, from 9.1 % waiting in its fullest tenth to 5.6 %', () => {
  expect(text).toMatch(/a cycle of 100\.14 µs \(Z (\d+), ≈ 3 by chance\)/);
  expect(figure('a cycle of [\\d.]+ µs \\(Z')).toBeGreaterThan(500);
  expect(text).toMatch(/from the fullest: 9\.1 7\.7 7\.6 6\.9 6\.2 5\.8 5\.6 5\.9 6\.3 7\.2 %/);
  // Another read in each round: the cycle follows time, not the lines read.
  expect(text).toMatch(/the fullest tenth first begins at read 183, 0, 24 of the rounds/);
});

it('reads the L2-resident control without DRAM’s latencies', () => {
  expect(text).toMatch(/^scattered ×6781, 16 MiB, warm: 1 × 262144 reads .* p50 447 p90 476 p99 495/m);
});

it('reads the clean-L2 batch with the same window and cycle, and another order’s cycle at half the period', () => {
  const [first, other, line] = clean.split(/^(?=\S)/m);
  expect(first).toMatch(/^scattered ×6781, 1024 MiB, cold: 3 × 262144 reads/);
  expect(first).toMatch(/6\.8 % over 64 cycles, 0\.25 % a 16-cycle bin, ending at 464 cycles \(235 ns\)/);
  expect(first).toMatch(/a cycle of 100\.14 µs \(Z 661,/);
  expect(other).toMatch(/^scattered ×10923, 1024 MiB, cold: 2 × 262144 reads/);
  expect(other).toMatch(/a cycle of 50\.07 µs \(Z 39,/);
  expect(line).toMatch(/^sequential, 1024 MiB, cold: 2 × 262144 reads/);
  expect(line).toMatch(/4\.6 % over 64 cycles, 0\.11 % a 16-cycle bin, ending at 464 cycles/);
  // In line order the next read lies in the bank whose window it just waited out.
  expect(figure('the read after a waiting one waits', line)).toBe(1.3);
});

it('reads the lines slow in every round as the order’s: not the lines’ own, not the time since launch, not the first batch’s write-backs', () => {
  expect(clean).toMatch(/p99 1257 cycles; 4\.8 % of lines slow in every round/);
  expect(clean).toMatch(
    /×6781 and ×10923, 1024 MiB, cold \(the same lines in two orders\): of the lines slow in every round of ×6781, 3\.8 % are slow in ×10923 \(3\.5 % of all\); slow at the same position in both 0\.17 % \(0\.17 % if apart\)/,
  );
  expect(clean).toMatch(/^scattered ×6781, 16 MiB, warm: 1 × 262144 reads .* max 503 cycles/m);
});

/** A results folder with these records and, for each, its trace of `reads` reads (issue cycle, latency). */
function folder(name: string, records: readonly Record<string, unknown>[], reads: number): string {
  const dir = join(work, name);
  const make = [
    'import io, os, sys, tarfile',
    'dir, reads, names = sys.argv[1], int(sys.argv[2]), sys.argv[3:]',
    'os.makedirs(dir, exist_ok=True)',
    'data = b"".join(int(i * 900).to_bytes(4, "little") + (700 + 100 * (i % 2)).to_bytes(4, "little") for i in range(reads))',
    'with tarfile.open(os.path.join(dir, "traces.txz"), "w:xz") as archive:',
    '    for name in names:',
    '        member = tarfile.TarInfo(f"traces/{name}"); member.size = len(data)',
    '        archive.addfile(member, io.BytesIO(data))',
  ].join('\n');
  execFileSync('python3', ['-c', make, dir, String(reads), 'one.bin', 'two.bin']);
  writeFileSync(join(dir, 'dramClock.jsonl'), records.map((record) => `${JSON.stringify(record)}\n`).join(''));
  return join(dir, 'dramClock.jsonl');
}

const RECORD = {
  probe: 'dramClock',
  footprintBytes: 1 << 30,
  reads: 4,
  order: 'scattered',
  start: 'cold',
  sm: 0,
  cycles: 3600,
  nanoseconds: 1800,
  trace: 'one.bin',
};

/**
 * Two threads' rounds on two SMs, 20,000 reads each, issue times from the globaltimer (low 32 bits,
 * wrapping within the trace). DRAM is `groups` groups, each with a 234-ns window about every 3 µs at
 * times of its own; a read goes to a group at random and, reaching DRAM inside its group's window,
 * waits for its end. One window holds 1 / `groups` of DRAM.
 */
function pairFolder(groups: number): string {
  const dir = join(work, `groups-${groups}`);
  const make = [
    'import bisect, io, json, os, random, sys, tarfile',
    'dir, groups, reads = sys.argv[1], int(sys.argv[2]), 20000',
    'os.makedirs(dir, exist_ok=True)',
    'random.seed(3)',
    'begin = (1 << 32) - 1_000_000',
    'windows = [[begin + 3000 * k + random.uniform(0, 3000) for k in range(-1, reads // 4)] for _ in range(groups)]',
    'records = []',
    'with tarfile.open(os.path.join(dir, "traces.txz"), "w:xz") as archive:',
    '    for round in range(2):',
    '        data = []',
    '        for thread in range(2):',
    '            time = begin + 777 * round + 137 * thread',
    '            for read in range(reads):',
    '                starts = random.choice(windows)',
    '                into = time + 200 - starts[bisect.bisect_right(starts, time + 200) - 1]',
    '                latency = int(1.98 * (400 + max(0, 234 - into)))',
    '                data.append(int(time % (1 << 32)).to_bytes(4, "little") + latency.to_bytes(4, "little"))',
    '                time += latency / 1.98 + 50 + 300 * random.random()',
    '        data = b"".join(data)',
    '        member = tarfile.TarInfo(f"traces/pair-{round}.bin"); member.size = len(data)',
    '        archive.addfile(member, io.BytesIO(data))',
    '        records.append({"probe": "dramClock", "footprintBytes": 1 << 30, "reads": reads, "order": "scattered",',
    '            "scatter": 6781, "start": "cold", "threads": 2, "issue": "globaltimer", "sm": [0, 2],',
    '            "cycles": [1980, 1980], "nanoseconds": [1000, 1000], "trace": f"pair-{round}.bin"})',
    'open(os.path.join(dir, "dramClock.jsonl"), "w").write("".join(json.dumps(r) + "\\n" for r in records))',
  ].join('\n');
  execFileSync('python3', ['-c', make, dir, String(groups)]);
  return join(dir, 'dramClock.jsonl');
}

it('reads how much of DRAM one window holds from two SMs’ reads: all of it, an eighth, a thirty-second', () => {
  const together = (groups: number) => execFileSync('python3', [SCRIPT, pairFolder(groups)], { encoding: 'utf8' });
  const all = together(1);
  expect(all).toMatch(
    /^2 threads scattered ×6781, 1024 MiB, cold: 2 × 20000 reads each on SMs 0,2; the globaltimer steps by 1 ns/,
  );
  const held = (text: string) => figure('one window holds ≈', text);
  expect(figure("reach DRAM inside a waiting read's window wait", all)).toBeGreaterThan(50);
  expect(held(all)).toBe(100);
  const eighth = held(together(8));
  expect(eighth).toBeGreaterThanOrEqual(8);
  expect(eighth).toBeLessThanOrEqual(18);
  expect(held(together(32))).toBeLessThan(8);
});

it('reads runs with another stagger apart from the others, named by it', () => {
  const plain = pairFolder(1);
  const records = readFileSync(plain, 'utf8').trim().split('\n');
  const staggered = records.map((line) => JSON.stringify({ ...JSON.parse(line), stagger: 64 }));
  // The same traces under both records: pairFolder writes the folder anew for every test that reads it.
  writeFileSync(plain, [...records, ...staggered].join('\n') + '\n');
  const runs = execFileSync('python3', [SCRIPT, plain], { encoding: 'utf8' }).split(/^(?=\S)/m);
  expect(runs).toHaveLength(2);
  expect(runs[0]).toMatch(/^2 threads scattered ×6781, 1024 MiB, cold: 2 × 20000 reads/);
  expect(runs[1]).toMatch(/^2 threads scattered ×6781, thread b from read b × 64, 1024 MiB, cold: 2 × 20000 reads/);
});

it('reads an H100’s windows as holding about a tenth of DRAM, SMs far apart in the address space alike', () => {
  const [two = '', eight = ''] = pairs.split(/^(?=\S)/m);
  expect(two).toMatch(
    /^2 threads scattered ×6781, 1024 MiB, cold: 3 × 262144 reads each on SMs 124,126; the globaltimer steps by 32 ns; 6\.6 %/,
  );
  expect(two).toMatch(
    /inside a waiting read's window wait 12\.8 % \(30688 reads; after a read that does not wait 6\.4 %, 10 µs later 6\.6 %\)/,
  );
  expect(two).toMatch(/with 256–416 left 15\.9 % \(6149 reads\), 10 µs later 6\.5 %: one window holds ≈ 10 % of DRAM/);
  expect(eight).toMatch(/^8 threads .* on SMs 124,125,126,127,128,129,130,131; .* 5\.7 % of reads wait/);
  expect(eight).toMatch(
    /with 256–416 left 16\.0 % \(12620 reads\), 10 µs later 5\.4 %: one window holds ≈ 11 % of DRAM/,
  );
  // Every pair of the eight SMs, neighbours or not, above every pair's control: DRAM's, not the SMs' path.
  expect(eight).toMatch(/by pair of SMs \(28 pairs\), with 256–416 left: 11\.9–21\.2 %, 10 µs later 3\.4–8\.2 %/);
  // A read that shares a window with little of it left waits less than 64 cycles, and is not counted.
  const [nearEnd, , , , earlier] = figures('cycles left when they reach DRAM \\(64-cycle bins from 64\\):', two);
  expect(nearEnd).toBeLessThan(earlier!);
});

it('refuses in one line another probe’s record, a trace the archive lacks or cut short, and a missing file', () => {
  expectOneLineError(
    SCRIPT,
    [folder('other', [{ probe: 'smsteps' }], 4)],
    /other\/dramClock\.jsonl:1: not a dramClock record/,
  );
  expectOneLineError(
    SCRIPT,
    [folder('lacks', [RECORD, { ...RECORD, trace: 'three.bin' }], 4)],
    /lacks\/dramClock\.jsonl:2: traces\.txz has no traces\/three\.bin$/,
  );
  expectOneLineError(
    SCRIPT,
    [folder('short', [{ ...RECORD, reads: 5 }], 4)],
    /short\/dramClock\.jsonl:1: traces\/one\.bin holds 4 reads, the record says 5$/,
  );
  expectOneLineError(SCRIPT, [join(work, 'missing', 'dramClock.jsonl')], /dramClock\.jsonl: No such file/);
});

it('reads two short rounds without seeking a cycle in them', () => {
  const out = execFileSync('python3', [SCRIPT, folder('good', [RECORD, { ...RECORD, trace: 'two.bin' }], 4)], {
    encoding: 'utf8',
  });
  expect(out).toMatch(/^scattered ×6781, 1024 MiB, cold: 2 × 4 reads on SM 0 at 2\.000 GHz: latency p10 700 p50 800/);
  expect(out).toMatch(/waits past the fastest round: 0\.0 % over 64 cycles/);
  expect(out).toMatch(/no cycle sought: a round spans less than 450 µs or none waits/);
});
