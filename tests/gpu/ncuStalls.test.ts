/**
 * gpu/probes/ncuStalls.py reads Nsight Compute's source pages (the `ncu` step's SASS pages, kept in
 * results/2026-12-02/ncu-reports.tgz): per page the stall reasons' shares and the instructions the
 * warps wait at most. The committed stalls.txt is its output on those pages.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { expectOneLineError } from './probeScript.ts';

const PROBES = join(import.meta.dirname, '../../gpu/probes');
const SCRIPT = join(PROBES, 'ncuStalls.py');
const RESULTS = join(PROBES, 'results/2026-12-02');
const work = mkdtempSync(join(tmpdir(), 'gen-ncu-stalls-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The pages in the order stalls.txt has them. */
const PAGES = [
  'FlashLLM_SpMM_Kernel-7168',
  'SpMM_Kernel-7168',
  'Coruscant_STC_SpMM_Kernel-7168',
  'stc-4096x14336',
  'cublas-7168',
  'cublas-4096x14336',
].map((name) => `${name}.sass.csv`);

it('reproduces the committed stalls.txt from the committed source pages', () => {
  execFileSync('tar', ['xzf', join(RESULTS, 'ncu-reports.tgz'), '-C', work]);
  const text = execFileSync('python3', [SCRIPT, ...PAGES], {
    cwd: join(work, 'ncu'),
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(text).toBe(readFileSync(join(RESULTS, 'stalls.txt'), 'utf8'));
  expect(text).toMatch(/^ {3}long_sb 27\.8%, wait 20\.1%, barrier 14\.7%/m);
});

it('answers a missing argument, a missing file and a page that is not a source page in one line, exit 1', () => {
  const details = join(work, 'details.csv');
  writeFileSync(details, '"ID","Kernel Name"\n"0","K"\n');
  const silent = join(work, 'silent.csv');
  writeFileSync(silent, '"Address","Source","Warp Stall Sampling (All Samples)","stall_long_sb"\n"0","NOP","0","0"\n');
  for (const [args, message] of [
    [[], /^usage: /],
    [[join(work, 'absent.csv')], /^ncuStalls\.py: .*absent\.csv: No such file or directory$/],
    [[details], /^ncuStalls\.py: .*details\.csv: not an Nsight Compute source page \(ValueError: no header row/],
    [[silent], /^ncuStalls\.py: .*silent\.csv: not an Nsight Compute source page \(ValueError: no stall samples\)$/],
  ] as const)
    expectOneLineError(SCRIPT, args, message);
});
