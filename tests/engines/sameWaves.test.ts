import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { StreamFifoChain } from '../../hw/examples/streamFifoChain.ts';
import { TsEngine } from '../../engines/ts/tsEngine.ts';
import { VerilatorEngine } from '../../engines/verilator/verilatorEngine.ts';
import { IcarusEngine } from '../../engines/icarus/icarusEngine.ts';
import type { Engine, PortValues } from '../../hw/contract/engine.ts';
import { readVcdFile, type VcdTrace } from '../../waves/vcdReader.ts';
import { sampleCycles } from '../../waves/sampling.ts';
import { traceToWaveDrom } from '../../waves/wavedrom.ts';

const root = join(import.meta.dirname, '..', '..');
/** A cold Verilator build on a busy two-core machine can take minutes; the cache makes reruns fast. */
const BUILD_TIMEOUT_MS = 600_000;

function gen(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [join(root, 'bin', 'gen.js'), 'wave', ...args], {
    cwd: root,
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const CYCLES = 16;
/** A FIFO chain (three sub-module instances) with back-pressure; in_data is 0x40 + cycle, poked only in odd cycles. */
const inputs: PortValues[] = Array.from({ length: CYCLES }, (_, cycle) => ({
  reset: cycle === 0 ? 1n : 0n,
  in_valid: BigInt(cycle % 2),
  in_data: BigInt(cycle % 2 === 1 ? 0x40 + cycle : 0),
  out_ready: cycle % 3 === 0 ? 0n : 1n,
}));

const signalList = (trace: VcdTrace): string[] =>
  trace.signals.map((signal) => `${signal.fullName}/${signal.width}`).sort();
const scopes = (trace: VcdTrace): string[] => [...new Set(trace.signals.map((signal) => signal.path.join('.')))].sort();

describe('one waveform whatever the engine', () => {
  const design = elaborate(StreamFifoChain, {});
  const dir = mkdtempSync(join(tmpdir(), 'same-waves-'));
  const engines: Engine[] = [new TsEngine(), new VerilatorEngine(), new IcarusEngine()];
  const files = new Map<string, string>();
  const traces = new Map<string, VcdTrace>();
  const outputs = new Map<string, PortValues[]>();

  beforeAll(async () => {
    for (const engine of engines) {
      const file = join(dir, `${engine.name}.vcd`);
      const run = await engine.run(design, inputs, { vcd: file });
      outputs.set(engine.name, run.outputs);
      files.set(engine.name, file);
      traces.set(engine.name, await readVcdFile(file));
    }
  }, BUILD_TIMEOUT_MS);

  it('has the same scopes, user names, timescale and end on every engine', () => {
    const ts = traces.get('ts')!;
    expect(scopes(ts)).toEqual([
      'StreamFifoChain',
      'StreamFifoChain.first',
      'StreamFifoChain.last',
      'StreamFifoChain.skid',
    ]);
    expect(ts.timescale.text).toBe('1ns');
    expect(signalList(ts)).toContain('StreamFifoChain.first.occupancy/2');
    for (const name of ['verilator', 'icarus']) {
      const trace = traces.get(name)!;
      expect(scopes(trace), name).toEqual(scopes(ts));
      expect(signalList(trace), name).toEqual(signalList(ts));
      expect(trace.timescale.text, name).toBe(ts.timescale.text);
      expect(trace.endTime, name).toBe(ts.endTime);
      // No wrapper, harness or internal names.
      expect(
        trace.signals.filter(
          (signal) => /^(TOP|tb_|_n\d)/.test(signal.fullName) || /(^|\.)(tb_|_n\d)/.test(signal.fullName),
        ),
      ).toEqual([]);
    }
  });

  it('has the same values cycle by cycle, one cycle per testbench cycle, the clock period 10 ns', () => {
    const sampled = new Map<string, Map<string, string[]>>();
    for (const [name, trace] of traces) {
      const { edges, values } = sampleCycles(trace, { clock: 'StreamFifoChain.clk' }, trace.signals);
      expect(edges.length, name).toBe(CYCLES);
      expect(edges.slice(0, 3), name).toEqual([5, 15, 25]);
      sampled.set(name, new Map([...values].map(([signal, samples]) => [signal.fullName, samples])));
    }
    const ts = sampled.get('ts')!;
    for (const name of ['verilator', 'icarus']) {
      const other = sampled.get(name)!;
      for (const [signal, samples] of ts) expect(other.get(signal), `${name} ${signal}`).toEqual(samples);
    }
    // Cycle k's sample is what the testbench saw in cycle k: its inputs and its outputs.
    const traced = ts.get('StreamFifoChain.in_data')!;
    expect(traced.map((value) => parseInt(value, 2))).toEqual(inputs.map((input) => Number(input.in_data)));
    const outData = ts.get('StreamFifoChain.out_data')!;
    expect(outData.map((value) => BigInt(parseInt(value, 2)))).toEqual(
      outputs.get('ts')!.map((output) => output.out_data),
    );
  });

  it('gen wave diff finds no divergence between any two engines, by time and by cycle', () => {
    const names = ['ts', 'verilator', 'icarus'];
    for (const a of names)
      for (const b of names) {
        if (a >= b) continue;
        for (const align of ['time', 'cycle']) {
          const result = gen('diff', files.get(a)!, files.get(b)!, '--align', align);
          expect(`${a}/${b}/${align}: ${result.stdout}${result.stderr}`).toMatch(/identical/);
          expect(result.status).toBe(0);
        }
      }
  });

  it('gen wave diff finds a planted difference at its testbench cycle', () => {
    // in_data is poked in cycle 7 at time 70; plant a different value there in a copy of Icarus's trace.
    const text = readFileSync(files.get('icarus')!, 'utf8');
    const trace = traces.get('icarus')!;
    const id = trace.signals.find((signal) => signal.fullName === 'StreamFifoChain.in_data')!.id;
    const lines = text.split('\n');
    const at = lines.indexOf('#70');
    expect(at).toBeGreaterThan(0);
    // Last in its time step, so it is the settled value there.
    const next = lines.findIndex((line, index) => index > at && line.startsWith('#'));
    lines.splice(next, 0, `b11111111 ${id}`);
    const planted = join(dir, 'planted.vcd');
    writeFileSync(planted, lines.join('\n'));
    for (const align of ['time', 'cycle']) {
      const result = gen('diff', files.get('verilator')!, planted, '--align', align);
      expect(result.status, result.stderr).toBe(1);
      expect(result.stdout).toMatch(/\(cycle 7\)/);
      expect(result.stdout).toMatch(/StreamFifoChain\.in_data/);
    }
  });

  it('labels WaveDrom cycles as the testbench numbers them', () => {
    for (const [name, trace] of traces) {
      const picture = traceToWaveDrom(trace, { patterns: ['StreamFifoChain.in_data'], fromCycle: 2, toCycle: 5 });
      expect(picture.head?.tock, name).toBe(2);
      const group = JSON.stringify(picture.signal);
      // Inputs poked in cycles 3 and 5 (0x43, 0x45) appear in slots 3 and 5: `=` slots after 0 at cycle 2.
      expect(group, name).toContain('"data":["0","43","0","45"]');
    }
  });
});
