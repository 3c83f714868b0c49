import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { Counter } from '../../hw/examples/counter.ts';
import { TwoClockFifo } from '../../hw/examples/twoClockFifo.ts';
import { TsEngine } from '../../engines/ts/tsEngine.ts';
import { VerilatorEngine } from '../../engines/verilator/verilatorEngine.ts';
import { IcarusEngine } from '../../engines/icarus/icarusEngine.ts';
import type { Engine, PortValues } from '../../hw/contract/engine.ts';
import { harnessPortsOf } from '../../engines/harness/harnessStimulus.ts';
import { PortFrames } from '../../hw/contract/portFrames.ts';
import { hasTool } from '../../tools/toolchain.ts';
import type { IrDesign } from '../../hw/ir/ir.ts';
import { fastCheckSeed } from '../support/seed.ts';

/*
 * EngineSession.runFrames, the piece-by-piece run of `gen sim`: a stream fed to a session in
 * pieces of random lengths gives the batch run's output frames and its VCD, byte for byte, on
 * every engine, for a one-clock design (pokes of changed inputs and runs of steps) and one of two
 * clock domains (a step of the clock schedule per frame, carried across pieces). `abort` leaves
 * no trace and no temporary. Engines whose tool is missing are left out.
 */

const seed = fastCheckSeed('sessionFrames');
const ENGINES: readonly (readonly [string, () => Engine])[] = [
  ['ts', () => new TsEngine()],
  ...(hasTool('verilator') ? [['verilator', () => new VerilatorEngine()] as const] : []),
  ...(hasTool('iverilog') ? [['icarus', () => new IcarusEngine()] as const] : []),
];

const DESIGNS: readonly (readonly [string, IrDesign, fc.Arbitrary<PortValues>])[] = [
  [
    'Counter',
    elaborate(Counter, { width: 8 }),
    fc.record({ reset: fc.bigInt(0n, 1n), enable: fc.bigInt(0n, 1n) }, { requiredKeys: [] }),
  ],
  [
    'TwoClockFifo',
    elaborate(TwoClockFifo, { width: 8, depth: 4 }),
    fc.record(
      {
        rst_prod: fc.bigInt(0n, 1n),
        rst_cons: fc.bigInt(0n, 1n),
        produce: fc.bigInt(0n, 1n),
        consume: fc.bigInt(0n, 1n),
      },
      { requiredKeys: [] },
    ),
  ],
];

/** A stimulus of 300 cycles and the lengths of the pieces it is fed in. */
function sample(entry: fc.Arbitrary<PortValues>): { stimulus: PortValues[]; pieces: number[] } {
  const [stimulus] = fc.sample(fc.array(entry, { minLength: 300, maxLength: 300 }), { seed, numRuns: 1 });
  const [cuts] = fc.sample(fc.uniqueArray(fc.integer({ min: 1, max: 299 }), { maxLength: 6 }), {
    seed: seed + 1,
    numRuns: 1,
  });
  const bounds = [0, ...cuts!.sort((a, b) => a - b), 300];
  return { stimulus: stimulus!, pieces: bounds.slice(1).map((end, index) => end - bounds[index]!) };
}

describe.each(DESIGNS)('runFrames in pieces on %s', (_name, design, entry) => {
  const ports = harnessPortsOf(design);
  const { stimulus, pieces } = sample(entry);
  const all = PortFrames.from(ports.inputs, stimulus);

  it.each(ENGINES)(
    '%s: the batch run’s outputs and VCD',
    async (_engine, create) => {
      const engine = create();
      const dir = mkdtempSync(join(tmpdir(), `session-frames-${engine.name}-`));
      const batch = await engine.run(design, stimulus, { vcd: join(dir, 'batch.vcd') });
      const session = await engine.open(design, { vcd: join(dir, 'session.vcd') });
      const outputs: Uint32Array[] = [];
      let first = 0;
      for (const cycles of pieces) {
        const piece = PortFrames.of(
          ports.inputs,
          all.words.slice(first * all.stride, (first + cycles) * all.stride),
          cycles,
        );
        const answer = await session.runFrames(piece);
        expect(answer.cycles).toBe(cycles);
        outputs.push(answer.words);
        first += cycles;
      }
      expect(session.cycle).toBe(300);
      await session.close();
      expect(
        Buffer.concat(outputs.map((words) => Buffer.from(words.buffer, words.byteOffset, words.byteLength))),
      ).toEqual(Buffer.from(batch.frames.words.buffer, batch.frames.words.byteOffset, batch.frames.words.byteLength));
      expect(readFileSync(join(dir, 'session.vcd'), 'latin1')).toBe(readFileSync(join(dir, 'batch.vcd'), 'latin1'));
    },
    300_000,
  );

  it.each(ENGINES)(
    '%s: abort leaves no trace and no temporary',
    async (_engine, create) => {
      const dir = mkdtempSync(join(tmpdir(), `session-frames-abort-`));
      const session = await create().open(design, { vcd: join(dir, 'run.vcd') });
      await session.runFrames(PortFrames.of(ports.inputs, all.words.slice(0, 50 * all.stride), 50));
      await session.abort();
      expect(readdirSync(dir)).toEqual([]);
      await expect(session.runFrames(all)).rejects.toThrow(/closed|aborted/);
    },
    300_000,
  );
});
