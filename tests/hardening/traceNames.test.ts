import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, rmSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { Counter } from '../../hw/examples/counter.ts';
import { IcarusEngine } from '../../engines/icarus/icarusEngine.ts';
import type { PortValues } from '../../hw/contract/engine.ts';
import { hasTool } from '../../tools/toolchain.ts';
import { simulateGates } from '../../synth/sim/gateSimulation.ts';

/*
 * An Icarus trace goes to any path the user names, non-ASCII ones too. vvp's $dumpfile refuses a
 * name with bytes it cannot print and writes `dump.vcd` in its working folder instead; before,
 * `--vcd uni/ü.vcd` failed with `cannot read …/uni/.ü.vcd.raw….tmp: ENOENT` and left a stray
 * `dump.vcd` in the folder gen was started from.
 */

/** Folders this file made, removed at its end. */
const made: string[] = [];
const scratch = (prefix: string): string => {
  made.push(mkdtempSync(join(tmpdir(), prefix)));
  return made[made.length - 1]!;
};
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const inputs: PortValues[] = [{ reset: 1n, enable: 1n }, { reset: 0n }, {}, {}];

describe.skipIf(!hasTool('iverilog') || !hasTool('vvp'))('Icarus --vcd to a non-ASCII path', () => {
  const cacheRoot = scratch('trace-names-cache-');
  const engine = new IcarusEngine({ cacheRoot });
  const design = elaborate(Counter);

  it.each([
    ['a non-ASCII file', ['uni', 'ü.vcd']],
    ['a non-ASCII folder and file', ['Ägypten 日本', 'spür.vcd']],
  ])('%s: the trace is written there, nothing else anywhere', async (_, parts) => {
    const work = scratch('trace-names-');
    const vcd = join(work, ...parts);
    const strayBefore = existsSync('dump.vcd');
    const run = await engine.run(design, inputs, { vcd });
    expect(run.outputs.map((values) => values.count)).toEqual([0n, 0n, 1n, 2n]);
    const trace = readFileSync(vcd, 'utf8');
    expect(trace).toMatch(/\$var wire 8 \S+ count \[7:0\] \$end/);
    expect(trace).toMatch(/^#30$/m);
    expect(readdirSync(join(vcd, '..'))).toEqual([parts[1]]);
    expect(existsSync('dump.vcd')).toBe(strayBefore);
  });

  it('a session: the trace is written there, nothing else anywhere', async () => {
    const work = scratch('trace-names-');
    const vcd = join(work, 'sitzung', 'ü.vcd');
    const session = await engine.open(design, { vcd });
    session.poke('reset', 1n);
    session.poke('enable', 1n);
    await session.step();
    session.poke('reset', 0n);
    await session.step(3);
    expect(await session.peek('count')).toBe(3n);
    await session.close();
    expect(readFileSync(vcd, 'utf8')).toMatch(/\$enddefinitions/);
    expect(readdirSync(join(vcd, '..'))).toEqual(['ü.vcd']);
  });

  it('the gate-level activity trace, with the system temp folder on a non-ASCII path', async () => {
    const work = scratch('trace-names-');
    const temp = join(work, 'tëmp');
    mkdirSync(temp);
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = temp;
    try {
      const run = await simulateGates({
        roles: {
          driven: [{ name: 'a', direction: 'input', width: 1 }],
          outputs: [{ name: 'y', direction: 'output', width: 1 }],
        },
        vectors: [{ a: 0n }, { a: 1n }],
        instances: [{ module: 'Inv', name: 'dut' }],
        sources: { 'inv.v': 'module Inv(input a, output y); assign y = ~a; endmodule\n' },
        dump: { fromCycle: 0, signals: ['dut.y'] },
      });
      expect(run.outputs).toEqual([[['1']], [['0']]]);
      expect(run.vcd).toMatch(/\$var wire 1 \S+ y \$end/);
    } finally {
      process.env.TMPDIR = saved;
    }
    expect(readdirSync(temp)).toEqual([]);
  });
});
