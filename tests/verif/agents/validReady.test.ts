import { describe, expect, it } from 'vitest';
import { Scoreboard, ScoreboardMismatchError, validReadyDriver } from '../../../verif/agents/validReady.ts';
import { seededRandom } from '../../../verif/agents/seededRandom.ts';
import type { ReactiveTestbench } from '../../../verif/testbench.ts';

/*
 * The agent's parts that need no engine: the scoreboard's verdicts, the seeded source and the
 * driver's option check (the driver and monitor on a FIFO, on every engine, are in
 * tests/verif/testbenchProcesses.test.ts).
 */

describe('the valid/ready scoreboard', () => {
  it('expects the model\u2019s outputs for each input in order, a stateful model included', () => {
    let sum = 0n;
    const board = new Scoreboard((word) => (word === 0n ? [] : [(sum += word), sum]));
    board.input({ cycle: 1, data: 3n });
    board.input({ cycle: 2, data: 0n });
    board.input({ cycle: 3, data: 4n });
    expect(board.outstanding).toBe(4);
    for (const [cycle, data] of [
      [4, 3n],
      [5, 3n],
      [6, 7n],
    ] as const)
      board.output({ cycle, data });
    expect(() => board.finish()).toThrow(
      new ScoreboardMismatchError(
        'scoreboard: 1 output(s) never came, the first 0x7 (for the input accepted at cycle 3)',
      ),
    );
    board.output({ cycle: 7, data: 7n });
    board.finish();
    expect(board.matched).toBe(4);
  });

  it('names the output, its cycle, the value and the model\u2019s, or an output nobody expected', () => {
    const board = new Scoreboard((word) => word);
    board.input({ cycle: 2, data: 9n });
    expect(() => board.output({ cycle: 5, data: 8n })).toThrow(
      'scoreboard: output 0 at cycle 5 was 0x8, the model expected 0x9 (for the input accepted at cycle 2)',
    );
    expect(() => board.output({ cycle: 6, data: 1n })).toThrow(
      'scoreboard: output 1 (0x1 at cycle 6) was not expected by the model',
    );
  });
});

describe('the seeded source', () => {
  it('gives the same numbers in [0, 1) for a seed, and others for another seed', () => {
    const draw = (seed: number): number[] => Array.from({ length: 1000 }, seededRandom(seed));
    const first = draw(7);
    expect(draw(7)).toEqual(first);
    expect(draw(8)).not.toEqual(first);
    expect(first.every((value) => value >= 0 && value < 1)).toBe(true);
    // Spread over the interval: each tenth gets a fair share of 1,000 draws.
    for (let tenth = 0; tenth < 10; tenth++)
      expect(first.filter((value) => Math.floor(value * 10) === tenth).length).toBeGreaterThan(60);
  });
});

describe('the driver', () => {
  it('refuses a stall chance outside [0, 1)', () => {
    const tb = {} as ReactiveTestbench;
    for (const stall of [-0.1, 1, Number.NaN])
      expect(() => validReadyDriver(tb, { valid: 'v', ready: 'r', data: 'd' }, [], { stall })).toThrow(
        `stall ${stall} must be a chance from 0 up to (not including) 1`,
      );
  });
});
