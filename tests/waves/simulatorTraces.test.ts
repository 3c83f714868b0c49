import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDivergence } from '../../waves/divergence.ts';
import { findSignal, sampleCycles, type CycleSpec } from '../../waves/sampling.ts';
import { readVcdFile, type VcdTrace } from '../../waves/vcdReader.ts';
import { bigIntToBits } from '../../waves/vcdValues.ts';

/**
 * The reader against VCDs that Verilator and Icarus write for the same design and stimulus
 * (fixtures/shiftcount.v), both checked per cycle against a TypeScript model of that design.
 */

const source = join(import.meta.dirname, 'fixtures', 'shiftcount.v');
const hasVerilator = spawnSync('which', ['verilator']).status === 0;
const hasIcarus = spawnSync('which', ['iverilog']).status === 0 && spawnSync('which', ['vvp']).status === 0;
if (!hasVerilator) console.warn('verilator not found (apt-get install verilator): Verilator trace test skipped');
if (!hasIcarus) console.warn('iverilog/vvp not found (apt-get install iverilog): Icarus trace test skipped');

const work = mkdtempSync(join(tmpdir(), 'vcd-simulators-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The Verilator binary for the fixture, built once per source and Verilator version and kept under the OS temp dir. */
function verilatorBinary(): string {
  const version = execFileSync('verilator', ['--version'], { encoding: 'utf8' });
  const key = createHash('sha256').update(version).update(readFileSync(source)).digest('hex').slice(0, 16);
  const cache = join(tmpdir(), 'coruscant-waves-cache', `verilator-shiftcount-${key}`);
  const binary = join(cache, 'Vtb');
  if (existsSync(binary)) return binary;
  mkdirSync(join(tmpdir(), 'coruscant-waves-cache'), { recursive: true });
  const building = `${cache}.${process.pid}.tmp`;
  execFileSync('verilator', ['--binary', '--trace', '-Wno-fatal', '--top-module', 'tb', '-Mdir', building, source], {
    stdio: 'pipe',
  });
  rmSync(cache, { recursive: true, force: true });
  renameSync(building, cache);
  return binary;
}

/** Runs a simulator binary in its own directory; the testbench dumps to dump.vcd there. */
function runAndRead(name: string, command: string, args: string[]): VcdTrace {
  const directory = join(work, name);
  mkdirSync(directory, { recursive: true });
  execFileSync(command, args, { cwd: directory, stdio: 'pipe' });
  return readVcdFile(join(directory, 'dump.vcd'));
}

interface ModelState {
  q1: bigint;
  cnt: bigint;
  lcg: bigint;
  sh: bigint;
}

/**
 * The design's state after each rising edge k (k = 0 … 120): what the per-cycle sample of cycle k+1 shows.
 * The testbench holds reset over edges 0 and 1 and, from the falling edge before edge 2 on,
 * drives din from a 5-bit LFSR seeded with 1.
 */
function modelStates(): ModelState[] {
  const mask64 = (1n << 64n) - 1n;
  const mask100 = (1n << 100n) - 1n;
  let lfsr = 1;
  let state: ModelState = { q1: 0n, cnt: 0n, lcg: 1n, sh: 0n };
  const states: ModelState[] = [];
  for (let edge = 0; edge <= 120; edge++) {
    const reset = edge <= 1;
    let din = 0n;
    if (edge >= 1) {
      din = BigInt(lfsr & 1);
      lfsr = ((lfsr << 1) & 0x1e) | (((lfsr >> 4) ^ (lfsr >> 2)) & 1);
    }
    state = reset
      ? { q1: 0n, cnt: 0n, lcg: 1n, sh: 0n }
      : {
          q1: state.q1 ^ din,
          cnt: (state.cnt + 37n) & 0xffn,
          lcg: (state.lcg * 6364136223846793005n + 1442695040888963407n) & mask64,
          sh: ((state.sh << 1n) | (din ^ (state.cnt & 1n))) & mask100,
        };
    states.push(state);
  }
  return states;
}

const WIDTHS = { q1: 1, cnt: 8, lcg: 64, sh: 100 } as const;

/** Per-cycle samples of the four registers under `prefix` (e.g. `TOP.tb.dut`). */
function registerSamples(trace: VcdTrace, prefix: string, spec: CycleSpec): Record<keyof ModelState, string[]> {
  const names = Object.keys(WIDTHS) as (keyof ModelState)[];
  const signals = names.map((name) => findSignal(trace, `${prefix}.${name}`));
  const { values } = sampleCycles(trace, spec, signals);
  return Object.fromEntries(names.map((name, index) => [name, values.get(signals[index]!)!])) as Record<
    keyof ModelState,
    string[]
  >;
}

/** Cycle k samples just before edge k: the state edge k-1 left (cycle 0: the state before any edge). */
function expectModel(samples: Record<keyof ModelState, string[]>): void {
  const states = modelStates();
  for (const name of Object.keys(WIDTHS) as (keyof ModelState)[]) {
    expect(samples[name].length, name).toBe(states.length);
    expect(samples[name].slice(1), name).toEqual(
      states.slice(0, -1).map((state) => bigIntToBits(state[name], WIDTHS[name])),
    );
  }
}

describe.skipIf(!hasVerilator || !hasIcarus)('reading Verilator and Icarus traces of one design', () => {
  let verilator: VcdTrace;
  let icarus: VcdTrace;

  beforeAll(() => {
    const binary = verilatorBinary();
    verilator = runAndRead('verilator', binary, []);
    execFileSync('iverilog', ['-o', join(work, 'icarus.vvp'), source]);
    icarus = runAndRead('icarus', 'vvp', ['-n', join(work, 'icarus.vvp')]);
  }, 300_000);

  it('reads both headers: scopes, widths, aliases and timescale', () => {
    for (const trace of [verilator, icarus]) {
      expect(trace.timescale.text).toBe('1ps');
      expect(trace.endTime).toBe(1_210_000);
    }
    const prefix = (trace: VcdTrace) => (trace === verilator ? 'TOP.tb' : 'tb');
    for (const trace of [verilator, icarus]) {
      for (const [name, width] of Object.entries(WIDTHS))
        expect(findSignal(trace, `${prefix(trace)}.dut.${name}`).width).toBe(width);
    }
    // Verilator gives the port and the wire it drives one id code; Icarus keeps separate codes.
    expect(findSignal(verilator, 'TOP.tb.cnt').id).toBe(findSignal(verilator, 'TOP.tb.dut.cnt').id);
    expect(findSignal(icarus, 'tb.cnt').id).not.toBe(findSignal(icarus, 'tb.dut.cnt').id);
  });

  it('gives per-cycle values equal to the TypeScript model, cut by the clock signal', () => {
    expectModel(registerSamples(verilator, 'TOP.tb.dut', { clock: 'TOP.tb.clk' }));
    expectModel(registerSamples(icarus, 'tb.dut', { clock: 'tb.clk' }));
  });

  it('gives the same values cut by a clock period instead', () => {
    expectModel(registerSamples(verilator, 'TOP.tb.dut', { period: 10_000, offset: 5_000 }));
    expectModel(registerSamples(icarus, 'tb.dut', { period: 10_000, offset: 5_000 }));
  });

  it('finds the two traces identical apart from the x that 4-state Icarus shows before the first edge', () => {
    const strict = findDivergence(verilator, icarus);
    expect(strict.compared).toBe(16);
    expect(strict.divergence?.time).toBe(0);
    expect(strict.divergence?.differences.map((difference) => difference.name).sort()).toEqual([
      'tb.cnt',
      'tb.dut.cnt',
      'tb.dut.lcg',
      'tb.dut.q1',
      'tb.dut.sh',
      'tb.lcg',
      'tb.q1',
      'tb.sh',
    ]);
    expect(findDivergence(verilator, icarus, { xMatchesAnything: true }).divergence).toBeUndefined();
    // By cycle too: cycle 0 samples the state before the first edge, x in Icarus.
    expect(findDivergence(verilator, icarus, { align: 'cycle' }).divergence).toMatchObject({ cycle: 0, time: 5000 });
    expect(findDivergence(verilator, icarus, { align: 'cycle', xMatchesAnything: true }).divergence).toBeUndefined();
  });
});
