import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { SerialTransmitter } from '../../hw/examples/serialTransmitter.ts';
import { emitVerilog } from '../../hw/verilog/emit.ts';
import { TsEngine } from '../../engines/ts/tsEngine.ts';
import { VerilatorEngine } from '../../engines/verilator/verilatorEngine.ts';
import { IcarusEngine } from '../../engines/icarus/icarusEngine.ts';
import type { Engine, PortValues } from '../../hw/contract/engine.ts';
import { readVcdFile, type VcdTrace } from '../../waves/vcdReader.ts';

const root = join(import.meta.dirname, '..', '..');
/** A cold Verilator build on a busy two-core machine can take minutes; the cache makes reruns fast. */
const BUILD_TIMEOUT_MS = 600_000;

const CYCLES = 24;
const inputs: PortValues[] = Array.from({ length: CYCLES }, (_, cycle) => ({
  reset: cycle === 0 ? 1n : 0n,
  in_valid: cycle === 2 || cycle === 14 ? 1n : 0n,
  in_data: cycle === 2 ? 0xa5n : cycle === 14 ? 0x3cn : 0n,
}));

const names = (trace: VcdTrace): string[] => trace.signals.map((signal) => signal.fullName);
const valuesOf = (trace: VcdTrace, fullName: string): string => {
  const signal = trace.signals.find((candidate) => candidate.fullName === fullName)!;
  const changes = trace.changes.get(signal.id)!;
  return changes.times.map((time, index) => `${time}:${String(changes.values[index])}`).join(' ');
};

describe('internal nets in the trace (RunOptions.internal, gen sim --internal)', () => {
  const design = elaborate(SerialTransmitter, {});
  /** The internal wires the emitted Verilog keeps (`_n…` not inlined into their one reader). */
  const wires = [
    ...[...emitVerilog(design).values()].join('\n').matchAll(/\bwire\s+(?:\[[^\]]*\]\s*)?(_n\d+)\s*;/g),
  ].map((match) => `SerialTransmitter.${match[1]}`);
  const dir = mkdtempSync(join(tmpdir(), 'internal-trace-'));
  const plain = new Map<string, VcdTrace>();
  const internal = new Map<string, VcdTrace>();
  const engines: Engine[] = [new VerilatorEngine(), new IcarusEngine()];

  beforeAll(async () => {
    for (const engine of engines) {
      await engine.run(design, inputs, { vcd: join(dir, `${engine.name}.vcd`) });
      await engine.run(design, inputs, { vcd: join(dir, `${engine.name}-internal.vcd`), internal: true });
      plain.set(engine.name, await readVcdFile(join(dir, `${engine.name}.vcd`)));
      internal.set(engine.name, await readVcdFile(join(dir, `${engine.name}-internal.vcd`)));
    }
  }, BUILD_TIMEOUT_MS);

  it('keeps the internal wires on Verilator and Icarus, beside the same named signals', () => {
    expect(wires.length).toBeGreaterThan(0);
    for (const engine of ['verilator', 'icarus']) {
      const withInternal = names(internal.get(engine)!);
      const without = names(plain.get(engine)!);
      expect(
        without.filter((name) => /\._n\d+$/.test(name)),
        engine,
      ).toEqual([]);
      expect(withInternal.filter((name) => /\._n\d+$/.test(name)).sort(), engine).toEqual([...wires].sort());
      expect(
        withInternal.filter((name) => !/\._n\d+$/.test(name)),
        engine,
      ).toEqual(without);
      expect(
        withInternal.some((name) => name.startsWith('TOP')),
        engine,
      ).toBe(false);
    }
  });

  it('gives the internal wires the same values on both engines', () => {
    for (const name of wires)
      expect(valuesOf(internal.get('icarus')!, name), name).toBe(valuesOf(internal.get('verilator')!, name));
  });

  it('is refused on the ts engine, which keeps no values for internal nets', async () => {
    await expect(new TsEngine().run(design, inputs, { vcd: join(dir, 'ts.vcd'), internal: true })).rejects.toThrow(
      /ts engine keeps no values for internal nets/,
    );
  });

  it(
    'gen sim --internal: traces internal wires on Icarus; one line, exit 1, on ts',
    () => {
      const vectors = join(dir, 'vectors.jsonl');
      writeFileSync(
        vectors,
        inputs
          .map((vector) =>
            JSON.stringify({
              in: Object.fromEntries(Object.entries(vector).map(([name, value]) => [name, Number(value)])),
            }),
          )
          .join('\n') + '\n',
      );
      const run = (engine: string, vcd: string): { status: number | null; stderr: string } =>
        spawnSync(
          process.execPath,
          [
            join(root, 'bin', 'gen.js'),
            'sim',
            '--top',
            'SerialTransmitter',
            '--vectors',
            vectors,
            '--engine',
            engine,
            '--vcd',
            vcd,
            '--internal',
            '--out',
            join(dir, `${engine}.out.jsonl`),
          ],
          { cwd: root, encoding: 'utf8' },
        );
      const icarus = run('icarus', join(dir, 'cli-icarus.vcd'));
      expect(icarus.stderr).toBe('');
      expect(icarus.status).toBe(0);
      const traced = names(readVcdFile(join(dir, 'cli-icarus.vcd')));
      expect(traced.filter((name) => /\._n\d+$/.test(name)).sort()).toEqual([...wires].sort());
      const ts = run('ts', join(dir, 'cli-ts.vcd'));
      expect(ts.status).toBe(1);
      expect(ts.stderr.trim().split('\n')).toHaveLength(1);
      expect(ts.stderr).toMatch(/ts engine keeps no values for internal nets/);
    },
    BUILD_TIMEOUT_MS,
  );
});
