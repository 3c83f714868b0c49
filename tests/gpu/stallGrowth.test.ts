/**
 * gpu/probes/stallGrowth.py reads the `residency` archive (gpu/probes/h200Batch.sh): per kernel, the
 * launch's figures at the smallest and the largest M, then the stall reasons per issued instruction
 * by their growth, each with its share of the growth in cycles per instruction; with --sites, the
 * growth by the instruction the warps wait at, from the SASS pages' stall samples; with --parts, a warp's
 * life split into its waits on global memory, at the barriers and the SM's own work; with --loop,
 * those parts by where in the listing they fall, the K loop split at given mnemonics.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { expectOneLineError } from './probeScript.ts';

const SCRIPT = join(import.meta.dirname, '../../gpu/probes/stallGrowth.py');
const work = mkdtempSync(join(tmpdir(), 'gen-stalls-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const STALL = (reason: string) => `smsp__average_warps_issue_stalled_${reason}_per_issue_active.ratio`;

/** One launch's raw page: the profiler's banner, names, units, values (the launch's grid and block beside the metrics). */
function rawPage(time: number, cycles: number, stalls: Record<string, number>, grid = '(1, 8, 1)'): string {
  const metrics: [string, string, number | string][] = [
    ['Grid Size', '', grid],
    ['Block Size', '', '(128, 1, 1)'],
    ['gpu__time_duration.sum', 'us', time],
    ['smsp__average_warp_latency_per_inst_issued.ratio', '', cycles],
    ...Object.entries(stalls).map(([reason, value]): [string, string, number] => [STALL(reason), '', value]),
  ];
  const row = (cells: (string | number)[]) => cells.map((cell) => `"${cell}"`).join(',');
  return (
    [
      '==PROF== Disconnected',
      row(metrics.map((m) => m[0])),
      row(metrics.map((m) => m[1])),
      row(metrics.map((m) => m[2].toLocaleString('en-US'))),
    ].join('\n') + '\n'
  );
}

/** Writes the archive `name`.tgz of the given pages (file name → text) and returns its path. */
function archive(name: string, files: Record<string, string>): string {
  const folder = join(work, name);
  mkdirSync(folder);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(folder, file), text);
  execFileSync('tar', ['czf', join(work, `${name}.tgz`), '-C', work, name]);
  return join(work, `${name}.tgz`);
}

/** A SASS page: the kernel's name, the header, then per instruction its samples by reason and how often it ran. */
function sassPage(instructions: [string, Record<string, number>, number?][]): string {
  const reasons = ['stall_long_sb', 'stall_short_sb', 'stall_barrier', 'stall_selected', 'stall_long_sb (Not Issued)'];
  const row = (cells: (string | number)[]) => cells.map((cell) => `"${cell}"`).join(',');
  const lines = [
    row(['Kernel Name', 'K']),
    row(['Address', 'Source', 'Warp Stall Sampling (All Samples)', 'Instructions Executed', ...reasons]),
  ];
  instructions.forEach(([source, samples, executed], index) => {
    const all = Object.entries(samples)
      .filter(([reason]) => !reason.includes('Not Issued'))
      .reduce((total, [, count]) => total + count, 0);
    lines.push(
      row([
        `0x${(0x100 + 16 * index).toString(16)}`,
        `      ${source}`,
        all,
        executed ?? 0,
        ...reasons.map((r) => samples[r] ?? 0),
      ]),
    );
  });
  return lines.join('\n') + '\n';
}

it('orders the stall reasons by growth from one block per SM to two, below a floor left out', () => {
  // Cycles per instruction 4 → 6: long_scoreboard +1.5, barrier +0.5, the rest flat or under the floor.
  const tgz = archive('residency', {
    'K-4096.raw.csv': rawPage(1200, 4, { long_scoreboard: 2, barrier: 1, selected: 1, wait: 0.01 }),
    'K-8448.raw.csv': rawPage(1500, 6, { long_scoreboard: 3.5, barrier: 1.5, selected: 1, wait: 0.02 }),
  });
  const text = execFileSync('python3', [SCRIPT, tgz], { encoding: 'utf8', timeout: 60_000 });
  const lines = text.trim().split('\n');
  expect(lines[0]).toBe('== K: M 4096 / 8448');
  expect(lines[1]).toMatch(/^ {2}time, us +1,?200\.00 +1,?500\.00 {2}\(\+25 %\)$/);
  expect(lines[2]).toMatch(/^ {2}cycles per issued instruction +4\.00 +6\.00 {2}\(\+50 %\)$/);
  expect(lines.slice(3)).toEqual([
    '  stalled long_scoreboard                2.00       3.50  (+1.50, +75 % of the growth)',
    '  stalled barrier                        1.00       1.50  (+0.50, +25 % of the growth)',
  ]);
});

it('splits the growth by the instruction the warps wait at, matching branches by their place in the listing', () => {
  // 4 cycles per instruction at M 4096, 8 at 8448. At 4096 the samples split 1 : 1 between the
  // branch's long scoreboard and the MMA's issue; at 8448 the branch (its target moved) takes 2 of
  // 4, and a shared-memory wait at the PRMT appears.
  const tgz = archive('residencySites', {
    'K-4096.raw.csv': rawPage(10, 4, {}),
    'K-8448.raw.csv': rawPage(20, 8, {}),
    'K-4096.sass.csv': sassPage([
      ['@P0   BRA 0x7f00', { stall_long_sb: 10, 'stall_long_sb (Not Issued)': 10 }],
      ['PRMT R1, R2, 0x1, RZ', {}],
      ['HMMA.16816.F32 R4, R8, R12, R4', { stall_selected: 10 }],
    ]),
    'K-8448.sass.csv': sassPage([
      ['@P0   BRA 0x8f00', { stall_long_sb: 20 }],
      ['PRMT R1, R2, 0x1, RZ', { stall_short_sb: 10 }],
      ['HMMA.16816.F32 R4, R8, R12, R4', { stall_selected: 10 }],
    ]),
  });
  const text = execFileSync('python3', [SCRIPT, '--sites', tgz], { encoding: 'utf8', timeout: 60_000 });
  expect(text.trim().split('\n')).toEqual([
    '== K: M 4096 / 8448, cycles per issued instruction by where the warps wait',
    '  at BRA      long_sb              2.00     4.00  (+2.00)',
    '  at PRMT     short_sb             0.00     2.00  (+2.00)',
    '  #0     @P0   BRA 0x8f00                             long_sb              2.00     4.00  (+2.00)',
    '  #1     PRMT R1, R2, 0x1, RZ                         short_sb             0.00     2.00  (+2.00)',
  ]);
});

it('answers a missing argument, a missing file and an archive without the samples --sites and --loop read in one line, exit 1', () => {
  const tgz = archive('noSamples', {
    'K-4096.raw.csv': rawPage(10, 4, {}),
    'K-8448.raw.csv': rawPage(20, 8, {}),
    'K-4096.sass.csv': '"Address","Source"\n"0x100","NOP"\n',
    'K-8448.sass.csv': '"Address","Source"\n"0x100","NOP"\n',
  });
  for (const [args, message] of [
    [
      [],
      /^usage: python3 gpu\/probes\/stallGrowth\.py \[--sites \| --per MNEMONIC \| --parts ITERATIONS \| --loop ITERATIONS MNEMONIC,…\] <residency\.tgz>…$/,
    ],
    [['--per', tgz], /^usage: /],
    [['--parts', 'many', tgz], /^usage: /],
    [['--loop', 'many', 'LDSM', tgz], /^usage: /],
    [
      ['--loop', '14', 'LDSM', tgz],
      /^stallGrowth\.py: .*noSamples\.tgz: not the Nsight Compute pages this reads \(KeyError/,
    ],
    [
      [join(work, 'absent.tgz')],
      /^stallGrowth\.py: .*absent\.tgz: not the Nsight Compute pages this reads \(FileNotFoundError/,
    ],
    [['--sites', tgz], /^stallGrowth\.py: .*noSamples\.tgz: not the Nsight Compute pages this reads \(KeyError/],
  ] as const)
    expectOneLineError(SCRIPT, args, message);
});

it('gives the cycles per executed instruction of an unrolled loop, from its span up to the block-wide wait', () => {
  // 4 cycles per instruction over 30 executed instructions: 120 warp cycles. Two FLO steps, 10
  // executions, and the lanes' reconvergence after them hold half the samples; the barrier after
  // them, outside the span, the other half. So 60 cycles over 10 FLO: 6 a step.
  const tgz = archive('residencySpans', {
    'K-4096.raw.csv': rawPage(10, 4, {}),
    'K-4096.sass.csv': sassPage([
      ['IMAD R1, R2, R3, R4', {}, 10],
      ['FLO.U32 R1, R1', { stall_short_sb: 3 }, 5],
      ['FLO.U32 R2, R2', { stall_short_sb: 2 }, 5],
      ['IADD3 R4, -R1, 0x1f, RZ', { stall_long_sb: 3 }, 10],
      ['BSYNC B0', { stall_long_sb: 2 }, 0],
      ['BAR.SYNC.DEFER_BLOCKING 0x0', { stall_long_sb: 10 }, 0],
      ['EXIT', {}, 0],
    ]),
  });
  const text = execFileSync('python3', [SCRIPT, '--per', 'FLO', tgz], { encoding: 'utf8', timeout: 60_000 });
  expect(text.trim()).toBe('K M 4096: rows 0–4, 2 FLO, 10 executed, 50.0 % of the samples, 6.0 cycles per FLO');
  // A second archive with another M (as `residencythree` beside `residencysites`) is read as one.
  const three = archive('residencyThree', {
    'K-12544.raw.csv': rawPage(10, 8, {}),
    'K-12544.sass.csv': sassPage([
      ['FLO.U32 R1, R1', { stall_short_sb: 1 }, 10],
      ['BAR.SYNC.DEFER_BLOCKING 0x0', { stall_long_sb: 3 }, 0],
    ]),
  });
  const both = execFileSync('python3', [SCRIPT, '--per', 'FLO', tgz, three], { encoding: 'utf8', timeout: 60_000 });
  expect(both.trim().split('\n')).toEqual([
    'K M 4096: rows 0–4, 2 FLO, 10 executed, 50.0 % of the samples, 6.0 cycles per FLO',
    'K M 12544: rows 0–0, 1 FLO, 10 executed, 25.0 % of the samples, 2.0 cycles per FLO',
  ]);
});

it("splits a warp's life into its waits on global memory, at the barriers and the SM's own work, per block-iteration", () => {
  // 8 blocks of 4 warps ran 3,200 instructions: 100 a warp. At 6 cycles per instruction a warp
  // lives 600 cycles, 150 an iteration over 4: 2 of the 6 on the long scoreboard (50), 1 at the
  // barrier (25), the other 3 the SM's own (75). With twice the blocks and 8 cycles, 200 an
  // iteration: 3 / 1 / 4.
  const tgz = archive('residencyParts', {
    'K-4096.raw.csv': rawPage(10, 6, { long_scoreboard: 2, barrier: 1, selected: 1 }),
    'K-8448.raw.csv': rawPage(20, 8, { long_scoreboard: 3, barrier: 1, selected: 1 }, '(1, 16, 1)'),
    'K-4096.sass.csv': sassPage([
      ['LDG.E.128 R4, [R2.64]', {}, 1600],
      ['HMMA.16816.F32 R4, R8, R12, R4', {}, 1600],
    ]),
    'K-8448.sass.csv': sassPage([
      ['LDG.E.128 R4, [R2.64]', {}, 3200],
      ['HMMA.16816.F32 R4, R8, R12, R4', {}, 3200],
    ]),
  });
  const text = execFileSync('python3', [SCRIPT, '--parts', '4', tgz], { encoding: 'utf8', timeout: 60_000 });
  expect(text.trim().split('\n')).toEqual([
    'K M 4096: 100 instructions a warp, 600 cycles; a block-iteration 150: memory 50 (33 %), barriers 25 (17 %), the SM 75 (50 %)',
    'K M 8448: 100 instructions a warp, 800 cycles; a block-iteration 200: memory 75 (38 %), barriers 25 (12 %), the SM 100 (50 %)',
  ]);
});

it('splits a block-iteration by where in the listing the warps spend it: before the K loop, in it at the given mnemonics, after it', () => {
  // 8 blocks of 4 warps ran 512 instructions: 16 a warp, at 25 cycles each 400 cycles, 200 an
  // iteration over 2. Of the 100 samples, each region's share of those 200. The K loop is rows 1–6
  // (the branch back to 0x110); the branch in row 4 closes an inner loop, inside it.
  const tgz = archive('residencyLoop', {
    'K-4096.raw.csv': rawPage(10, 25, {}),
    'K-4096.sass.csv': sassPage([
      ['IMAD R1, R2, R3, R4', { stall_selected: 10 }, 32],
      ['LDG.E.128 R8, desc[UR4][R2.64]', { stall_long_sb: 10 }, 64],
      ['LDSM.16.M88.4 R12, [R3]', { stall_short_sb: 20, stall_barrier: 10 }, 64],
      ['PRMT R1, R8, 0x1, RZ', { stall_selected: 15 }, 64],
      ['@P1   BRA 0x130', { stall_selected: 15 }, 128],
      ['DEPBAR.LE SB0, 0x0', { stall_barrier: 10 }, 64],
      ['@!P2  BRA 0x110', {}, 64],
      ['EXIT', { stall_selected: 10 }, 32],
    ]),
  });
  const expected =
    'K M 4096: a block-iteration 200: before the loop (rows 0–0) 20: memory 0, barriers 0, the SM 20; ' +
    'the loop from its start (rows 1–1) 20: memory 20, barriers 0, the SM 0; ' +
    'from LDSM (rows 2–2) 60: memory 0, barriers 20, the SM 40; ' +
    'from PRMT (rows 3–4) 60: memory 0, barriers 0, the SM 60; ' +
    'from DEPBAR (rows 5–6) 20: memory 0, barriers 20, the SM 0; ' +
    'after the loop (rows 7–7) 20: memory 0, barriers 0, the SM 20';
  const loop = (splits: string) =>
    execFileSync('python3', [SCRIPT, '--loop', '2', splits, tgz], { encoding: 'utf8', timeout: 60_000 }).trim();
  expect(loop('LDSM,PRMT,DEPBAR')).toBe(expected);
  // A mnemonic the loop lacks splits nothing.
  expect(loop('LDSM,FLO,PRMT,DEPBAR')).toBe(expected);
});

it('ends quietly when its reader stops early (a pipe into head)', () => {
  const tgz = archive('residencyPipe', {
    'K-4096.raw.csv': rawPage(10, 6, { long_scoreboard: 2, barrier: 1 }),
    'K-4096.sass.csv': sassPage([['LDG.E.128 R4, [R2.64]', {}, 3200]]),
  });
  // `:` exits before Python starts, so the script's first line meets a closed pipe.
  const run = spawnSync('bash', ['-c', `python3 '${SCRIPT}' --parts 4 '${tgz}' | :`], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
});
