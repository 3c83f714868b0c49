import { describe, expect, it } from 'vitest';
import { UserError } from '../../common/errors.ts';
import { cycleAt, cycleEdges, findSignal, guessClock, risingEdges, sampleCycles } from '../../waves/sampling.ts';
import { parseVcd } from '../../waves/vcdReader.ts';

/** clk rises at 0, 10, 20, 30; `r` takes 1, 2, 3, 4 at those edges; `i` changes at the falling edges. */
const TRACE = parseVcd(
  `$timescale 1ns $end
$scope module t $end $var wire 1 ! clk $end $var wire 4 " r $end $var wire 4 # i $end $upscope $end
$enddefinitions $end
#0 1! b1 " b0 #
#5 0! b101 #
#10 1! b10 "
#15 0! b110 #
#20 1! b11 "
#25 0! b111 #
#30 1! b100 "
#35 0!
#40
`,
  'cycles.vcd',
);
const r = findSignal(TRACE, 't.r');
const i = findSignal(TRACE, 't.i');

describe('cycle sampling', () => {
  it('cuts cycles at rising edges and samples each at its end, just before the next edge', () => {
    expect(guessClock(TRACE)).toBe('t.clk');
    expect(risingEdges(TRACE, findSignal(TRACE, 't.clk'))).toEqual([0, 10, 20, 30]);
    const { values } = sampleCycles(TRACE, { clock: 't.clk' }, [r, i]);
    expect(values.get(r)).toEqual(['0001', '0010', '0011', '0100']);
    expect(values.get(i)).toEqual(['0101', '0110', '0111', '0111']);
  });

  it('samples a window the same as the whole, and by period the same as by clock', () => {
    const whole = sampleCycles(TRACE, { period: 10 }, [r]).values.get(r)!;
    expect(sampleCycles(TRACE, { clock: 't.clk' }, [r], { from: 1, to: 2 }).values.get(r)).toEqual(whole.slice(1, 3));
    // edges at 0, 10, 20, 30, 40: the last cycle starts at the trace's end
    expect(whole).toEqual(['0001', '0010', '0011', '0100', '0100']);
  });

  it('places a time in the cycle that contains it', () => {
    const edges = cycleEdges(TRACE, { clock: 't.clk' });
    expect([0, 9, 10, 35, -1].map((time) => cycleAt(edges, time))).toEqual([0, 0, 1, 3, -1]);
  });

  it('rejects a multi-bit clock, a bad period, and one that would cut too many cycles', () => {
    expect(() => risingEdges(TRACE, r)).toThrow(/not a 1-bit signal/);
    expect(() => cycleEdges(TRACE, { period: 0 })).toThrow(UserError);
    const long = parseVcd('$timescale 1fs $end $enddefinitions $end #0 #1000000000000', 'long.vcd');
    expect(() => cycleEdges(long, { period: 1 })).toThrow(/more than 50000000 cycles/);
  });
});
