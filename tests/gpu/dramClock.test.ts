/**
 * gpu/probes/dramClock.py reads an H100's traces of one thread's DRAM reads (thirty-second and
 * thirty-third batches, results/2026-12-06s and 2026-12-07): the waits past a line's fastest round
 * are flat up to a hard end, they bunch in time and their rate cycles every 100.14 µs; lines slow in
 * every round follow the order of the reads (docs/system-model.md, "When the tail comes").
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

/** The first number after `label` in the reader's text (the first batch's unless another is given). */
function figure(label: string, from = text): number {
  const match = new RegExp(`${label}\\D*?([\\d.]+)`).exec(from);
  if (!match) throw new Error(`no "${label}" in:\n${from}`);
  return Number(match[1]);
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
 * Two threads' rounds on two SMs, 5,000 reads each, issue times from the globaltimer (low 32 bits,
 * wrapping within the trace): a read that reaches DRAM inside a 234-ns window every 3 µs waits for
 * its end; the windows are `shared` (one for both threads) or each thread's own.
 */
function pairFolder(name: string, shared: boolean): string {
  const dir = join(work, name);
  const make = [
    'import io, json, os, random, sys, tarfile',
    'dir, shared = sys.argv[1], sys.argv[2] == "shared"',
    'os.makedirs(dir, exist_ok=True)',
    'random.seed(3)',
    'records = []',
    'with tarfile.open(os.path.join(dir, "traces.txz"), "w:xz") as archive:',
    '    for round in range(2):',
    '        data = b""',
    '        for thread in range(2):',
    '            time = (1 << 32) - 1_000_000 + 777 * round + 137 * thread',
    '            offset = 0 if shared else 1500 * thread',
    '            for read in range(5000):',
    '                phase = (time + 200 + offset) % 3000',
    '                latency = int(1.98 * (400 + max(0, 234 - phase)))',
    '                data += int(time % (1 << 32)).to_bytes(4, "little") + latency.to_bytes(4, "little")',
    '                time += latency / 1.98 + 50 + 300 * random.random()',
    '        member = tarfile.TarInfo(f"traces/pair-{round}.bin"); member.size = len(data)',
    '        archive.addfile(member, io.BytesIO(data))',
    '        records.append({"probe": "dramClock", "footprintBytes": 1 << 30, "reads": 5000, "order": "scattered",',
    '            "scatter": 6781, "start": "cold", "threads": 2, "issue": "globaltimer", "sm": [0, 2],',
    '            "cycles": [1980, 1980], "nanoseconds": [1000, 1000], "trace": f"pair-{round}.bin"})',
    'open(os.path.join(dir, "dramClock.jsonl"), "w").write("".join(json.dumps(r) + "\\n" for r in records))',
  ].join('\n');
  execFileSync('python3', ['-c', make, dir, shared ? 'shared' : 'own']);
  return join(dir, 'dramClock.jsonl');
}

it('reads two SMs’ reads in one window as waiting together, and in windows of their own as not', () => {
  const together = (shared: boolean) =>
    execFileSync('python3', [SCRIPT, pairFolder(shared ? 'shared' : 'own', shared)], { encoding: 'utf8' });
  const shared = together(true);
  expect(shared).toMatch(
    /^2 threads scattered ×6781, 1024 MiB, cold: 2 × 5000 reads each on SMs 0,2; the globaltimer steps by 1 ns/,
  );
  const inWindow = (text: string) => figure("reach DRAM inside a waiting read's window wait", text);
  expect(inWindow(shared)).toBeGreaterThan(50);
  expect(inWindow(together(false))).toBeLessThan(10);
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
