import { describe, expect, it } from 'vitest';
import { UserError } from '../../common/errors.ts';
import { cycleAt, cycleEdges, findSignal, guessClock, risingEdges, sampleCycles } from '../../waves/sampling.ts';
import { parseVcd } from '../../waves/vcdReader.ts';

/**
 * The engines' time base: testbench cycle k applies its inputs at 10k (`i` takes k+1) and clk
 * rises at 10k+5, where the register `r` takes k+1.
 */
const TRACE = parseVcd(
  `$timescale 1ns $end
$scope module t $end $var wire 1 ! clk $end $var wire 4 " r $end $var wire 4 # i $end $upscope $end
$enddefinitions $end
#0 0! b0 " b1 #
#5 1! b1 "
#10 0! b10 #
#15 1! b10 "
#20 0! b11 #
#25 1! b11 "
#30 0! b100 #
#35 1! b100 "
#40 0!
`,
  'cycles.vcd',
);
const r = findSignal(TRACE, 't.r');
const i = findSignal(TRACE, 't.i');

describe('cycle sampling', () => {
  it('numbers cycles as the testbench does: cycle k ends at edge k and samples just before it', () => {
    expect(guessClock(TRACE)).toBe('t.clk');
    expect(risingEdges(TRACE, findSignal(TRACE, 't.clk'))).toEqual([5, 15, 25, 35]);
    const { values } = sampleCycles(TRACE, { clock: 't.clk' }, [r, i]);
    // Cycle k: the inputs applied in cycle k, the registers as edge k-1 left them.
    expect(values.get(i)).toEqual(['0001', '0010', '0011', '0100']);
    expect(values.get(r)).toEqual(['0000', '0001', '0010', '0011']);
  });

  it('samples a window the same as the whole, and by period the same as by clock', () => {
    const whole = sampleCycles(TRACE, { period: 10, offset: 5 }, [r]).values.get(r)!;
    expect(sampleCycles(TRACE, { clock: 't.clk' }, [r], { from: 1, to: 2 }).values.get(r)).toEqual(whole.slice(1, 3));
    expect(whole).toEqual(sampleCycles(TRACE, { clock: 't.clk' }, [r]).values.get(r));
  });

  it('places a time in the cycle that contains it', () => {
    const edges = cycleEdges(TRACE, { clock: 't.clk' });
    // Inputs applied at 20 belong to cycle 2; what edge 2 (at 25) does shows in cycle 3; after the last edge: 4.
    expect([0, 4, 5, 20, 25, 36].map((time) => cycleAt(edges, time))).toEqual([0, 0, 1, 2, 3, 4]);
  });

  it('rejects a multi-bit clock, a bad period, and one that would cut too many cycles', () => {
    expect(() => risingEdges(TRACE, r)).toThrow(/not a 1-bit signal/);
    expect(() => cycleEdges(TRACE, { period: 0 })).toThrow(UserError);
    const long = parseVcd('$timescale 1fs $end $enddefinitions $end #0 #1000000000000', 'long.vcd');
    expect(() => cycleEdges(long, { period: 1 })).toThrow(/more than 50000000 cycles/);
  });
});
