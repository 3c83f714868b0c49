import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { createEngine, availableEngines } from '../../engines/index.ts';
import { PortFrames, stimulusFrames } from '../../hw/contract/portFrames.ts';
import { emptyInputFrames, inputFrames } from '../../engines/designFrames.ts';
import type { EngineName, PortValues } from '../../hw/contract/engine.ts';
import { fastCheckSeed } from '../support/seed.ts';
import { FrameWidths } from '../support/frameWidths.ts';

const seed = fastCheckSeed('portFrames');

const design = elaborate(FrameWidths);
const ports = [
  { name: 'narrow', width: 3 },
  { name: 'wide', width: 70 },
];

describe('PortFrames', () => {
  it('lays out every port in every frame, least significant word first, holding what a cycle leaves out', () => {
    const frames = PortFrames.from(ports, [{ narrow: 5n, wide: (1n << 69n) | 0x1_0000_0002n }, { narrow: 1n }, {}]);
    expect(frames.stride).toBe(4);
    expect([...frames.words]).toEqual([5, 2, 1, 32, 1, 2, 1, 32, 1, 2, 1, 32]);
    expect(frames.value(2, 'wide')).toBe((1n << 69n) | 0x1_0000_0002n);
    expect(frames.rows()).toEqual([
      { narrow: 5n, wide: (1n << 69n) | 0x1_0000_0002n },
      { narrow: 1n, wide: (1n << 69n) | 0x1_0000_0002n },
      { narrow: 1n, wide: (1n << 69n) | 0x1_0000_0002n },
    ]);
  });

  it('refuses an unknown input, a value that does not fit and a frame outside the stream, naming the cycle', () => {
    expect(() => PortFrames.from(ports, [{}, { nope: 1n }], 'FrameWidths')).toThrow(
      "cycle 1: FrameWidths has no input 'nope' (inputs: narrow, wide)",
    );
    expect(() => PortFrames.from(ports, [{ narrow: 8n }])).toThrow(
      "cycle 0: value 8 for 'narrow' does not fit in 3 unsigned bits",
    );
    expect(() => PortFrames.from(ports, [{ wide: 1n << 70n }])).toThrow(/'wide' does not fit in 70 unsigned bits/);
    const frames = PortFrames.empty(ports, 2);
    expect(() => frames.set(2, 'narrow', 1)).toThrow('cycle 2 is outside these 2 frames');
    expect(() => frames.set(0, 'narrow', -1)).toThrow(/does not fit in 3 unsigned bits/);
    expect(() => frames.set(0, 'narrow', 1.5)).toThrow(/does not fit in 3 unsigned bits/);
  });

  it('takes frames of exactly the top inputs, and says which ports differ otherwise', () => {
    const top = { top: 'FrameWidths', inputs: ports };
    const own = PortFrames.empty(ports, 1);
    expect(stimulusFrames(top, own)).toBe(own);
    expect(() => stimulusFrames(top, PortFrames.empty([{ name: 'narrow', width: 3 }], 1))).toThrow(
      'the stimulus frames are of ports narrow[3], but FrameWidths has inputs narrow[3], wide[70]',
    );
  });
});

const engines = (['ts', 'verilator', 'icarus'] as const).filter((name) => availableEngines().available.includes(name));

describe.each(engines)('%s on frames', (name: EngineName) => {
  it('gives the outputs of the same stream as rows, as frames and as decoded records', async () => {
    const engine = await createEngine(name);
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record(
            { narrow: fc.bigInt({ min: 0n, max: 7n }), wide: fc.bigInt({ min: 0n, max: (1n << 70n) - 1n }) },
            { requiredKeys: [] },
          ),
          { minLength: 1, maxLength: 12 },
        ),
        async (rows: PortValues[]) => {
          const [fromRows, fromFrames] = await engine.runMany(design, [rows, inputFrames(design, rows)]);
          expect([...fromFrames!.frames.words]).toEqual([...fromRows!.frames.words]);
          expect(fromFrames!.outputs).toEqual(fromRows!.outputs);
          expect(fromFrames!.frames.cycles).toBe(rows.length);
          // The decoded records are the frames' values: the held narrow input shows one cycle later.
          const sums = rows.map((_, cycle) => fromRows!.frames.value(cycle, 'sum'));
          expect(fromRows!.outputs.map((outputs) => outputs['sum'])).toEqual(sums);
        },
      ),
      { seed, numRuns: name === 'ts' ? 60 : 4 },
    );
  });

  it('runs frames filled with set, and a stream of no cycles', async () => {
    const engine = await createEngine(name);
    const frames = emptyInputFrames(design, 3);
    frames.set(0, 'narrow', 6);
    frames.set(1, 'wide', (1n << 69n) + 1n);
    const [run, empty] = await engine.runMany(design, [frames, emptyInputFrames(design, 0)]);
    expect(run!.outputs.map((outputs) => outputs['held'])).toEqual([0n, 6n, 0n]);
    expect(run!.frames.value(1, 'sum')).toBe((1n << 69n) + 1n);
    expect(empty!.outputs).toEqual([]);
  });
});
