import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { valueAt, findSignal } from '../../waves/sampling.ts';
import { parseVcd, readVcdFile } from '../../waves/vcdReader.ts';
import { vcdIdCode, VcdWriter } from '../../waves/vcdWriter.ts';
import { UserError } from '../../common/errors.ts';

const directory = mkdtempSync(join(tmpdir(), 'vcd-writer-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function hasTool(name: string): boolean {
  return spawnSync('which', [name]).status === 0;
}

/** A small trace with a scalar, short and wide vectors, x/z, and a signal that never changes. */
async function writeSample(path: string, direct = false): Promise<void> {
  const writer = direct
    ? await VcdWriter.open(path, { timescale: '10ps' })
    : new VcdWriter(path, { timescale: '10ps' });
  const clk = writer.addSignal(['top'], 'clk', 1);
  const count = writer.addSignal(['top', 'dec'], 'count', 7);
  const wide = writer.addSignal(['top', 'dec'], 'wide', 100, 'reg');
  const still = writer.addSignal(['top'], 'still', 64);
  writer.beginDump();
  writer.change(still, 0xdeadbeefn);
  for (let step = 0; step < 20; step++) {
    writer.setTime(step * 5);
    writer.change(clk, step & 1);
    if (step % 2 === 1) writer.change(count, (step * 9) & 127);
    if (step === 4) writer.change(wide, (1n << 99n) | 1n);
    if (step === 8) writer.change(wide, 'zx01');
  }
  writer.setTime(100);
  await writer.close();
}

describe('VcdWriter', () => {
  it.skipIf(!existsSync('/dev/full'))(
    'a write that fails while drain() waits (a full disk: /dev/full) rejects with one line naming the file',
    async () => {
      const writer = new VcdWriter('/dev/full');
      const id = writer.addSignal(['top'], 'count', 32);
      writer.beginDump();
      let failure: unknown;
      try {
        for (let time = 0; time < 1_000_000; time++) {
          writer.setTime(time);
          writer.change(id, time);
          if (writer.needsDrain || time % 10_000 === 0) await writer.drain();
        }
      } catch (error) {
        failure = error;
      }
      // It was the bare `Error: ENOSPC: no space left on device, write` of the stream, uncaught in gen sim.
      expect(failure).toBeInstanceOf(UserError);
      expect((failure as Error).message).toBe('cannot write /dev/full: no space left on the device (ENOSPC)');
    },
  );

  it('makes id codes like Verilator: bijective base 94 over printable ASCII', () => {
    expect([0, 1, 93, 94, 95, 94 + 94 * 94].map(vcdIdCode)).toEqual(['!', '"', '~', '!!', '"!', '!!!']);
    const codes = new Set(Array.from({ length: 20_000 }, (_, index) => vcdIdCode(index)));
    expect(codes.size).toBe(20_000);
  });

  it('writes header, $dumpvars and only real changes, vectors without leading zeros', async () => {
    const path = join(directory, 'sample.vcd');
    await writeSample(path);
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('$date');
    expect(text).toContain('$timescale\n\t10ps\n$end');
    expect(text).toMatch(
      /\$scope module top \$end\n \$var wire 1 ! clk \$end\n \$var wire 64 \$ still \[63:0\] \$end\n \$scope module dec \$end\n {2}\$var wire 7 " count \[6:0\] \$end\n {2}\$var reg 100 # wide \[99:0\] \$end\n \$upscope \$end\n\$upscope \$end\n\$enddefinitions \$end\n/,
    );
    expect(text).toContain('#0\n$dumpvars\n0!\nbx "\nbx #\nb11011110101011011011111011101111 $\n$end\n');
    expect(text).toContain('#5\n1!\nb1001 "\n#10\n0!\n');
    expect(text).toContain('bzx01 #');
    // the value written for `count` at step 15 is 135 & 127 = 7: no leading zeros
    expect(text).toContain('b111 "');
    expect(text.trimEnd().endsWith('#100')).toBe(true);
    // no time line without a change after it, except the closing one
    const lines = text.trimEnd().split('\n');
    lines.slice(0, -1).forEach((line, index) => {
      if (line.startsWith('#')) expect(lines[index + 1]?.startsWith('#')).toBe(false);
    });
  });

  it('is byte-identical across runs when no date is given, streamed or written directly', async () => {
    await writeSample(join(directory, 'again1.vcd'));
    await writeSample(join(directory, 'again2.vcd'), true);
    expect(readFileSync(join(directory, 'again1.vcd'))).toEqual(readFileSync(join(directory, 'again2.vcd')));
  });

  it('writes nothing under the name until close, and nothing at all on abort', async () => {
    const path = join(directory, 'aborted.vcd');
    const writer = new VcdWriter(path);
    const id = writer.addSignal(['t'], 's', 4);
    writer.beginDump();
    writer.change(id, 3);
    writer.setTime(1);
    writer.change(id, 4);
    await writer.drain();
    expect(readdirSync(directory)).not.toContain('aborted.vcd');
    writer.abort();
    expect(readdirSync(directory).filter((name) => name.includes('aborted'))).toEqual([]);
  });

  it('rejects values that do not fit, time going back, and late declarations', () => {
    const writer = new VcdWriter(join(directory, 'misuse.vcd'));
    const narrow = writer.addSignal(['t'], 'n', 3);
    const wide = writer.addSignal(['t'], 'w', 40);
    expect(() => writer.addSignal(['t'], 'n', 3)).toThrow(/declared twice/);
    expect(() => writer.addSignal(['t'], 'bad name', 3)).toThrow(/white space/);
    writer.beginDump();
    expect(() => writer.change(narrow, 8)).toThrow(RangeError);
    expect(() => writer.change(narrow, -1)).toThrow(RangeError);
    expect(() => writer.change(narrow, 1.5)).toThrow(RangeError);
    expect(() => writer.change(wide, 1n << 40n)).toThrow(RangeError);
    expect(() => writer.change(wide, '2')).toThrow(RangeError);
    expect(() => writer.addSignal(['t'], 'late', 1)).toThrow(/after beginDump/);
    writer.setTime(10);
    expect(() => writer.setTime(9)).toThrow(RangeError);
    writer.abort();
  });

  it('treats number, bigint and bit-string forms of one value as the same value', async () => {
    const path = join(directory, 'forms.vcd');
    const writer = new VcdWriter(path);
    const narrow = writer.addSignal(['t'], 'n', 8);
    const wide = writer.addSignal(['t'], 'w', 48);
    writer.beginDump();
    writer.change(narrow, 5);
    writer.change(wide, 5);
    writer.setTime(1);
    writer.change(narrow, 5n);
    writer.change(wide, '101');
    writer.setTime(2);
    writer.change(narrow, '00000101');
    writer.change(wide, 5n);
    await writer.close();
    expect(readFileSync(path, 'utf8')).toMatch(/\$end\n#2\n$/);
  });

  it('keeps memory bounded through drain() when made with new', async () => {
    const path = join(directory, 'drained.vcd');
    const writer = new VcdWriter(path);
    const ids = Array.from({ length: 50 }, (_, index) => writer.addSignal(['top'], `s${index}`, 32));
    writer.beginDump();
    let maxQueued = 0;
    for (let step = 0; step < 8_000; step++) {
      writer.setTime(step);
      for (const id of ids) writer.change(id, (step * 2654435761 + id) >>> 0);
      maxQueued = Math.max(maxQueued, writer.queuedBytes);
      if (writer.needsDrain) await writer.drain();
    }
    await writer.close();
    expect(statSync(path).size).toBeGreaterThan(12 * 2 ** 20);
    expect(maxQueued).toBeLessThan(2 * 2 ** 20);
  });

  it.skipIf(!hasTool('vcd2fst') || !hasTool('fst2vcd'))(
    'is accepted by GTKWave vcd2fst without warnings, and fst2vcd reads back to the same values',
    async () => {
      const path = join(directory, 'gtkwave.vcd');
      await writeSample(path);
      const fst = join(directory, 'gtkwave.fst');
      const conversion = spawnSync('vcd2fst', [path, fst], { encoding: 'utf8' });
      expect(conversion.status).toBe(0);
      expect(conversion.stderr).toBe('');
      expect(conversion.stdout).not.toMatch(/warn|error/i);
      const back = parseVcd(execFileSync('fst2vcd', [fst], { encoding: 'utf8' }), 'fst2vcd output');
      const original = readVcdFile(path);
      expect(back.timescale.text).toBe('10ps');
      expect(back.signals.map((signal) => [signal.fullName, signal.width])).toEqual(
        original.signals.map((signal) => [signal.fullName, signal.width]),
      );
      for (const signal of original.signals) {
        const other = findSignal(back, signal.fullName);
        for (let time = 0; time <= original.endTime; time++)
          expect(valueAt(back, other, time)).toBe(valueAt(original, signal, time));
      }
    },
  );
  if (!hasTool('vcd2fst'))
    console.warn('vcd2fst/fst2vcd not found (apt-get install gtkwave): GTKWave acceptance test skipped');

  it('streams 10^5 steps of 100 signals with bounded memory, from a loop that never yields', async () => {
    const path = join(directory, 'big.vcd');
    const steps = 100_000;
    const writer = await VcdWriter.open(path);
    const ids = Array.from({ length: 100 }, (_, index) =>
      writer.addSignal(['top', `block${index % 10}`], `s${index}`, index % 3 === 0 ? 1 : index % 3 === 1 ? 16 : 70),
    );
    writer.beginDump();
    // the 70-bit signals' values as a simulator would keep them: one bigint per distinct value
    let lastWide = -1;
    let lastWideValue = 0n;
    const wide = (value: number): bigint => {
      if (value !== lastWide) [lastWide, lastWideValue] = [value, BigInt(value) << 40n];
      return lastWideValue;
    };
    // Retained memory, not garbage the collector has yet to sweep: collect before each sample.
    setFlagsFromString('--expose_gc');
    const collect = runInNewContext('gc') as () => void;
    const retained = (): number => {
      collect();
      return process.memoryUsage().heapUsed;
    };
    const baseline = retained();
    let peak = baseline;
    let maxQueued = 0;
    // CPU time, not wall time: the machine may be shared (the forced collections are included)
    const started = process.cpuUsage();
    for (let step = 0; step < steps; step++) {
      writer.setTime(step * 10);
      for (let index = 0; index < ids.length; index++) {
        // signal i changes every (i % 16 + 2) steps: about one in eight per step; unchanged values cost a comparison
        const value = Math.floor(step / ((index % 16) + 2));
        writer.change(index, index % 3 === 0 ? value & 1 : index % 3 === 1 ? value & 0xffff : wide(value));
      }
      if (step % 10_000 === 0) peak = Math.max(peak, retained());
      maxQueued = Math.max(maxQueued, writer.queuedBytes);
    }
    await writer.close();
    const seconds = process.cpuUsage(started).user / 1e6;
    const size = statSync(path).size;
    console.log(
      `VcdWriter: ${steps} steps × 100 signals → ${(size / 2 ** 20).toFixed(1)} MB in ${seconds.toFixed(2)} s of CPU, retained heap growth ${((peak - baseline) / 2 ** 20).toFixed(1)} MB, at most ${(maxQueued / 2 ** 20).toFixed(1)} MB queued for the disk`,
    );
    expect(size).toBeGreaterThan(10 * 2 ** 20);
    expect(peak - baseline).toBeLessThan(size / 8);
    expect(maxQueued).toBeLessThan(2 * 2 ** 20);
    expect(seconds).toBeLessThan(10);
    const text = readFileSync(path, 'latin1');
    expect(text.slice(text.lastIndexOf('\n#') + 1, text.indexOf('\n', text.lastIndexOf('\n#') + 1))).toBe(
      `#${(steps - 1) * 10}`,
    );
  });
});
