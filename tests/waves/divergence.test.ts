import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { divergencePicture, findDivergence } from '../../waves/divergence.ts';
import { readVcdFile, type VcdTrace } from '../../waves/vcdReader.ts';
import { bigIntToBits } from '../../waves/vcdValues.ts';
import { writeCounterTrace } from './traceFixtures.ts';

const directory = mkdtempSync(join(tmpdir(), 'vcd-divergence-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('divergence finder', () => {
  let reference: VcdTrace;
  let verilatorLike: VcdTrace;
  let planted: VcdTrace;
  let otherTimescale: VcdTrace;

  beforeAll(async () => {
    await writeCounterTrace(join(directory, 'reference.vcd'));
    await writeCounterTrace(join(directory, 'verilator-like.vcd'), { top: ['TOP', 'top'] });
    await writeCounterTrace(join(directory, 'planted.vcd'), { top: ['TOP', 'top'], plantAt: 17 });
    // the same trace in ps: 10 ns = 10000 ps
    await writeCounterTrace(join(directory, 'ps.vcd'), { timescale: '1ps', period: 10_000 });
    [reference, verilatorLike, planted, otherTimescale] = ['reference', 'verilator-like', 'planted', 'ps'].map((name) =>
      readVcdFile(join(directory, `${name}.vcd`)),
    ) as [VcdTrace, VcdTrace, VcdTrace, VcdTrace];
  });

  it('reports no divergence for identical traces, stripping Verilator-style TOP automatically', () => {
    const report = findDivergence(reference, verilatorLike);
    expect(report.compared).toBe(4);
    expect(report.onlyInA).toEqual([]);
    expect(report.onlyInB).toEqual([]);
    expect(report.divergence).toBeUndefined();
    expect(findDivergence(reference, verilatorLike, { align: 'cycle' }).divergence).toBeUndefined();
  });

  it('reconciles different timescales', () => {
    expect(findDivergence(reference, otherTimescale).divergence).toBeUndefined();
    const report = findDivergence(otherTimescale, planted);
    expect(report.divergence?.timescale.text).toBe('1ps');
    expect(report.divergence?.time).toBe(170_000);
  });

  it('finds a planted mismatch at the right time, cycle and signals, with both values', () => {
    const report = findDivergence(reference, planted);
    expect(report.divergence).toMatchObject({ time: 170, cycle: 17 });
    const differences = report.divergence!.differences;
    // count 51 became 52: parity flips too (51 = 0b110011 has even popcount, 52 = 0b110100 odd)
    expect(differences.map((difference) => difference.name)).toEqual([
      'top.core.count',
      'top.core.parity',
      'top.core.wide',
    ]);
    expect(differences[0]).toEqual({ name: 'top.core.count', a: bigIntToBits(51n, 8), b: bigIntToBits(52n, 8) });
    expect(differences[1]).toEqual({ name: 'top.core.parity', a: '0', b: '1' });
    // By cycle, the time is that of the edge ending the cycle (the edge that samples it).
    expect(findDivergence(reference, planted, { align: 'cycle' }).divergence).toMatchObject({ cycle: 17, time: 175 });
  });

  it('compares only up to the end of the shorter trace', async () => {
    await writeCounterTrace(join(directory, 'longer.vcd'), { cycles: 60, plantAt: 50 });
    const longer = readVcdFile(join(directory, 'longer.vcd'));
    expect(findDivergence(reference, longer).divergence).toBeUndefined();
    expect(findDivergence(longer, planted).divergence?.cycle).toBe(17);
  });

  it('matches names only after the configured prefix strip', () => {
    const unstripped = findDivergence(reference, planted, { stripB: '' });
    expect(unstripped.compared).toBe(0);
    expect(unstripped.onlyInB).toContain('TOP.top.core.count');
    expect(findDivergence(reference, planted, { stripB: 'TOP' }).divergence?.cycle).toBe(17);
  });

  it('draws A and B lanes around the divergence', () => {
    const report = findDivergence(reference, planted);
    const picture = divergencePicture(reference, planted, report);
    expect(picture.head).toEqual({ text: 'first divergence at cycle 17', tock: 9 });
    const lanes = picture.signal.filter((lane) => 'name' in lane) as { name: string; wave: string; data?: string[] }[];
    expect(lanes.map((lane) => lane.name)).toEqual([
      'top.clk',
      'A:top.core.count',
      'B:top.core.count',
      'A:top.core.parity',
      'B:top.core.parity',
      'A:top.core.wide',
      'B:top.core.wide',
    ]);
    // cycles 9 … 25; the planted cycle is slot 8
    expect(lanes[1]!.data![8]).toBe('33');
    expect(lanes[2]!.data![8]).toBe('34');
    expect(() => divergencePicture(reference, verilatorLike, findDivergence(reference, verilatorLike))).toThrow(
      /do not diverge/,
    );
  });
});
