import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { defineModule, input, output } from '../../hw/core/index.ts';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { availableEngines, createEngine } from '../../engines/index.ts';
import { PortFrames } from '../../hw/contract/portFrames.ts';
import { inputFrames } from '../../engines/designFrames.ts';
import { compareOutputs, describeOutputMismatch, expectedFrames, outputDigest } from '../../engines/outputCompare.ts';
import type { EngineName, PortValues } from '../../hw/contract/engine.ts';
import { harnessPortsOf } from '../../engines/harness/harnessStimulus.ts';
import { OutputChecksum } from '../../bench/nativeHarness.ts';
import { framedRun } from '../../engines/framedRun.ts';
import { fastCheckSeed } from '../support/seed.ts';
import { FrameWidths } from '../support/frameWidths.ts';

const seed = fastCheckSeed('outputCompare');

const design = elaborate(FrameWidths);

/** b = a + 1, asserted never to overflow: a check that fails in the cycles where a is 15. */
const Checked = defineModule({
  name: 'ComparedChecked',
  defaults: {},
  ports: () => ({ a: input(4), b: output(4) }),
  build(m, io) {
    io.b.set(io.a.add(1));
    m.assert(io.a.ne(15), 'no overflow');
  },
});
const checked = elaborate(Checked);
const outputs = harnessPortsOf(design).outputs;

const rowArbitrary = fc.array(
  fc.record(
    { narrow: fc.bigInt({ min: 0n, max: 7n }), wide: fc.bigInt({ min: 0n, max: (1n << 70n) - 1n }) },
    { requiredKeys: [] },
  ),
  { minLength: 1, maxLength: 12 },
);

/** Golden rows of FrameWidths' outputs, each naming some of them. */
const goldenRows: fc.Arbitrary<PortValues[]> = fc.array(
  fc.record(
    {
      sum: fc.bigInt({ min: 0n, max: (1n << 70n) - 1n }),
      held: fc.bigInt({ min: 0n, max: 7n }),
      doubled: fc.bigInt({ min: 0n, max: (1n << 40n) - 1n }),
    },
    { requiredKeys: [] },
  ),
  { minLength: 1, maxLength: 12 },
);

describe('outputDigest', () => {
  it('is the FNV-1a checksum the native harness folds, over one stream', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 20 }), { minLength: 1, maxLength: 3 }), fc.integer(), (lengths, salt) => {
        const frames = PortFrames.empty(outputs, lengths[0]!);
        for (let index = 0; index < frames.words.length; index++) frames.words[index] = Math.imul(index + 1, salt);
        const checksum = new OutputChecksum(harnessPortsOf(design));
        checksum.add(framedRun(frames));
        expect(outputDigest(frames)).toBe(checksum.value);
      }),
      { seed, numRuns: 50 },
    );
    expect(outputDigest(PortFrames.empty(outputs, 0))).toBe('811c9dc5');
  });
});

describe('expectedFrames', () => {
  it('compares only the ports each golden row names, every bit of them', () => {
    const { frames, mask } = expectedFrames(design, [{ held: 5n }, {}, { sum: (1n << 69n) | 3n, doubled: 1n }]) as {
      frames: PortFrames;
      mask: PortFrames;
    };
    expect(frames.value(0, 'held')).toBe(5n);
    expect(mask.value(0, 'held')).toBe(7n);
    expect(mask.value(0, 'sum')).toBe(0n);
    expect(mask.value(1, 'held')).toBe(0n);
    expect(mask.value(2, 'sum')).toBe((1n << 70n) - 1n);
    expect(mask.value(2, 'doubled')).toBe((1n << 40n) - 1n);
    expect(frames.value(2, 'sum')).toBe((1n << 69n) | 3n);
  });

  it('gives no mask when every row names every output, and refuses an unknown one', () => {
    expect(expectedFrames(design, [{ sum: 0n, held: 0n, doubled: 0n }])).not.toHaveProperty('mask');
    expect(() => expectedFrames(design, [{ held: 1n, nope: 1n }])).toThrow(
      "cycle 0: FrameWidths has no output 'nope' (outputs: sum, held, doubled)",
    );
  });

  it('words a bad row as the port-by-port check does: the first bad value in port order, else the unknown name', () => {
    // held is 3 bits wide, doubled 40: both values are too wide, and the row names them out of port order.
    expect(() => expectedFrames(design, [{}, { nope: 1n, doubled: 1n << 40n, held: 8n }])).toThrow(
      "cycle 1: value 8 for 'held' does not fit in 3 unsigned bits",
    );
    expect(() => expectedFrames(design, [{ held: 1n }, { nope: undefined } as unknown as PortValues])).toThrow(
      "cycle 1: FrameWidths has no output 'nope'",
    );
    expect(() => expectedFrames(design, [{ held: -1n }])).toThrow("value -1 for 'held' does not fit");
  });

  it('holds exactly the named values, all their bits in the mask, on random golden rows', () => {
    fc.assert(
      fc.property(goldenRows, (rows) => {
        const expected = expectedFrames(design, rows) as { frames: PortFrames; mask?: PortFrames };
        const complete = rows.every((row) => outputs.every((port) => row[port.name] !== undefined));
        expect(expected.mask === undefined).toBe(complete);
        rows.forEach((row, cycle) =>
          outputs.forEach(({ name, width }) => {
            const value = row[name];
            expect(expected.frames.value(cycle, name)).toBe(value ?? 0n);
            if (expected.mask)
              expect(expected.mask.value(cycle, name)).toBe(value === undefined ? 0n : (1n << BigInt(width)) - 1n);
          }),
        );
      }),
      { seed, numRuns: 50 },
    );
  });
});

const engines = (['ts', 'verilator', 'icarus'] as const).filter((name) => availableEngines().available.includes(name));

describe('ts compare', () => {
  it('gives each stream of a batch, long and short in any order, the verdict of its own run', async () => {
    const engine = await createEngine('ts');
    await fc.assert(
      fc.asyncProperty(fc.array(rowArbitrary, { minLength: 1, maxLength: 5 }), async (streams) => {
        const inputs = streams.map((rows) => inputFrames(design, rows));
        const runs = await engine.runMany(design, inputs);
        // Golden outputs off by one in the last cycle's `held`: every stream has one mismatch to list.
        const expected = runs.map((run) => {
          const frames = PortFrames.empty(outputs, run.frames.cycles);
          frames.words.set(run.frames.words);
          const last = frames.cycles - 1;
          frames.set(last, 'held', frames.value(last, 'held') ^ 1n);
          return { frames };
        });
        const verdicts = await engine.compare(
          design,
          inputs.map((frames, index) => ({ inputs: frames, expected: expected[index]! })),
        );
        expect(verdicts).toEqual(runs.map((run, index) => compareOutputs(run.frames, expected[index]!, 8)));
        verdicts.forEach((verdict, index) =>
          expect(verdict).toMatchObject({ mismatchCount: 1, digest: outputDigest(runs[index]!.frames) }),
        );
      }),
      { seed, numRuns: 30 },
    );
  });
});

describe.each(engines)('%s compare', (name: EngineName) => {
  it('is equal to its own outputs, with their digest, and finds a changed bit: cycle, port, values', async () => {
    const engine = await createEngine(name);
    await fc.assert(
      fc.asyncProperty(rowArbitrary, fc.nat(), fc.nat({ max: 200 }), async (rows: PortValues[], pick, bit) => {
        const inputs = inputFrames(design, rows);
        const [run] = await engine.runMany(design, [inputs]);
        const frames = run!.frames;
        const wrong = PortFrames.empty(outputs, frames.cycles);
        wrong.words.set(frames.words);
        const cycle = pick % frames.cycles;
        const port = outputs[pick % outputs.length]!;
        const flipped = 1n << BigInt(bit % port.width);
        wrong.set(cycle, port.name, frames.value(cycle, port.name) ^ flipped);
        const [same, differs, digest, badDigest] = await engine.compare(design, [
          { inputs, expected: { frames } },
          { inputs, expected: { frames: wrong } },
          { inputs, expected: { digest: outputDigest(frames) } },
          { inputs, expected: { digest: outputDigest(wrong) } },
        ]);
        expect(same).toEqual({
          equal: true,
          cycles: rows.length,
          digest: outputDigest(frames),
          mismatchCount: 0,
          mismatches: [],
        });
        expect(differs!.equal).toBe(false);
        expect(differs!.digest).toBe(outputDigest(frames));
        expect(differs!.mismatchCount).toBe(1);
        expect(differs!.mismatches).toEqual([
          {
            cycle,
            port: port.name,
            width: port.width,
            expected: frames.value(cycle, port.name) ^ flipped,
            actual: frames.value(cycle, port.name),
            mask: (1n << BigInt(port.width)) - 1n,
          },
        ]);
        expect(digest!.equal).toBe(true);
        expect(badDigest).toMatchObject({ equal: false, mismatchCount: 0, mismatches: [] });
      }),
      { seed, numRuns: name === 'ts' ? 60 : 3 },
    );
  });

  it('ignores masked bits, counts every mismatch and lists the first ones, in cycle and port order', async () => {
    const engine = await createEngine(name);
    const rows: PortValues[] = [{ narrow: 1n, wide: 10n }, { narrow: 2n }, { narrow: 3n }, { wide: 0n }];
    const inputs = inputFrames(design, rows);
    // All wrong by one in every cycle, `held` compared only in cycle 2 and only its low bit.
    const golden = rows.map(() => ({ sum: 1n, doubled: 1n }) as PortValues);
    golden[2] = { ...golden[2], held: 0n };
    const expected = expectedFrames(design, golden) as { frames: PortFrames; mask: PortFrames };
    expected.mask.set(2, 'held', 1);
    const [verdict] = await engine.compare(design, [{ inputs, expected }], { mismatches: 3 });
    // sum = wide + narrow: 11, 12, 13, 3; doubled = 2·wide: 20, 20, 20, 0; held in cycle 2 is 2 (low bit 0).
    expect(verdict!.mismatchCount).toBe(8);
    expect(verdict!.mismatches.map(describeOutputMismatch)).toEqual([
      'cycle 0, port sum: expected 0x1, got 0xb',
      'cycle 0, port doubled: expected 0x1, got 0x14',
      'cycle 1, port sum: expected 0x1, got 0xc',
    ]);
    golden[3] = { sum: 3n, doubled: 0n };
    golden[2] = { sum: 13n, doubled: 20n, held: 1n };
    const partly = expectedFrames(design, golden) as { frames: PortFrames; mask: PortFrames };
    partly.mask.set(2, 'held', 2);
    const [masked] = await engine.compare(design, [{ inputs, expected: partly }]);
    expect(masked!.mismatches.map(describeOutputMismatch)).toEqual([
      'cycle 0, port sum: expected 0x1, got 0xb',
      'cycle 0, port doubled: expected 0x1, got 0x14',
      'cycle 1, port sum: expected 0x1, got 0xc',
      'cycle 1, port doubled: expected 0x1, got 0x14',
      'cycle 2, port held: expected 0x0, got 0x2 (compared bits 0x2)',
    ]);
  });

  it("reports the design's failing checks with the verdict, or stops at the first in stop mode", async () => {
    const engine = await createEngine(name);
    const inputs = inputFrames(checked, [{ a: 1n }, { a: 15n }, { a: 3n }, { a: 15n }]);
    const [run] = await engine.runMany(checked, [inputs], { checks: 'count' });
    const [verdict] = await engine.compare(checked, [{ inputs, expected: { frames: run!.frames } }], {
      checks: 'count',
    });
    expect(verdict!.equal).toBe(true);
    expect(verdict!.checks!.failures.map((failure) => failure.cycle)).toEqual([1, 3]);
    await expect(engine.compare(checked, [{ inputs, expected: { frames: run!.frames } }])).rejects.toThrow(
      /no overflow/,
    );
  });

  it('refuses expected frames of the wrong ports or length and a malformed digest, in one line', async () => {
    const engine = await createEngine(name);
    const inputs = inputFrames(design, [{}, {}]);
    await expect(
      engine.compare(design, [
        { inputs, expected: { frames: PortFrames.empty(outputs, 2) } },
        { inputs, expected: { frames: PortFrames.empty(outputs.slice(1), 2) } },
      ]),
    ).rejects.toThrow(
      /^stream 1: the expected frames are of ports held\[3\], doubled\[40\] \(3 words a frame\), but FrameWidths has outputs sum\[70\], held\[3\], doubled\[40\] \(6 words a frame\)$/,
    );
    await expect(
      engine.compare(design, [{ inputs, expected: { frames: PortFrames.empty(outputs, 3) } }]),
    ).rejects.toThrow('stream 0: the expected frames hold 3 cycles, the stimulus 2');
    await expect(
      engine.compare(design, [
        { inputs, expected: { frames: PortFrames.empty(outputs, 2), mask: PortFrames.empty(outputs, 1) } },
      ]),
    ).rejects.toThrow('stream 0: the mask frames hold 1 cycles, the stimulus 2');
    await expect(engine.compare(design, [{ inputs, expected: { digest: 'xyz' } }])).rejects.toThrow(
      'stream 0: the expected digest "xyz" is not 8 lowercase hex digits (outputDigest)',
    );
  });
});
