/**
 * Bit widths as TypeScript types, so `tsc` refuses `a8.add(b16)` before anything runs (Clash's
 * `BitVector n` idea). Arithmetic is done on the decimal digits of the widths' literal types: a
 * tuple-length counter would stop near 1,000 (the compiler's recursion limit), while digits add
 * any width a design uses in a few steps. Where a width is a run-time parameter (`number`), every
 * result is `number` and the elaboration-time check is the only one, as before.
 */

type DigitChar = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';

/** 0…19 as strings, indexed by a digit sum (two digits and a carry). */
type SumDigit = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];

/** Small counters as tuple lengths: only single digits and a carry ever go through them. */
type DigitTuple = {
  '0': [];
  '1': [0];
  '2': [0, 0];
  '3': [0, 0, 0];
  '4': [0, 0, 0, 0];
  '5': [0, 0, 0, 0, 0];
  '6': [0, 0, 0, 0, 0, 0];
  '7': [0, 0, 0, 0, 0, 0, 0];
  '8': [0, 0, 0, 0, 0, 0, 0, 0];
  '9': [0, 0, 0, 0, 0, 0, 0, 0, 0];
};

type Reverse<S extends string, Done extends string = ''> = S extends `${infer Head}${infer Tail}`
  ? Reverse<Tail, `${Head}${Done}`>
  : Done;

/** Adds two reversed digit strings (least significant first) with a carry of 0 or 1. */
type AddReversed<A extends string, B extends string, Carry extends 0 | 1 = 0, Done extends string = ''> = A extends ''
  ? B extends ''
    ? Carry extends 1
      ? `${Done}1`
      : Done
    : AddReversed<'0', B, Carry, Done>
  : B extends ''
    ? AddReversed<A, '0', Carry, Done>
    : A extends `${infer DigitA extends DigitChar}${infer RestA}`
      ? B extends `${infer DigitB extends DigitChar}${infer RestB}`
        ? AddDigits<DigitA, DigitB, Carry> extends [infer Digit extends string, infer Next extends 0 | 1]
          ? AddReversed<RestA, RestB, Next, `${Done}${Digit}`>
          : never
        : never
      : never;

type AddDigits<A extends DigitChar, B extends DigitChar, Carry extends 0 | 1> = [
  ...DigitTuple[A],
  ...DigitTuple[B],
  ...(Carry extends 1 ? [0] : []),
]['length'] extends infer Sum extends number
  ? [SumDigit[Sum], Sum extends 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 ? 0 : 1]
  : never;

/** Subtracts reversed B from reversed A (A ≥ B), borrowing 0 or 1. */
type SubReversed<A extends string, B extends string, Borrow extends 0 | 1 = 0, Done extends string = ''> = A extends ''
  ? B extends ''
    ? Borrow extends 0
      ? Done
      : never
    : never
  : B extends ''
    ? SubReversed<A, '0', Borrow, Done>
    : A extends `${infer DigitA extends DigitChar}${infer RestA}`
      ? B extends `${infer DigitB extends DigitChar}${infer RestB}`
        ? SubDigits<DigitA, DigitB, Borrow> extends [infer Digit extends string, infer Next extends 0 | 1]
          ? SubReversed<RestA, RestB, Next, `${Done}${Digit}`>
          : never
        : never
      : never;

/** One digit of A − B − borrow, by counting up from B + borrow to A (or to A + 10, borrowing). */
type SubDigits<A extends DigitChar, B extends DigitChar, Borrow extends 0 | 1> = [
  ...DigitTuple[B],
  ...(Borrow extends 1 ? [0] : []),
] extends infer Low extends unknown[]
  ? DigitTuple[A] extends [...Low, ...infer Rest]
    ? [`${Rest['length']}`, 0]
    : [...DigitTuple[A], 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] extends [...Low, ...infer Rest]
      ? [`${Rest['length']}`, 1]
      : never
  : never;

type StripZeros<S extends string> = S extends `0${infer Rest extends `${DigitChar}${string}`}` ? StripZeros<Rest> : S;

type ToNumber<S extends string> = S extends `${infer N extends number}` ? N : never;

/** A whole, non-negative literal width (not `number`, not a fraction or a negative literal). */
type IsLiteralWidth<N extends number> = number extends N
  ? false
  : `${N}` extends `${DigitChar}${string}`
    ? `${N}` extends `${string}.${string}` | `${string}e${string}`
      ? false
      : true
    : false;

/** `A + B` for literal widths; `number` when either is not a literal. */
export type WidthSum<A extends number, B extends number> =
  IsLiteralWidth<A> extends true
    ? IsLiteralWidth<B> extends true
      ? ToNumber<Reverse<AddReversed<Reverse<`${A}`>, Reverse<`${B}`>>>>
      : number
    : number;

/** `A − B` for literal widths with A ≥ B; `number` otherwise (the run-time check reports it). */
export type WidthDifference<A extends number, B extends number> =
  IsLiteralWidth<A> extends true
    ? IsLiteralWidth<B> extends true
      ? [SubReversed<Reverse<`${A}`>, Reverse<`${B}`>>] extends [infer Digits extends string]
        ? [Digits] extends [never]
          ? number
          : ToNumber<StripZeros<Reverse<Digits>>>
        : number
      : number
    : number;

/** The width of bits `Hi..Lo` inclusive: `Hi − Lo + 1`. */
export type SliceWidth<Hi extends number, Lo extends number> = WidthSum<WidthDifference<Hi, Lo>, 1>;

/** The sum of the widths of a tuple of values (for `cat`); `number` for an array of unknown length. */
export type TotalWidth<Widths extends readonly number[]> = number extends Widths['length']
  ? number
  : Widths extends readonly [infer First extends number, ...infer Rest extends readonly number[]]
    ? WidthSum<First, TotalWidth<Rest>>
    : 0;

/**
 * What tsc says when two literal widths differ: the parameter's type gains this property, which
 * no value has, so the message names both widths (`… is not assignable to type 'Value<16> &
 * WidthMismatch<8, 16>'`, and the property's text where tsc expands it).
 */
export interface WidthMismatch<Expected extends number, Got extends number> {
  readonly 'width mismatch': `expected ${Expected} bits, got ${Got} bits`;
}

/** `unknown` (no constraint) when the widths agree or either is a run-time `number`; else a WidthMismatch. */
export type SameWidth<Expected extends number, Got extends number> = number extends Expected
  ? unknown
  : number extends Got
    ? unknown
    : [Expected] extends [Got]
      ? unknown
      : WidthMismatch<Expected, Got>;
