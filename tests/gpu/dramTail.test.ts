/**
 * gpu/probes/dramTail.py reads the tail of DRAM's latency off the H200's walk (fifth batch,
 * results/2026-12-02d) and an H100's steps (thirtieth and thirty-first batches, results/2026-12-06p
 * and 2026-12-06r): a flat share of reads waits up to ≈ 520 cycles past its peak, and loads far
 * apart mostly wait together (docs/system-model.md, "DRAM's tail").
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { expectOneLineError } from './probeScript.ts';

const PROBES = join(import.meta.dirname, '../../gpu/probes');
const SCRIPT = join(PROBES, 'dramTail.py');
const work = mkdtempSync(join(tmpdir(), 'gen-dram-tail-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Tail {
  peak: number;
  share: number;
  end: number;
}

/** Each histogram's tail by its label. */
function tailsOf(...args: string[]): Map<string, Tail> {
  const text = execFileSync('python3', [SCRIPT, ...args], { encoding: 'utf8', timeout: 60_000 });
  return new Map(
    [
      ...text.matchAll(/^(.+): last peak (\d+) cycles, tail ([\d.]+) % \(level [\d.]+ ‰ a bin\) to (\d+) cycles$/gm),
    ].map((m) => [m[1]!, { peak: Number(m[2]), share: Number(m[3]), end: Number(m[4]) }]),
  );
}

it('reads the H200 walk’s DRAM reads with a flat tail of ≈ 520 cycles past their peak, and no tail from the L2', () => {
  const walk = tailsOf(join(PROBES, 'results/2026-12-02d/replacement.jsonl'), '--from', '16');
  expect(walk.get('walk 16 MiB pass 1')?.share).toBe(0);
  // 40 MiB: half far hits, 43 % its own partition's lines from DRAM (peak 576–608), their tail.
  expect(walk.get('walk 40 MiB pass 2')).toEqual({ peak: 576, share: 6.4, end: 1120 });
  // 64 MiB: the far half from DRAM too (peak 768–800), its tail to 1,312.
  expect(walk.get('walk 64 MiB pass 2')).toEqual({ peak: 768, share: 9.2, end: 1312 });
});

it('reads a lone warp’s one-out steps with the tail of one read, and four loads across the home bits with more', () => {
  const steps = tailsOf(join(PROBES, 'results/2026-12-06r/loneWarpOneSm.jsonl'));
  expect(steps.get('steps 1024 MiB, 1 SMs, 1 warps × 1 out 512 B apart')).toEqual({
    peak: 832,
    share: 11.7,
    end: 1312,
  });
  const all = tailsOf(join(PROBES, 'results/2026-12-06r/loneWarp.jsonl'));
  expect(all.get('steps 1024 MiB, 132 SMs, 1 warps × 4 out 67584 B apart')?.share).toBe(30.2);
  expect(all.get('steps 24 MiB, 132 SMs, 1 warps × 1 out 67584 B apart')?.share).toBeLessThan(1);
});

it('reads two loads 32 or 256 KiB apart with the tail of one, and more only across the home bits', () => {
  const pairs = tailsOf(join(PROBES, 'results/2026-12-06p/spacingBits.jsonl'));
  const share = (bytes: number) => pairs.get(`steps 1024 MiB, 128 SMs, 4 warps × 2 out ${bytes} B apart`)?.share;
  // Each its own draw would put 1 − 0.872² = 24 % of the steps in the tail.
  for (const bytes of [512, 1024, 2048, 32768, 262144]) expect(share(bytes)).toBeLessThan(14);
  for (const bytes of [4096, 8192, 65536, 131072]) expect(share(bytes)).toBeGreaterThan(16);
});

it('refuses in one line a record that is neither a walk nor steps (naming file and line), a missing file and --from without a size', () => {
  const file = join(work, 'bad.jsonl');
  writeFileSync(file, '{"probe":"l2Replacement","footprintBytes":1}\n');
  expectOneLineError(SCRIPT, [file], /bad\.jsonl:1: not a walk or smsteps record/);
  writeFileSync(
    file,
    '{"probe":"smsteps","footprintBytes":1,"sms":1,"threads":32,"inFlight":1,"spacingBytes":512,"stepBins":[],"stepBinBase":0,"stepBinCycles":32}\n',
  );
  expectOneLineError(SCRIPT, [file], /bad\.jsonl:1: not a walk or smsteps record/);
  expectOneLineError(SCRIPT, [join(work, 'missing.jsonl')], /missing\.jsonl: No such file/);
  expectOneLineError(SCRIPT, [file, '--from'], /^--from: give the smallest footprint to print, in MiB$/);
});
