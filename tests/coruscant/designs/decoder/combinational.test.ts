import { describe, expect, it } from 'vitest';
import { elaborate } from '../../../../hw/ir/elaborate.ts';
import { LaneDetector, RegisterIndexEmitter, decoderWidths } from '../../../../coruscant/designs/decoder/index.ts';
import { TsEngine } from '../../../../engines/ts/tsEngine.ts';
import type { PortValues } from '../../../../hw/contract/engine.ts';
import { decodeMma, operandSelect } from '../../../../coruscant/golden/models/decoder.ts';
import { expectCycles, flag } from './decoderStimulus.ts';

const engine = new TsEngine();

/** LaneDetector's outputs for one chunk, from the golden decoder run on a one-cycle tile. */
function laneGolden(bits: number, slots: number): PortValues {
  const [cycle] = decodeMma([BigInt(bits)], { threads: 1, tileLength: slots, slots });
  const selects = cycle!.slots[0]!;
  const ports: PortValues = { valid: BigInt(bits), count: BigInt(selects.filter((slot) => slot.valid).length) };
  selects.forEach((slot, index) => (ports[`rank_${index}`] = BigInt(slot.valueIndex)));
  return ports;
}

describe('LaneDetector', () => {
  it.each([1, 2, 4, 8])('matches the golden decoder on all %i-bit chunks', async (slots) => {
    const chunks = Array.from({ length: 2 ** slots }, (_, bits) => bits);
    const run = await engine.run(
      elaborate(LaneDetector, { slots }),
      chunks.map((bits) => ({ bits: BigInt(bits) })),
    );
    expectCycles(
      run.outputs,
      chunks.map((bits) => laneGolden(bits, slots)),
      `LaneDetector slots=${slots}`,
    );
  });

  it('ranks a full chunk 0, 1, 2, 3 and counts it as 4', async () => {
    const run = await engine.run(elaborate(LaneDetector), [{ bits: 0b1111n }, { bits: 0b1010n }]);
    expect(run.outputs[0]).toMatchObject({ valid: 15n, rank_0: 0n, rank_1: 1n, rank_2: 2n, rank_3: 3n, count: 4n });
    expect(run.outputs[1]).toMatchObject({ valid: 10n, rank_1: 0n, rank_2: 1n, rank_3: 1n, count: 2n });
  });
});

/** RegisterIndexEmitter's expected ports for per-slot (valid, index) pairs. */
function emitterGolden(pairs: readonly (readonly [boolean, number])[]): PortValues {
  const ports: PortValues = {};
  pairs.forEach(([valid, index], slot) => {
    const select = operandSelect(valid, index);
    ports[`operand_${slot}_register`] = BigInt(select.register);
    ports[`operand_${slot}_half`] = BigInt(select.half);
    ports[`operand_${slot}_zero`] = flag(select.zero);
  });
  return ports;
}

/** Port values that drive RegisterIndexEmitter with per-slot (valid, index) pairs. */
function emitterInputs(pairs: readonly (readonly [boolean, number])[]): PortValues {
  const ports: PortValues = { valid: BigInt(pairs.reduce((bits, [valid], slot) => bits | (Number(valid) << slot), 0)) };
  pairs.forEach(([, index], slot) => (ports[`index_${slot}`] = BigInt(index)));
  return ports;
}

describe('RegisterIndexEmitter', () => {
  it('matches the golden select on every input of a 2-slot, 8-element instance (all 256)', async () => {
    const params = { tileLength: 8, slots: 2 };
    const indexWidth = decoderWidths(params).index;
    const vectors = Array.from({ length: 2 ** (2 + 2 * indexWidth) }, (_, word) =>
      [0, 1].map(
        (slot) => [((word >> slot) & 1) === 1, (word >> (2 + slot * indexWidth)) & ((1 << indexWidth) - 1)] as const,
      ),
    );
    const run = await engine.run(elaborate(RegisterIndexEmitter, params), vectors.map(emitterInputs));
    expectCycles(run.outputs, vectors.map(emitterGolden), 'RegisterIndexEmitter 2×8');
  });

  it('matches the golden select on every (valid, index) of every slot at the paper size', async () => {
    // The slots share no logic, so each slot sees all 2·64 of its own inputs, with the other
    // slots on different (rotated) inputs in the same cycle.
    const slots = 4;
    const perSlot = 2 * 64;
    const vectors = Array.from({ length: perSlot }, (_, step) =>
      Array.from({ length: slots }, (_, slot) => {
        const code = (step + slot * 37) % perSlot;
        return [(code & 1) === 1, code >> 1] as const;
      }),
    );
    const run = await engine.run(elaborate(RegisterIndexEmitter), vectors.map(emitterInputs));
    expectCycles(run.outputs, vectors.map(emitterGolden), 'RegisterIndexEmitter 4×64');
  });
});
