import { captureSourceLocation, type SourceLocation } from './sourceLocation.ts';
import { InvalidParameterError, SliceRangeError, WidthMismatchError } from './errors.ts';
import type { SameWidth, SliceWidth, TotalWidth, WidthSum } from './widthTypes.ts';

/** Widest signal the framework accepts; wider requests are refused with a clear error. */
export const MAX_WIDTH = 65536;

/** Every operator a hardware expression can use; the IR, simulator and Verilog backend share this list. */
export type Operator =
  | 'const'
  | 'ref'
  | 'not'
  | 'neg'
  | 'redand'
  | 'redor'
  | 'redxor'
  | 'and'
  | 'or'
  | 'xor'
  | 'add'
  | 'sub'
  | 'mul'
  | 'eq'
  | 'ne'
  | 'ltu'
  | 'leu'
  | 'lts'
  | 'les'
  | 'shl'
  | 'shr'
  | 'sra'
  | 'mux'
  | 'cat'
  | 'slice'
  | 'zext'
  | 'sext'
  | 'memread';

/**
 * Anything that can stand where a value of width W is expected: a hardware value, or a literal
 * sized to fit. This loose form does not compare widths in the types (use it where no width is
 * known); operators take an `Operand`, which does.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- W documents the expected width at call sites
export type ValueLike<W extends number = number> = Value | number | bigint;

/**
 * The other operand of an operator on a `Value<W>`: a literal, or a value whose width tsc checks
 * against W where both are literal types (`a8.add(b16)` does not compile, and the message names
 * both widths). Widths computed from parameters are plain `number`s to TypeScript, so agreement
 * is then checked when the hardware is built, at the user's line, with both widths in the message.
 */
export type Operand<W extends number, O extends number> = (Value<O> & SameWidth<W, O>) | number | bigint;

/** The widths of a tuple of values, in order. */
export type WidthsOf<Values extends readonly Value[]> = { readonly [K in keyof Values]: Values[K]['width'] };

/** Named things an expression may refer to (signals, memories); kept abstract to avoid import cycles. */
export interface Referable {
  readonly name: string;
}

export function checkWidth(width: number, location: SourceLocation): void {
  if (!Number.isInteger(width) || width < 1 || width > MAX_WIDTH)
    throw new InvalidParameterError(location, `width ${width} is not a whole number from 1 to ${MAX_WIDTH}`);
}

export function maskOf(width: number): bigint {
  return (1n << BigInt(width)) - 1n;
}

/** The attributes of every operator that has none: one shared object instead of an empty one per value. */
const NO_ATTRIBUTES = Object.freeze({});
/** The operands of a literal (none), shared likewise. */
const NO_ARGS: readonly Value[] = Object.freeze([]);

/**
 * An immutable hardware expression of a known width. Operators never truncate or extend silently:
 * operands of bitwise, arithmetic and comparison operators must have equal widths (use `zext`,
 * `sext` or `trunc`), literals are sized to the other operand and must fit.
 */
export class Value<W extends number = number> {
  constructor(
    readonly op: Operator,
    readonly width: W,
    readonly args: readonly Value[],
    readonly location: SourceLocation,
    /** Constant value (op 'const'), slice bounds (op 'slice'), referenced signal or memory. */
    readonly attributes: {
      readonly constant?: bigint;
      readonly hi?: number;
      readonly lo?: number;
      readonly target?: Referable;
    } = NO_ATTRIBUTES,
  ) {}

  // ---- bitwise and arithmetic, equal widths, result of the same width (modulo 2^W) ----
  /** Bitwise AND. */
  and<O extends number>(other: Operand<W, O>): Value<W> {
    return this.sameWidth('and', other);
  }
  /** Bitwise OR. */
  or<O extends number>(other: Operand<W, O>): Value<W> {
    return this.sameWidth('or', other);
  }
  /** Bitwise XOR. */
  xor<O extends number>(other: Operand<W, O>): Value<W> {
    return this.sameWidth('xor', other);
  }
  /** Sum modulo 2^W; use `addCarry` to keep the carry. */
  add<O extends number>(other: Operand<W, O>): Value<W> {
    return this.sameWidth('add', other);
  }
  /** Difference modulo 2^W. */
  sub<O extends number>(other: Operand<W, O>): Value<W> {
    return this.sameWidth('sub', other);
  }
  /** Full sum, one bit wider than the operands (the carry out is the top bit). */
  addCarry<O extends number>(other: Operand<W, O>): Value<WidthSum<W, 1>> {
    const rhs = coerce(other, this.width, captureSourceLocation());
    this.requireSameWidth('addCarry', rhs);
    const width = (this.width + 1) as WidthSum<W, 1>;
    return this.zext(width).add(rhs.zext(width));
  }
  /** Full unsigned product: width is the sum of the operand widths. */
  mul<O extends number>(other: Value<O>): Value<WidthSum<W, O>> {
    const location = captureSourceLocation();
    const width = checkedWidth(this.width + other.width, location) as WidthSum<W, O>;
    return new Value('mul', width, [this, other], location);
  }

  // ---- comparisons, equal widths, 1-bit result ----
  /** Equality. */
  eq<O extends number>(other: Operand<W, O>): Value<1> {
    return this.compare('eq', other);
  }
  /** Inequality. */
  ne<O extends number>(other: Operand<W, O>): Value<1> {
    return this.compare('ne', other);
  }
  /** Unsigned less-than. */
  lt<O extends number>(other: Operand<W, O>): Value<1> {
    return this.compare('ltu', other);
  }
  /** Unsigned less-or-equal. */
  le<O extends number>(other: Operand<W, O>): Value<1> {
    return this.compare('leu', other);
  }
  /** Unsigned greater-than. */
  gt<O extends number>(other: Operand<W, O>): Value<1> {
    return coerce(other, this.width, captureSourceLocation()).compare('ltu', this);
  }
  /** Unsigned greater-or-equal. */
  ge<O extends number>(other: Operand<W, O>): Value<1> {
    return coerce(other, this.width, captureSourceLocation()).compare('leu', this);
  }
  /** Two's-complement less-than. */
  slt<O extends number>(other: Operand<W, O>): Value<1> {
    return this.compare('lts', other);
  }
  /** Two's-complement less-or-equal. */
  sle<O extends number>(other: Operand<W, O>): Value<1> {
    return this.compare('les', other);
  }

  // ---- unary ----
  /** Bitwise NOT. */
  not(): Value<W> {
    return this.unary('not', this.width);
  }
  /** Two's-complement negation modulo 2^W. */
  neg(): Value<W> {
    return this.unary('neg', this.width);
  }
  /** AND of all bits. */
  andReduce(): Value<1> {
    return this.unary('redand', 1);
  }
  /** OR of all bits (non-zero test). */
  orReduce(): Value<1> {
    return this.unary('redor', 1);
  }
  /** XOR of all bits (parity). */
  xorReduce(): Value<1> {
    return this.unary('redxor', 1);
  }

  // ---- shifts: amount is a constant or an unsigned value of any width; result keeps W ----
  /** Logical shift left, zeros shifted in. */
  shl(amount: Value | number): Value<W> {
    return this.shift('shl', amount);
  }
  /** Logical shift right, zeros shifted in. */
  shr(amount: Value | number): Value<W> {
    return this.shift('shr', amount);
  }
  /** Arithmetic shift right, the sign bit shifted in. */
  sra(amount: Value | number): Value<W> {
    return this.shift('sra', amount);
  }

  // ---- bit selection and resizing ----
  /** Bits hi..lo inclusive (Verilog `x[hi:lo]`). */
  bits<Hi extends number, Lo extends number>(hi: Hi, lo: Lo): Value<SliceWidth<Hi, Lo>> {
    const location = captureSourceLocation();
    if (!Number.isInteger(hi) || !Number.isInteger(lo) || lo < 0 || hi < lo || hi >= this.width)
      throw new SliceRangeError(
        location,
        `slice [${hi}:${lo}] is outside a ${this.width}-bit value (bits ${this.width - 1}..0)`,
      );
    return new Value('slice', (hi - lo + 1) as SliceWidth<Hi, Lo>, [this], location, { hi, lo });
  }
  /** One bit. */
  bit(index: number): Value<1> {
    return this.bits(index, index) as Value<1>;
  }
  /** The top bit (sign of a two's-complement value). */
  msb(): Value<1> {
    return this.bits(this.width - 1, this.width - 1) as Value<1>;
  }
  /** Zero-extend to `width` (≥ this width). */
  zext<N extends number>(width: N): Value<N> {
    return this.extend('zext', width);
  }
  /** Sign-extend to `width` (≥ this width). */
  sext<N extends number>(width: N): Value<N> {
    return this.extend('sext', width);
  }
  /** Keep the low `width` bits (≤ this width): the only way to narrow. */
  trunc<N extends number>(width: N): Value<N> {
    const location = captureSourceLocation();
    if (width > this.width)
      throw new WidthMismatchError(location, `cannot truncate a ${this.width}-bit value to ${width} bits`);
    if ((width as number) === this.width) return this as unknown as Value<N>;
    return new Value('slice', width, [this], location, { hi: width - 1, lo: 0 });
  }

  private sameWidth(op: Operator, other: ValueLike): Value<W> {
    const location = captureSourceLocation();
    const rhs = coerce(other, this.width, location);
    this.requireSameWidth(op, rhs, location);
    return new Value(op, this.width, [this, rhs], location);
  }

  private compare(op: Operator, other: ValueLike): Value<1> {
    const location = captureSourceLocation();
    const rhs = coerce(other, this.width, location);
    this.requireSameWidth(op, rhs, location);
    return new Value(op, 1, [this, rhs], location);
  }

  private unary<N extends number>(op: Operator, width: N): Value<N> {
    return new Value(op, width, [this], captureSourceLocation());
  }

  private shift(op: Operator, amount: Value | number): Value<W> {
    const location = captureSourceLocation();
    if (typeof amount === 'number') {
      if (!Number.isInteger(amount) || amount < 0)
        throw new InvalidParameterError(location, `shift amount ${amount} is not a whole number ≥ 0`);
      const amountWidth = Math.max(1, Math.ceil(Math.log2(amount + 1)));
      return new Value(op, this.width, [this, constant(amount, amountWidth, location)], location);
    }
    return new Value(op, this.width, [this, amount], location);
  }

  private extend<N extends number>(op: 'zext' | 'sext', width: N): Value<N> {
    const location = captureSourceLocation();
    checkWidth(width, location);
    if (width < this.width)
      throw new WidthMismatchError(
        location,
        `cannot ${op} a ${this.width}-bit value to ${width} bits (use trunc to narrow)`,
      );
    if ((width as number) === this.width) return this as unknown as Value<N>;
    return new Value(op, width, [this], location);
  }

  private requireSameWidth(op: string, other: Value, location = captureSourceLocation()): void {
    if (other.width !== this.width)
      throw new WidthMismatchError(
        location,
        `'${op}' needs operands of equal width, got ${this.width} and ${other.width} bits (use zext/sext/trunc)`,
      );
  }
}

function checkedWidth(width: number, location: SourceLocation): number {
  checkWidth(width, location);
  return width;
}

/** A literal of the given width; it must fit (0 ≤ v < 2^width). */
export function constant<W extends number>(
  value: number | bigint,
  width: W,
  location = captureSourceLocation(),
): Value<W> {
  checkWidth(width, location);
  if (typeof value === 'number' && !Number.isSafeInteger(value))
    throw new InvalidParameterError(
      location,
      `literal ${value} is not a whole number (use a bigint for values above 2^53)`,
    );
  const big = BigInt(value);
  if (big < 0n || big > maskOf(width))
    throw new WidthMismatchError(location, `literal ${value} does not fit in ${width} bits`);
  return new Value('const', width, NO_ARGS, location, { constant: big });
}

/** A value as it is, or a literal sized to `width`; callers check the width where it matters. */
export function coerce(value: ValueLike, width: number, location: SourceLocation): Value {
  return value instanceof Value ? value : constant(value, width, location);
}

/** The width of a mux whose arms are `T` and `F`: the width of whichever arm is a value. */
export type MuxWidth<T, F> = T extends Value<infer W> ? W : F extends Value<infer W> ? W : number;

/** `condition ? whenTrue : whenFalse`; both arms of one width (tsc checks literal widths), a 1-bit condition. */
export function mux<T extends ValueLike, F extends ValueLike>(
  condition: Value<1> | Value,
  whenTrue: T,
  whenFalse: F & (T extends Value<infer A> ? (F extends Value<infer B> ? SameWidth<A, B> : unknown) : unknown),
): Value<MuxWidth<T, F>> {
  const location = captureSourceLocation();
  if (condition.width !== 1)
    throw new WidthMismatchError(location, `mux condition must be 1 bit, got ${condition.width}`);
  const width = (
    whenTrue instanceof Value ? whenTrue.width : whenFalse instanceof Value ? whenFalse.width : undefined
  ) as MuxWidth<T, F> | undefined;
  if (width === undefined)
    throw new WidthMismatchError(location, 'mux of two literals has no width: give one arm a width with constant()');
  const a = coerce(whenTrue, width, location);
  const b = coerce(whenFalse, width, location);
  if (a.width !== b.width)
    throw new WidthMismatchError(location, `mux arms must have equal width, got ${a.width} and ${b.width} bits`);
  return new Value('mux', width, [condition, a, b], location);
}

/** Concatenation, most significant part first (Verilog `{a, b}`); its width is the sum of the parts' in the types too. */
export function cat<const Parts extends readonly Value[]>(...parts: Parts): Value<TotalWidth<WidthsOf<Parts>>> {
  const location = captureSourceLocation();
  if (parts.length === 0) throw new WidthMismatchError(location, 'cat needs at least one part');
  if (parts.length === 1) return parts[0] as Value<TotalWidth<WidthsOf<Parts>>>;
  const width = checkedWidth(
    parts.reduce((sum, part) => sum + part.width, 0),
    location,
  ) as TotalWidth<WidthsOf<Parts>>;
  return new Value('cat', width, parts, location);
}

/** Selects `options[index]`; all options of one width. Out-of-range indices give the last option. */
export function select<W extends number>(index: Value, options: readonly Value<W>[]): Value<W> {
  const location = captureSourceLocation();
  const first = options[0];
  if (!first) throw new InvalidParameterError(location, 'select needs at least one option');
  let result: Value<W> = options[options.length - 1] as Value<W>;
  for (let i = options.length - 2; i >= 0; i--) {
    const option = options[i] as Value<W>;
    if (option.width !== first.width)
      throw new WidthMismatchError(
        location,
        `select options must have equal width, got ${first.width} and ${option.width}`,
      );
    if (i >= 2 ** index.width) continue;
    result = mux(index.eq(constant(i, index.width, location)), option, result);
  }
  return result;
}

/** Number of bits needed to hold values 0..maxValue. */
export function bitsFor(maxValue: number): number {
  return Math.max(1, Math.ceil(Math.log2(maxValue + 1)));
}
