/**
 * The format language of `m.printf`: a small subset of Verilog's `$display` directives, chosen so
 * that the in-process simulator, Verilator and Icarus print byte-identical text. Each directive
 * prints one argument:
 *   %d  unsigned decimal, right-aligned in the width of the largest value of its width (`$display`'s
 *       own padding: 3 characters for 8 bits, 20 for 64)
 *   %i  the same bits read as two's complement signed decimal (`$signed(x)` under `%d`), padded to
 *       the width of the most negative value (4 characters for 8 bits: `  -5`)
 *   %x  hexadecimal (`%h` is the same), zero-padded to the value's width, lower case
 *   %b  binary, zero-padded to the value's width
 * `%0d`, `%0i`, `%0x`, `%0b` drop the padding; `%Nd` and `%Ni` right-align in at least N
 * characters (spaces). `%%` is a percent sign. Verilator and Icarus disagree on `%Nx` and `%Nb`
 * (one pads with zeros, the other with spaces), so those are refused. A format is one line of
 * printable ASCII: a printed line is the unit engines capture and compare.
 */

/** One directive of a parsed format: which conversion, and its field width ('auto': the value's own padding). */
export interface PrintDirective {
  readonly conversion: PrintConversion;
  readonly width: 'auto' | number;
}

/** The conversions of the format language. */
export type PrintConversion = 'd' | 'i' | 'x' | 'b';

/** A parsed format: literal text and directives, in order. */
export type PrintSegment = string | PrintDirective;

/** Conversions by the letters that select them (`%h` is Verilog's spelling of `%x`). */
const CONVERSIONS: Readonly<Record<string, PrintConversion>> = { d: 'd', i: 'i', x: 'x', h: 'x', b: 'b' };

/** Conversions that take an explicit field width on every engine alike. */
const WIDTH_ALLOWED: ReadonlySet<PrintConversion> = new Set(['d', 'i']);

/** The longest explicit field width (a guard against a typo like `%1000000d`). */
const MAX_FIELD_WIDTH = 256;

/**
 * Parses a printf format; a format outside the language throws an Error whose message says
 * what is wrong (the DSL turns it into an error at the user's line).
 */
export function parsePrintFormat(format: string): PrintSegment[] {
  if (!/^[\x20-\x7e]*$/.test(format))
    throw new Error('a printf format is one line of printable ASCII (no newline, tab or other control character)');
  const segments: PrintSegment[] = [];
  let text = '';
  const directive = /%(\d*)([a-zA-Z%]?)/y;
  for (let at = 0; at < format.length;) {
    if (format[at] !== '%') {
      text += format[at++];
      continue;
    }
    directive.lastIndex = at;
    const [whole, digits, letter] = directive.exec(format)!;
    at += whole.length;
    if (letter === '%' && digits === '') {
      text += '%';
      continue;
    }
    const conversion = CONVERSIONS[letter!];
    if (!conversion)
      throw new Error(`'${whole}' is not a printf directive (use %d, %i, %x, %b, with an optional 0 or width, or %%)`);
    const width = digits === '' ? 'auto' : Number(digits);
    if (width !== 'auto' && width !== 0 && !WIDTH_ALLOWED.has(conversion))
      throw new Error(`'${whole}': a field width is allowed on %d and %i only (use %${letter} or %0${letter})`);
    if (width !== 'auto' && width > MAX_FIELD_WIDTH)
      throw new Error(`'${whole}': field width ${width} is over ${MAX_FIELD_WIDTH}`);
    if (text !== '') segments.push(text);
    text = '';
    segments.push({ conversion, width });
  }
  if (text !== '') segments.push(text);
  return segments;
}

/** The directives of a parsed format, in order (one argument each). */
export const printDirectives = (segments: readonly PrintSegment[]): PrintDirective[] =>
  segments.filter((segment): segment is PrintDirective => typeof segment !== 'string');

/** A parsed format written back as text (`%%` for a percent sign): what the IR printer shows. */
export function printFormatText(segments: readonly PrintSegment[]): string {
  return segments
    .map((segment) =>
      typeof segment === 'string'
        ? segment.replace(/%/g, '%%')
        : `%${segment.width === 'auto' ? '' : segment.width}${segment.conversion}`,
    )
    .join('');
}

/** `value` (the raw `width` bits) as two's complement. */
const signedOf = (value: bigint, width: number): bigint =>
  value >> BigInt(width - 1) === 1n ? value - (1n << BigInt(width)) : value;

/** The text of one directive for a value of `width` bits, as `$display` prints it. */
function formatDirective({ conversion, width: field }: PrintDirective, value: bigint, width: number): string {
  switch (conversion) {
    case 'x':
      return field === 0 ? value.toString(16) : value.toString(16).padStart(Math.ceil(width / 4), '0');
    case 'b':
      return field === 0 ? value.toString(2) : value.toString(2).padStart(width, '0');
    case 'd':
    case 'i': {
      const signed = conversion === 'i';
      const text = (signed ? signedOf(value, width) : value).toString();
      if (field === 0) return text;
      // `$display` pads to the longest value of the type: 2^W - 1, or -2^(W-1) with its sign.
      const longest = signed ? (-(1n << BigInt(width - 1))).toString() : ((1n << BigInt(width)) - 1n).toString();
      return text.padStart(field === 'auto' ? longest.length : field, ' ');
    }
  }
}

/**
 * A parsed format filled with argument values (each `widths[k]` bits, raw unsigned bits): the
 * exact text every engine prints.
 */
export function formatPrint(
  segments: readonly PrintSegment[],
  values: readonly bigint[],
  widths: readonly number[],
): string {
  let argument = 0;
  let text = '';
  for (const segment of segments) {
    if (typeof segment === 'string') text += segment;
    else {
      text += formatDirective(segment, values[argument]!, widths[argument]!);
      argument++;
    }
  }
  return text;
}
