import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countVcdToggles } from '../../../synth/sim/vcdToggles.ts';

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(
  `vcdToggles: fast-check seed ${seed} (replay: FC_SEED=${seed} npx vitest run tests/synth/sim/vcdToggles.test.ts)`,
);

const header = (vars: string): string =>
  `$timescale 1ns $end\n$scope module tb $end\n$scope module dut $end\n${vars}$upscope $end\n$upscope $end\n$enddefinitions $end\n`;

describe('countVcdToggles', () => {
  it('counts 0↔1 changes per bit, not the initial value, not X resolution', () => {
    const vcd = `${header('$var wire 1 ! y $end\n$var wire 4 " a [3:0] $end\n')}#0\n$dumpvars\nx!\nb0000 "\n$end\n#5\n1!\nb1 "\n#10\n0!\nb11 "\n#15\n1!\nbx0 "\n`;
    const counts = countVcdToggles(vcd);
    expect(counts.get('tb.dut.y')).toEqual([2]); // x→1 is not a toggle; 1→0→1 is two
    // a: 0000 → 0001 → 0011 → xxx0 (left-extended with x): bit0 1→1→0 counts once more.
    expect(counts.get('tb.dut.a')).toEqual([2, 1, 0, 0]);
  });

  it('gives every alias of one identifier code the same counts, and names escaped scopes with dots', () => {
    const vcd = `$scope module tb $end\n$scope module u_add._27_ $end\n$var wire 1 # ZN $end\n$upscope $end\n$var wire 1 # net $end\n$upscope $end\n$enddefinitions $end\n#0\n0#\n#1\n1#\n`;
    const counts = countVcdToggles(vcd);
    expect(counts.get('tb.u_add._27_.ZN')).toEqual([1]);
    expect(counts.get('tb.net')).toEqual([1]);
  });

  it('rejects garbage in the value changes, naming the file', () => {
    expect(() => countVcdToggles(`${header('$var wire 1 ! y $end\n')}#0\n?!\n`, 'bad.vcd')).toThrow(
      /bad\.vcd: unexpected token/,
    );
  });

  it('equals the popcount of successive XORs for any sequence of vector values', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 70 }),
        fc.array(fc.bigInt({ min: 0n, max: (1n << 70n) - 1n }), { minLength: 1, maxLength: 30 }),
        (width, raw) => {
          const mask = (1n << BigInt(width)) - 1n;
          const values = raw.map((value) => value & mask);
          const body = values.map((value, time) => `#${time}\nb${value.toString(2)} !\n`).join('');
          const counts = countVcdToggles(`${header(`$var wire ${width} ! v [${width - 1}:0] $end\n`)}${body}`).get(
            'tb.dut.v',
          );
          const expected = new Array<number>(width).fill(0);
          for (let index = 1; index < values.length; index++) {
            const changed = (values[index - 1] ?? 0n) ^ (values[index] ?? 0n);
            for (let bit = 0; bit < width; bit++)
              if ((changed >> BigInt(bit)) & 1n) expected[bit] = (expected[bit] ?? 0) + 1;
          }
          expect(counts).toEqual(expected);
        },
      ),
      { seed, numRuns: 200 },
    );
  });
});
