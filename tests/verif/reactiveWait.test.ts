import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { defineBlackBox, defineModule, input, output } from '../../hw/core/index.ts';
import { Counter } from '../../hw/examples/counter.ts';
import { StreamFifoChain } from '../../hw/examples/streamFifoChain.ts';
import { TwoClockFifo } from '../../hw/examples/twoClockFifo.ts';
import { Testbench, type ReactiveTestbench } from '../../verif/testbench.ts';
import { TsEngine } from '../../engines/ts/tsEngine.ts';
import { VerilatorEngine } from '../../engines/verilator/verilatorEngine.ts';
import { IcarusEngine } from '../../engines/icarus/icarusEngine.ts';
import type { Engine } from '../../hw/contract/engine.ts';
import type { IrDesign } from '../../hw/ir/ir.ts';
import { UserError } from '../../common/errors.ts';
import { hasTool } from '../../tools/toolchain.ts';

/*
 * One scripted reactive session (pokes, peeks, steps, waits) gives the same peeks, the same cycles
 * and the same VCD on every engine, whether its waits are closures (stepped one cycle at a time
 * from this process) or conditions on output values (evaluated inside the Verilator and Icarus
 * harnesses, one round trip per wait; a peek right after a step is answered by the step's own
 * reply). A 40-bit counter: its outputs frame is two words, the upper one compared too. A design
 * with checks, or with two clocks, waits by stepping from this process: the same cycles again.
 */

const design = elaborate(Counter, { width: 40 });

const ENGINES: readonly (readonly [string, () => Engine])[] = [
  ['ts', () => new TsEngine()],
  ...(hasTool('verilator') ? [['verilator', () => new VerilatorEngine()] as const] : []),
  ...(hasTool('iverilog') ? [['icarus', () => new IcarusEngine()] as const] : []),
];

type Wait = (tb: ReactiveTestbench, count: number, limit: number) => Promise<number>;

const WAITS: Record<string, Wait> = {
  closure: (tb, count, limit) => tb.waitFor(async () => (await tb.peek('count')) === BigInt(count), { limit }),
  values: (tb, count, limit) => tb.waitFor({ count }, { limit }),
};

/** The script: every value it reads, in order, as text. */
async function script(tb: ReactiveTestbench, wait: Wait): Promise<string[]> {
  const log: string[] = [];
  const read = async (): Promise<void> => {
    log.push(`cycle ${tb.cycle}: count ${await tb.peek('count')}`);
  };
  tb.poke('reset', 1);
  await tb.step();
  tb.poke('reset', 0);
  await read();
  tb.poke('enable', 1);
  log.push(`waited ${await wait(tb, 5, 20)}`);
  await read();
  await tb.step(3);
  await read();
  tb.poke('enable', 0);
  await tb.step(2);
  await read();
  // Already true: no step.
  log.push(`waited ${await wait(tb, 8, 20)}`);
  tb.poke('enable', 1);
  await read();
  log.push(`waited ${await wait(tb, 12, 20)}`);
  const missed = await wait(tb, 100, 3).catch((error: unknown) => error);
  expect(missed).toBeInstanceOf(UserError);
  log.push((missed as Error).message);
  await read();
  await tb.step();
  log.push(
    JSON.stringify(await tb.session.peekAll(), (_key, value: unknown) =>
      typeof value === 'bigint' ? String(value) : value,
    ),
  );
  return log;
}

const EXPECTED = [
  'cycle 1: count 0',
  'waited 5',
  'cycle 6: count 5',
  'cycle 9: count 8',
  'cycle 11: count 8',
  'waited 0',
  'cycle 11: count 8',
  'waited 4',
  "process 'main' timed out at cycle 18: waitFor(condition) did not happen within 3 cycles (it read count=0xf)",
  'cycle 18: count 15',
  '{"count":"16"}',
];

describe('a scripted reactive session', () => {
  const dir = mkdtempSync(join(tmpdir(), 'reactive-wait-'));
  const vcds = new Map<string, string>();

  it.each(ENGINES.flatMap(([name, create]) => Object.keys(WAITS).map((wait) => [name, wait, create] as const)))(
    '%s, waits as %s: the same peeks and cycles as everywhere',
    async (name, wait, create) => {
      const vcd = join(dir, `${name}-${wait}.vcd`);
      const tb = await Testbench.open(design, create(), { vcd });
      try {
        expect(await script(tb, WAITS[wait]!)).toEqual(EXPECTED);
      } finally {
        await tb.close();
      }
      vcds.set(`${name}-${wait}`, readFileSync(vcd, 'utf8'));
    },
    // The first Verilator build of the design takes most of this on a loaded machine.
    240_000,
  );

  it('leaves the same VCD on every engine, whichever way it waits', () => {
    expect(vcds.size).toBe(ENGINES.length * Object.keys(WAITS).length);
    const first = vcds.values().next().value as string;
    expect(first).toContain('$enddefinitions');
    for (const [run, text] of vcds) expect(text, run).toBe(first);
  });

  it('refuses a wait on an unknown output or a value that does not fit, naming it', async () => {
    const tb = await Testbench.open(design, new TsEngine());
    try {
      await expect(tb.waitFor({ nothing: 1 } as never)).rejects.toThrow("has no output 'nothing' (outputs: count)");
      await expect(tb.waitFor({ count: 2n ** 40n })).rejects.toThrow('does not fit the 40-bit output');
      await expect(tb.waitFor({ count: 1 }, { limit: -1 })).rejects.toThrow('waitFor: -1 is not a count of cycles');
    } finally {
      await tb.close();
    }
  });
});

/** Per design with checks or two clocks: a script of waits, as [output, value] pairs after the pokes it starts with. */
const STEPPED: readonly (readonly [
  string,
  IrDesign,
  Record<string, number>,
  readonly (readonly [string, number])[],
])[] = [
  [
    'StreamFifoChain (checks)',
    elaborate(StreamFifoChain, {}),
    { in_valid: 1, in_data: 7 },
    [
      ['out_valid', 1],
      ['in_ready', 0],
    ],
  ],
  [
    'TwoClockFifo (two clocks)',
    elaborate(TwoClockFifo, { width: 8, depth: 4 }),
    { produce: 1, consume: 1 },
    [
      ['sent', 3],
      ['received', 3],
    ],
  ],
];

describe('a wait on a design the harness cannot wait on by itself', () => {
  const seen = new Map<string, string[]>();

  it.each(
    ENGINES.flatMap(([name, create]) => STEPPED.map(([title, ...rest]) => [title, name, create, ...rest] as const)),
  )(
    '%s on %s: the same cycles as a closure, and as on every engine',
    async (title, _name, create, design, pokes, waits) => {
      const logs = await Promise.all(
        Object.values(WAITS).map(async (wait) => {
          const tb = await Testbench.open(design, create());
          const log: string[] = [];
          try {
            await tb.reset();
            for (const [name, value] of Object.entries(pokes)) tb.poke(name as never, value);
            for (const [name, value] of waits) {
              const waited = await (wait === WAITS.values
                ? tb.waitFor({ [name]: value }, { limit: 50 })
                : tb.waitFor(async () => (await tb.peek(name as never)) === BigInt(value), { limit: 50 }));
              log.push(`${name}=${value} after ${waited} (cycle ${tb.cycle})`);
            }
          } finally {
            await tb.close();
          }
          return log;
        }),
      );
      expect(logs[1]).toEqual(logs[0]);
      // Every wait steps: none holds already when it starts.
      for (const line of logs[0]!) expect(line).not.toContain(' after 0 ');
      const earlier = seen.get(title);
      if (earlier) expect(logs[0]).toEqual(earlier);
      else seen.set(title, logs[0]!);
    },
    240_000,
  );
});

describe.skipIf(!hasTool('iverilog'))('outputs Icarus cannot read after a step', () => {
  it('fail the peek that asks for them, not the step, nor the steps after', async () => {
    // A black box's own register starts at X on Icarus (the testbench zeroes only generated
    // modules) and keeps it until reset or a nonzero `d`.
    const file = join(mkdtempSync(join(tmpdir(), 'reactive-x-')), 'Hold.v');
    writeFileSync(
      file,
      [
        'module Hold (input wire clk, input wire reset, input wire [3:0] d, output reg [3:0] q);',
        "  always @(posedge clk) if (reset) q <= 4'd0; else if (d != 4'd0) q <= d;",
        'endmodule',
        '',
      ].join('\n'),
    );
    const Hold = defineBlackBox({ name: 'Hold', file, clocked: true, ports: () => ({ d: input(4), q: output(4) }) });
    const Top = defineModule({
      name: 'HoldTop',
      defaults: {},
      ports: () => ({ d: input(4), q: output(4) }),
      build(m, io) {
        const hold = m.instance(Hold, { name: 'hold' });
        hold.d.set(io.d);
        io.q.set(hold.q);
      },
    });
    const tb = await Testbench.open(elaborate(Top), new IcarusEngine());
    try {
      await tb.step();
      await expect(tb.peek('q')).rejects.toThrow(/output 'q' has unknown bits \(x\)/);
      tb.poke('reset', 1);
      await tb.step();
      tb.poke('reset', 0).poke('d', 6);
      await tb.step();
      expect(await tb.peek('q')).toBe(6n);
      expect(tb.cycle).toBe(3);
    } finally {
      await tb.close();
    }
  });
});
