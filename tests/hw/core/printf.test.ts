/**
 * m.printf at elaboration: a format outside the language (hw/core/printFormat.ts), a count of
 * values that does not match its directives, or a condition that is not one bit is an error at
 * the user's line; the IR keeps the parsed format and the values' nets, and a printf gives a
 * combinational module a clock (it prints at clock edges). What engines print is
 * tests/engines/printf.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { defineModule, input, output, InvalidParameterError, WidthMismatchError } from '../../../hw/core/index.ts';
import type { ModuleBuilder } from '../../../hw/core/module.ts';
import type { Value } from '../../../hw/core/value.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { printDesign } from '../../../hw/ir/print.ts';
import { formatPrint, parsePrintFormat } from '../../../hw/core/printFormat.ts';

/** A combinational pass-through whose build also calls `body`. */
function withPrint(body: (m: ModuleBuilder, a: Value<8>) => void) {
  return defineModule({
    name: 'PrintfUnit',
    defaults: {},
    ports: () => ({ a: input(8), y: output(8) }),
    build(m, io) {
      io.y.set(io.a);
      body(m, io.a);
    },
  });
}

describe('m.printf', () => {
  it('makes its module clocked and keeps format and values in the IR', () => {
    const design = elaborate(
      withPrint((m, a) => m.printf(a.eq(3), 'a=%0d (%x) 50%%', a, a)),
      {},
    );
    expect(design.modules[0]!.clocked).toBe(true);
    expect(printDesign(design)).toContain('  printf _n1 "a=%0d (%x) 50%%", a, a\n');
  });

  it.each([
    ['%5x', /'%5x': a field width is allowed on %d and %i only/],
    ['%q', /'%q' is not a printf directive/],
    ['%', /'%' is not a printf directive/],
    ['line\nbreak', /one line of printable ASCII/],
    ['%300d', /field width 300 is over 256/],
  ])('refuses the format %j at the line of the printf', (format, message) => {
    const definition = withPrint((m, a) => m.printf(m.lit(1, 1), format, a));
    expect(() => elaborate(definition, {})).toThrow(InvalidParameterError);
    expect(() => elaborate(definition, {})).toThrow(/printf\.test\.ts:\d+: printf format/);
    expect(() => elaborate(definition, {})).toThrow(message);
  });

  it('refuses a count of values other than the directives, and a wide condition', () => {
    expect(() =>
      elaborate(
        withPrint((m, a) => m.printf(m.lit(1, 1), '%d %d', a)),
        {},
      ),
    ).toThrow(/printf\.test\.ts:\d+: printf format "%d %d" has 2 directives but 1 value follow/);
    expect(() =>
      elaborate(
        withPrint((m, a) => m.printf(a, 'a')),
        {},
      ),
    ).toThrow(WidthMismatchError);
  });

  it('formats every directive as $display does (the engines test checks Verilog agrees)', () => {
    const format = parsePrintFormat('%d|%0d|%4d|%i|%0i|%x|%0x|%b|%0b|%%');
    const values = Array.from({ length: 9 }, () => 0xfen);
    const widths = Array.from({ length: 9 }, () => 8);
    expect(formatPrint(format, values, widths)).toBe('254|254| 254|  -2|-2|fe|fe|11111110|11111110|%');
    expect(formatPrint(parsePrintFormat('%d %i %x %b'), [1n, 1n, 1n, 0n], [1, 1, 1, 1])).toBe('1 -1 1 0');
  });
});
