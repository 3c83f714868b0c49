import { describe, expect, it } from 'vitest';
import { parseReportChecks } from '../../../synth/timing/sta.ts';

const report = (slack: string, verdict: 'MET' | 'VIOLATED'): string => `Startpoint: a[3] (input port clocked by clk)
Endpoint: u_add._60_ (rising edge-triggered flip-flop clocked by clk)
Path Group: clk
Path Type: max
             0.9600   data required time
            -0.2695   data arrival time
-------------------------------------------------------------
             ${slack}   slack (${verdict})
`;

describe('parseReportChecks', () => {
  it('turns slack into the critical path: period − slack, setup included', () => {
    const parsed = parseReportChecks(report('0.6905', 'MET'), 1);
    expect(parsed?.delayPs).toBeCloseTo(309.5, 9);
    expect(parsed?.maxClockGhz).toBeCloseTo(1000 / 309.5, 9);
    expect(parsed).toMatchObject({ startpoint: 'a[3]', endpoint: 'u_add._60_' });
  });

  it('handles a violated (negative) slack', () => {
    expect(parseReportChecks(report('-0.2500', 'VIOLATED'), 1)?.delayPs).toBeCloseTo(1250, 9);
  });

  it('returns undefined when OpenSTA printed no path', () => {
    expect(parseReportChecks('No paths found.\n', 1)).toBeUndefined();
  });
});
