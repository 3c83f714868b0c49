import { describe, expect, it } from 'vitest';
import { sortedByTime, TraceBuilder } from '../../../gpu/memory/requestTrace.ts';

describe('TraceBuilder', () => {
  it('grows past its initial capacity and keeps every column', () => {
    const builder = new TraceBuilder(2);
    for (let i = 0; i < 1000; i++) builder.push(i % 7, 2 ** 40 + i * 32, 32, i);
    const trace = builder.build();
    expect(trace.length).toBe(1000);
    expect(trace.address[999]).toBe(2 ** 40 + 999 * 32);
    expect(trace.sm[999]).toBe(999 % 7);
    expect(trace.time[500]).toBe(500);
  });

  it('holds addresses up to 2^53 exactly', () => {
    const builder = new TraceBuilder();
    builder.push(0, Number.MAX_SAFE_INTEGER - 127, 4, 0);
    expect(builder.build().address[0]).toBe(Number.MAX_SAFE_INTEGER - 127);
  });

  it('rejects requests of 0 or more than 128 bytes and unsafe addresses', () => {
    const builder = new TraceBuilder();
    expect(() => builder.push(0, 0, 0, 0)).toThrow(RangeError);
    expect(() => builder.push(0, 0, 129, 0)).toThrow(RangeError);
    expect(() => builder.push(0, 2 ** 53, 4, 0)).toThrow(RangeError);
    expect(() => builder.push(0, 1.5, 4, 0)).toThrow(RangeError);
  });

  it('sorts entries by issue time, keeping the order of ties', () => {
    const builder = new TraceBuilder();
    builder.push(1, 100, 4, 5);
    builder.push(2, 200, 8, 1);
    builder.push(3, 300, 16, 5);
    builder.push(4, 400, 32, 0);
    const sorted = sortedByTime(builder.build());
    expect([...sorted.time]).toEqual([0, 1, 5, 5]);
    expect([...sorted.sm]).toEqual([4, 2, 1, 3]);
    expect([...sorted.address]).toEqual([400, 200, 100, 300]);
    expect([...sorted.bytes]).toEqual([32, 8, 4, 16]);
  });

  it('returns a trace already in time order as it is (the timing model feeds its batches in order)', () => {
    const builder = new TraceBuilder();
    builder.push(1, 100, 4, 0);
    builder.push(2, 200, 8, 3);
    builder.push(3, 300, 16, 3);
    const trace = builder.build();
    expect(sortedByTime(trace)).toBe(trace);
    const late = new TraceBuilder();
    late.push(1, 100, 4, 0);
    late.push(2, 200, 8, 3);
    late.push(4, 400, 32, 2);
    expect([...sortedByTime(late.build()).sm]).toEqual([1, 4, 2]);
  });
});
