import type { CellOp } from '../ir/ir.ts';
import type { FlatCell, FlatDesign } from './flatten.ts';
import { planStorage, type StoragePlan } from './storagePlan.ts';
import { WORD_BITS, wordsOf, topBits } from './words.ts';
import type { InstanceGroups } from './instanceGroups.ts';

export type { StorageLayout } from './storagePlan.ts';

/** The int32 literal of the 32 bits of `value` starting at word `index`. */
const wordLiteral = (value: bigint, index: number): string => {
  const word = Number(BigInt.asIntN(WORD_BITS, value >> BigInt(WORD_BITS * index)));
  return word < 0 ? `(${word})` : String(word);
};
/** The int32 mask of the low `bits` bits (1–32). */
const maskLiteral = (bits: number): string => (bits === WORD_BITS ? '(-1)' : String(2 ** bits - 1));
const ZERO = '0';

/** Keeps only the used bits of the top word (the storage invariant: bits above the width are zero). */
function maskTop(words: string[], width: number): string[] {
  const bits = topBits(width);
  const top = words.length - 1;
  if (bits < WORD_BITS && words[top] !== ZERO) words[top] = `(${words[top]} & ${maskLiteral(bits)})`;
  return words;
}

/**
 * The 32 bits of a word sequence starting at bit `position` (negative positions shift in zeros
 * from below): one word when aligned, else the two words it straddles.
 */
function field(source: WordSource, position: number): string {
  const index = Math.floor(position / WORD_BITS);
  const shift = position - WORD_BITS * index;
  const low = source.word(index);
  if (shift === 0) return low;
  const high = source.word(index + 1);
  const parts = [
    ...(low === ZERO ? [] : [`(${low} >>> ${shift})`]),
    ...(high === ZERO ? [] : [`(${high} << ${WORD_BITS - shift})`]),
  ];
  return parts.length === 0 ? ZERO : parts.length === 1 ? parts[0]! : `(${parts.join(' | ')})`;
}

/** Anything whose words can be read by index (zero outside the value). */
interface WordSource {
  word(index: number): string;
}

/** An input of a cell as generated-code word expressions. */
class Operand implements WordSource {
  constructor(
    readonly words: readonly string[],
    readonly width: number,
  ) {}

  /** Word `index`, zero outside the value. */
  word(index: number): string {
    return index >= 0 && index < this.words.length ? this.words[index]! : ZERO;
  }

  /** Word `index` as an unsigned number (only full 32-bit words need the conversion). */
  unsigned(index: number): string {
    const word = this.word(index);
    const partial = index === this.words.length - 1 && topBits(this.width) < WORD_BITS;
    return word === ZERO || partial ? word : `(${word} >>> 0)`;
  }

  /** Word `index` of the value read as a signed `width`-bit number, sign-extended upward forever. */
  signed(index: number, width = this.width): string {
    const top = wordsOf(width) - 1;
    if (index < top) return this.word(index);
    const bits = topBits(width);
    const extended =
      bits === WORD_BITS ? this.word(top) : `((${this.word(top)} << ${WORD_BITS - bits}) >> ${WORD_BITS - bits})`;
    return index === top ? extended : `(${extended} >> 31)`;
  }

  /** The value as a non-negative number when it fits 32 bits, else `overflow`. */
  small(overflow: number): string {
    const high = this.words.slice(1).filter((word) => word !== ZERO);
    return high.length === 0 ? this.unsigned(0) : `((${high.join(' | ')}) !== 0 ? ${overflow} : ${this.unsigned(0)})`;
  }

  /** The value as a BigInt (the rare wide paths only). */
  big(): string {
    return `(${this.words.map((_, index) => `(BigInt(${this.unsigned(index)}) << ${WORD_BITS * index}n)`).join(' | ')})`;
  }
}

/** What one cell compiles to: statements to run first, then an expression per output word. */
interface Emitted {
  readonly pre: readonly string[];
  readonly words: readonly string[];
}

/** Everything an operator's code generator may ask about its cell. */
interface CellContext {
  readonly cell: FlatCell;
  /** Unique suffix for temporaries of this cell. */
  readonly id: number;
  readonly width: number;
  readonly count: number;
  readonly inputs: readonly Operand[];
  readonly constantOf: (input: number) => bigint | undefined;
  readonly memory: (index: number) => { readonly width: number; readonly depth: number };
}

const pure = (words: string[]): Emitted => ({ pre: [], words });
function eachWord(context: CellContext, word: (index: number) => string): string[] {
  const words = new Array<string>(context.count);
  for (let index = 0; index < context.count; index++) words[index] = word(index);
  return words;
}
const bool = (condition: string): string => `(${condition} ? 1 : 0)`;

/** Word-wise carry (add) or borrow (sub) chain; one word is plain int32 arithmetic. */
function addOrSubtract(context: CellContext, a: Operand, b: Operand, operator: '+' | '-'): Emitted {
  if (context.count === 1) return pure(maskTop([`((${a.word(0)} ${operator} ${b.word(0)}) | 0)`], context.width));
  const sum = (index: number): string => `s${context.id}_${index}`;
  const carryIn = (index: number): string =>
    index === 0
      ? ''
      : operator === '+'
        ? ` + (${sum(index - 1)} > 4294967295 ? 1 : 0)`
        : ` - (${sum(index - 1)} < 0 ? 1 : 0)`;
  const pre = eachWord(
    context,
    (index) => `const ${sum(index)} = ${a.unsigned(index)} ${operator} ${b.unsigned(index)}${carryIn(index)};`,
  );
  return {
    pre,
    words: maskTop(
      eachWord(context, (index) => `(${sum(index)} | 0)`),
      context.width,
    ),
  };
}

/** Unsigned or signed less-than (or less-or-equal), decided from the top word down. */
function compare(context: CellContext, strict: boolean, signed: boolean): Emitted {
  const [a, b] = context.inputs as [Operand, Operand];
  const width = Math.max(a.width, b.width);
  const top = wordsOf(width) - 1;
  const side = (operand: Operand, index: number): string =>
    signed && index === top ? operand.signed(index, width) : operand.unsigned(index);
  let condition = `${side(a, 0)} ${strict ? '<' : '<='} ${side(b, 0)}`;
  for (let index = 1; index <= top; index++)
    condition = `(${side(a, index)} < ${side(b, index)} || (${a.word(index)} === ${b.word(index)} && ${condition}))`;
  return pure([bool(condition)]);
}

/** The BigInt path for what has no word-level code (wide multiply, dynamic shifts of wide values). */
function viaBigInt(context: CellContext, expression: (a: string, b: string) => string): Emitted {
  const [a, b] = context.inputs as [Operand, Operand];
  const name = `b${context.id}`;
  return {
    pre: [`const ${name} = BigInt.asUintN(${context.width}, ${expression(a.big(), b.big())});`],
    words: eachWord(context, (index) => `Number(BigInt.asIntN(32, ${name} >> ${WORD_BITS * index}n))`),
  };
}

type Shift = 'shl' | 'shr' | 'sra';

/** Output word `index` of a shift by a known amount (already limited to the width). */
const STATIC_SHIFT: Record<Shift, (a: Operand, width: number, amount: number, index: number) => string> = {
  shl: (a, _width, amount, index) => field(a, WORD_BITS * index - amount),
  shr: (a, _width, amount, index) => field(a, WORD_BITS * index + amount),
  sra: (a, width, amount, index) =>
    field(
      { word: (word) => (word < 0 ? ZERO : a.signed(word, width)) },
      WORD_BITS * index + Math.min(amount, width - 1),
    ),
};

/** A one-word shift by a run-time amount `t` (already limited). */
const DYNAMIC_SHIFT: Record<Shift, (a: Operand, width: number, t: string) => string> = {
  shl: (a, width, t) => `(${t} >= ${width} ? 0 : ${a.word(0)} << ${t})`,
  shr: (a, width, t) => `(${t} >= ${width} ? 0 : (${a.word(0)} >>> ${t}) | 0)`,
  sra: (a, width, t) => `(${a.signed(0, width)} >> (${t} >= ${width} ? ${width - 1} : ${t}))`,
};

const BIG_SHIFT: Record<Shift, (a: string, t: string, width: number) => string> = {
  shl: (a, t) => `${a} << ${t}`,
  shr: (a, t) => `${a} >> ${t}`,
  sra: (a, t, width) => `BigInt.asIntN(${width}, ${a}) >> ${t}`,
};

/** Shifts: constant amounts become word moves; one-word run-time shifts are int32; the rest BigInt. */
function shift(kind: Shift): (context: CellContext) => Emitted {
  return (context) => {
    const [a, b] = context.inputs as [Operand, Operand];
    const amount = context.constantOf(context.cell.inputs[1]!);
    const { width } = context;
    if (amount !== undefined) {
      const limited = amount >= BigInt(width) ? width : Number(amount);
      return pure(
        maskTop(
          eachWord(context, (index) => STATIC_SHIFT[kind](a, width, limited, index)),
          width,
        ),
      );
    }
    if (context.count === 1 && a.words.length === 1) {
      const t = `t${context.id}`;
      return { pre: [`const ${t} = ${b.small(width)};`], words: maskTop([DYNAMIC_SHIFT[kind](a, width, t)], width) };
    }
    return viaBigInt(context, (aBig, bBig) =>
      BIG_SHIFT[kind](aBig, `(${bBig} >= ${width}n ? ${width}n : ${bBig})`, width),
    );
  };
}

const bitwise =
  (operator: '&' | '|' | '^') =>
  (context: CellContext): Emitted => {
    const [a, b] = context.inputs as [Operand, Operand];
    return pure(eachWord(context, (index) => `(${a.word(index)} ${operator} ${b.word(index)})`));
  };

/** Word-level code for every operator, following hw/ir/evaluate.ts exactly. */
const OPERATORS: Record<CellOp, (context: CellContext) => Emitted> = {
  const: (context) => pure(eachWord(context, (index) => wordLiteral(context.cell.constant!, index))),
  buf: (context) => pure(eachWord(context, (index) => context.inputs[0]!.word(index))),
  zext: (context) => pure(eachWord(context, (index) => context.inputs[0]!.word(index))),
  // x ^ mask on the top word: the bits above the width are zero in x, so they stay zero.
  not: (context) => {
    const top = context.count - 1;
    const topMask = maskLiteral(topBits(context.width));
    return pure(
      eachWord(context, (index) =>
        index === top && topMask !== '(-1)'
          ? `(${context.inputs[0]!.word(index)} ^ ${topMask})`
          : `(~${context.inputs[0]!.word(index)})`,
      ),
    );
  },
  neg: (context) => addOrSubtract(context, new Operand([ZERO], 1), context.inputs[0]!, '-'),
  and: bitwise('&'),
  or: bitwise('|'),
  xor: bitwise('^'),
  add: (context) => addOrSubtract(context, context.inputs[0]!, context.inputs[1]!, '+'),
  sub: (context) => addOrSubtract(context, context.inputs[0]!, context.inputs[1]!, '-'),
  mul: (context) => {
    const [a, b] = context.inputs as [Operand, Operand];
    if (context.count === 1) return pure(maskTop([`Math.imul(${a.word(0)}, ${b.word(0)})`], context.width));
    return viaBigInt(context, (aBig, bBig) => `${aBig} * ${bBig}`);
  },
  eq: (context) => pure([bool(equalWords(context))]),
  ne: (context) => pure([`(${equalWords(context)} ? 0 : 1)`]),
  ltu: (context) => compare(context, true, false),
  leu: (context) => compare(context, false, false),
  lts: (context) => compare(context, true, true),
  les: (context) => compare(context, false, true),
  shl: shift('shl'),
  shr: shift('shr'),
  sra: shift('sra'),
  mux: (context) => {
    const [select, a, b] = context.inputs as [Operand, Operand, Operand];
    const condition = select.words.length === 1 ? select.word(0) : `(${select.words.join(' | ')})`;
    return pure(eachWord(context, (index) => `(${condition} ? ${a.word(index)} : ${b.word(index)})`));
  },
  cat: (context) => {
    const placed: { operand: Operand; offset: number }[] = [];
    let offset = 0;
    for (let index = context.inputs.length - 1; index >= 0; index--) {
      placed.push({ operand: context.inputs[index]!, offset });
      offset += context.inputs[index]!.width;
    }
    return pure(
      eachWord(context, (index) => {
        const parts = placed
          .map(({ operand, offset: at }) => field(operand, WORD_BITS * index - at))
          .filter((part) => part !== ZERO);
        return parts.length === 0 ? ZERO : parts.length === 1 ? parts[0]! : `(${parts.join(' | ')})`;
      }),
    );
  },
  slice: (context) => {
    const source = context.inputs[0]!;
    const words = eachWord(context, (index) => field(source, context.cell.lo! + WORD_BITS * index));
    // A slice up to the source's top bit reads zeros above it already (the storage invariant).
    return pure(context.cell.hi === source.width - 1 ? words : maskTop(words, context.width));
  },
  sext: (context) =>
    pure(
      maskTop(
        eachWord(context, (index) => context.inputs[0]!.signed(index)),
        context.width,
      ),
    ),
  redand: (context) => {
    const a = context.inputs[0]!;
    const full = a.words.map(
      (word, index) => `${word} === ${index === a.words.length - 1 ? maskLiteral(topBits(a.width)) : '(-1)'}`,
    );
    return pure([bool(`(${full.join(' && ')})`)]);
  },
  redor: (context) => pure([bool(`(${context.inputs[0]!.words.join(' | ')}) !== 0`)]),
  redxor: (context) => pure([`parity32(${context.inputs[0]!.words.join(' ^ ')})`]),
  memread: (context) => {
    const memory = context.memory(context.cell.memory!);
    const address = context.inputs[0]!;
    const stride = wordsOf(memory.width);
    const t = `t${context.id}`;
    const inRange = 2 ** address.width <= memory.depth;
    const slot = (index: number): string =>
      `m${context.cell.memory}[${stride === 1 ? t : `${t} * ${stride} + ${index}`}]`;
    return {
      pre: [`const ${t} = ${address.small(memory.depth)};`],
      words: eachWord(context, (index) => (inRange ? slot(index) : `(${t} < ${memory.depth} ? ${slot(index)} : 0)`)),
    };
  },
};

function equalWords(context: CellContext): string {
  const [a, b] = context.inputs as [Operand, Operand];
  const count = Math.max(a.words.length, b.words.length);
  return `(${Array.from({ length: count }, (_, index) => `${a.word(index)} === ${b.word(index)}`).join(' && ')})`;
}

/** A word expression cheap and stable enough to repeat wherever it is read instead of binding it. */
const SIMPLE = /^(\(?-?\d+\)?|n\[(b \+ )?\d+\]|v\d+_\d+|a\d+)$/;

/**
 * V8 never optimizes functions over 60 KB of bytecode (1500 BigInt statements were past it); chunks of
 * this many output words measured ≤ 17 KB on MmaUnit while keeping most intermediates chunk-local.
 */
export const WORDS_PER_FUNCTION = 500;

/**
 * Operators whose code reads each one-word input exactly once when the output is one word too, so
 * a one-word input read by nothing else can be written into the reader's expression instead of a
 * local (see `singleReaders`).
 */
const READS_EACH_WORD_ONCE = new Set<CellOp>([
  'and',
  'or',
  'xor',
  'not',
  'add',
  'sub',
  'mul',
  'eq',
  'ne',
  'ltu',
  'leu',
  'lts',
  'les',
  'shl',
  'shr',
  'sra',
  'mux',
  'cat',
  'slice',
  'sext',
  'redand',
  'redor',
  'redxor',
  'memread',
]);

/** Nesting limit of such inlined expressions: deep chains must not overflow V8's parser. */
const MAX_INLINE_DEPTH = 12;

/**
 * Per net class root: 1 when exactly one code-generating cell reads it, once, and that cell is a
 * one-word operator of READS_EACH_WORD_ONCE over one-word inputs. Such values need no `const`:
 * fewer named locals keep V8's optimizing compile of the settle chunks far cheaper (every
 * deoptimization point records all live locals), and the code is smaller.
 */
function singleReaders(design: FlatDesign, plan: StoragePlan): { inlinable: Uint8Array; reads: Int32Array } {
  const { cells, nets } = design;
  const reads = new Int32Array(nets.length);
  const qualifies = new Uint8Array(nets.length);
  const { widths } = nets;
  const { inputStart, inputNets } = cells;
  const oneWord = (net: number): boolean => widths[net]! <= WORD_BITS;
  for (let index = 0; index < cells.length; index++) {
    if (plan.aliased[index]) continue;
    const op = cells.op(index);
    const first = inputStart[index]!;
    const end = inputStart[index + 1]!;
    let inlines = READS_EACH_WORD_ONCE.has(op) && oneWord(cells.output(index));
    for (let at = first; at < end && inlines; at++) inlines = oneWord(inputNets[at]!);
    for (let at = first; at < end; at++) {
      const root = plan.root[inputNets[at]!]!;
      reads[root]!++;
      // Not into a mux arm: code there runs only when selected, so until both arms have run V8
      // optimizes without type feedback for it and deoptimizes (and recompiles) on first use.
      qualifies[root] = inlines && !(op === 'mux' && at > first) ? 1 : 0;
    }
  }
  return { inlinable: qualifies.map((flag, net) => (flag && reads[net] === 1 ? 1 : 0)), reads };
}

/** How the cells of one instance group are being written (SettleWriter.emitGroup). */
interface GroupFrame {
  readonly group: number;
  readonly netLow: number;
  /** The group's first word: its stored words are `n[b + offset - base]`. */
  readonly base: number;
  /** Word expressions of the nets the group's cells computed so far. */
  readonly words: Map<number, readonly string[]>;
  /** Word expressions of the outside nets it reads: its parameters (`a<k>`). */
  readonly outside: Map<number, readonly string[]>;
  /** The caller's word expressions of every parameter, in parameter order. */
  readonly arguments: string[];
  /** Per cell of the group: its position in the group's order (temporaries are named by it). */
  position: number;
}

/**
 * Emits the settle chunks: every cell in levelized order, bound to array slots or chunk-local
 * constants. Streams: a chunk's statements become its function's text as soon as the next chunk
 * starts, and a net's word expressions are dropped once its last reader is written (stored nets
 * get theirs again on demand), so what is held at once is about one chunk, not the whole design.
 * An instance group's cells become a function of the group's base word and the words it reads,
 * one per distinct body (`g<k>`), and a call of it in the chunk.
 */
class SettleWriter {
  private readonly words: (readonly string[] | undefined)[];
  private readonly inlinable: Uint8Array;
  /** Per net class root: readers among the cells not yet written. */
  private readonly unread: Int32Array;
  /** Per net: nesting depth of its inlined expression (0 when it is a slot, local or literal). */
  private readonly depth: Uint8Array;
  /** Per net class root: the cell computing it (-1: an input or a register output). */
  private readonly driver: Int32Array;
  /** The text of every non-empty settle function so far (`function settle<k>() { … }`). */
  readonly functions: string[] = [];
  /** The group functions' names by their text after the name. */
  private readonly groupNames = new Map<string, string>();
  /** Per group function: the memories it reads (lanes mode points them before calling it). */
  private readonly groupArrays = new Map<string, ReadonlySet<string>>();
  /** The text of every group function (`function g<k>(b, a0, …) { … }`), in order of first use. */
  readonly groupFunctions: string[] = [];
  private chunk = -1;
  private statements: string[] = [];
  /** The group being written, if any. */
  private frame: GroupFrame | undefined;
  /** Stores of constants that need a home: done once, as nothing else writes those words. */
  readonly constants: string[] = [];

  /** Shared by every cell's context (made once: closures per cell cost measurably on 10⁵ cells). */
  private readonly constantOf = (input: number): bigint | undefined => this.plan.constants.get(this.plan.root[input]!);
  private readonly memory = (index: number): { readonly width: number; readonly depth: number } =>
    this.design.memories[index]!;

  constructor(
    private readonly design: FlatDesign,
    private readonly plan: StoragePlan,
    /** Lanes mode (generateModel): every function's body runs once per lane. */
    private readonly lanes = false,
  ) {
    this.words = new Array<readonly string[] | undefined>(design.nets.length);
    const { inlinable, reads } = singleReaders(design, plan);
    this.inlinable = inlinable;
    this.unread = reads;
    this.depth = new Uint8Array(design.nets.length);
    this.driver = new Int32Array(design.nets.length).fill(-1);
    for (let cell = 0; cell < design.cells.length; cell++)
      if (!plan.aliased[cell]) this.driver[design.cells.output(cell)] = cell;
  }

  /** Closes the chunk being written (if it has statements) as the next settle function. */
  finish(): void {
    if (this.statements.length > 0)
      this.functions.push(
        modelFunction(`settle${this.functions.length}`, this.statements, this.design, this.lanes, this.groupArrays),
      );
    this.statements = [];
  }

  /** The word expressions of a net (its class root's), in the group being written if any. */
  wordsOf(net: number): readonly string[] {
    const root = this.plan.root[net]!;
    const frame = this.frame;
    if (frame) {
      const driver = this.driver[root]!;
      if (driver >= 0 && this.plan.chunkOf[driver] === -2 - frame.group)
        return frame.words.get(root) ?? this.missing(net);
      return frame.outside.get(root) ?? this.parameter(frame, root);
    }
    const words =
      this.words[root] ?? (this.plan.layout.offset[root]! >= 0 ? (this.words[root] = this.slots(root)) : undefined);
    return words ?? this.missing(net);
  }

  private missing(net: number): never {
    throw new Error(`internal: net ${net} read before it is computed`);
  }

  /**
   * An outside net read in a group: new parameters, bound to the caller's words (always stored
   * ones, as the group is a chunk of its own: a constant input is passed like any other, so an
   * instance with a tied-off port still shares its function).
   */
  private parameter(frame: GroupFrame, root: number): readonly string[] {
    this.frame = undefined;
    const caller = this.wordsOf(root);
    this.frame = frame;
    const words = caller.map((word) => {
      frame.arguments.push(word);
      return `a${frame.arguments.length - 1}`;
    });
    frame.outside.set(root, words);
    return words;
  }

  private inputDepth(cell: FlatCell): number {
    let depth = 0;
    for (const input of cell.inputs) depth = Math.max(depth, this.depth[this.plan.root[input]!]!);
    return depth;
  }

  private slots(net: number): string[] {
    const offset = this.plan.layout.offset[net]!;
    return Array.from({ length: wordsOf(this.design.nets.widths[net]!) }, (_, index) => `n[${offset + index}]`);
  }

  /**
   * The cells of one group (contiguous in the order): written as the body of a function of the
   * group's base and of the words it reads from outside, then called from the current chunk.
   * Its stored words are `n[b + k]`, its locals and temporaries named by position in the group,
   * so instances of one module whose cells simplified alike share one function.
   */
  emitGroup(group: number, cells: readonly number[]): void {
    const base = this.plan.groupBase[group]!;
    const frame: GroupFrame = {
      group,
      netLow: this.plan.groupNetLow[group]!,
      base,
      words: new Map(),
      outside: new Map(),
      arguments: [],
      position: 0,
    };
    const caller = this.statements;
    this.statements = [];
    this.frame = frame;
    for (const cell of cells) {
      this.emit(cell);
      frame.position++;
    }
    this.frame = undefined;
    const body = this.statements;
    this.statements = caller;
    if (body.length === 0) return;
    const parameters = ['b', ...frame.arguments.map((_, index) => `a${index}`)].join(', ');
    const text = `(${parameters}) {\n  ${body.join('\n  ')}\n}`;
    let name = this.groupNames.get(text);
    if (name === undefined) {
      name = `g${this.groupNames.size}`;
      this.groupNames.set(text, name);
      if (this.lanes) this.groupArrays.set(name, arraysUsed(body));
      this.groupFunctions.push(`function ${name}${text}`);
    }
    if (this.plan.callChunk[group] !== this.chunk) {
      this.finish();
      this.chunk = this.plan.callChunk[group]!;
    }
    this.statements.push(`${name}(${[String(base), ...frame.arguments].join(', ')});`);
  }

  emit(cellIndex: number): void {
    if (this.plan.aliased[cellIndex]) return;
    const frame = this.frame;
    const cell = this.design.cells.get(cellIndex);
    const { widths } = this.design.nets;
    const width = widths[cell.output]!;
    const inputs = new Array<Operand>(cell.inputs.length);
    for (let index = 0; index < inputs.length; index++)
      inputs[index] = new Operand(this.wordsOf(cell.inputs[index]!), widths[cell.inputs[index]!]!);
    const context: CellContext = {
      cell,
      id: frame ? frame.position : cellIndex,
      width,
      count: wordsOf(width),
      inputs,
      constantOf: this.constantOf,
      memory: this.memory,
    };
    const { pre, words } = OPERATORS[cell.op](context);
    for (const input of cell.inputs) {
      const root = this.plan.root[input]!;
      if (--this.unread[root]! === 0) this.words[root] = undefined;
    }
    const stored = this.plan.layout.offset[cell.output]! >= 0;
    if (!frame && this.plan.chunkOf[cellIndex] !== this.chunk) {
      this.finish();
      this.chunk = this.plan.chunkOf[cellIndex]!;
    }
    const out = stored && cell.op === 'const' ? this.constants : this.statements;
    out.push(...pre);
    const set = (value: readonly string[]): void => {
      if (frame) frame.words.set(cell.output, value);
      else this.words[cell.output] = value;
    };
    if (stored) {
      // Constants are stored once, at absolute words, outside any group's code.
      const absolute = this.slots(cell.output);
      const slots =
        frame && cell.op !== 'const'
          ? absolute.map((_, index) => `n[b + ${this.plan.layout.offset[cell.output]! - frame.base + index}]`)
          : absolute;
      words.forEach((word, index) => out.push(`${slots[index]} = ${word};`));
      if (frame) frame.words.set(cell.output, cell.op === 'const' ? words : slots);
      else this.words[cell.output] = this.unread[cell.output] === 0 ? undefined : slots;
    } else if (words.every((word) => SIMPLE.test(word))) {
      set(words);
    } else if (this.inlinable[cell.output] && this.inputDepth(cell) < MAX_INLINE_DEPTH) {
      set([`(${words[0]!})`]);
      this.depth[cell.output] = this.inputDepth(cell) + 1;
    } else {
      const local = frame ? cell.output - frame.netLow : cell.output;
      set(
        words.map((word, index) => {
          const name = `v${local}_${index}`;
          out.push(`const ${name} = ${word};`);
          return name;
        }),
      );
    }
  }
}

/** The per-lane arrays (`nn`, `m<i>`) a body reads or writes, directly or in the group functions it calls. */
function arraysUsed(
  body: readonly string[],
  groups: ReadonlyMap<string, ReadonlySet<string>> = new Map(),
): Set<string> {
  const used = new Set<string>();
  for (const [name] of body.join('\n').matchAll(/\b(nn|m\d+)\[|\bg\d+\(/g)) {
    const array = name.slice(0, -1);
    if (array.startsWith('g')) for (const inner of groups.get(array) ?? []) used.add(inner);
    else used.add(array);
  }
  return used;
}

/**
 * A generated function of the model. In lanes mode its body runs once per lane, lane after lane,
 * with `n`, the memories and the edge's samples pointed at that lane's arrays first: the body is
 * the one-stream code unchanged (constant indices), one call covers every lane.
 */
function modelFunction(
  name: string,
  body: readonly string[],
  design: FlatDesign,
  lanes: boolean,
  groups?: ReadonlyMap<string, ReadonlySet<string>>,
): string {
  if (!lanes) return `function ${name}() {\n  ${body.join('\n  ')}\n}`;
  // Only the arrays the body uses (a batch of fuzz designs has dozens of memories).
  const used = arraysUsed(body, groups);
  const point = [
    'n = N[l];',
    ...(used.has('nn') ? ['nn = NN[l];'] : []),
    ...design.memories.flatMap((_, index) => (used.has(`m${index}`) ? [`m${index} = M${index}[l];`] : [])),
  ];
  return `function ${name}() {\n  for (let l = 0; l < lanes; l++) {\n  ${point.join(' ')}\n  ${body.join('\n  ')}\n  }\n}`;
}

/** The calls of functions `prefix0` … `prefix<count - 1>`, in order. */
const callsOf = (prefix: string, count: number): string =>
  Array.from({ length: count }, (_, index) => `${prefix}${index}();`).join(' ');

/** Splits a statement list into bodies of at most WORDS_PER_FUNCTION statements. */
function split(statements: readonly string[]): string[][] {
  const bodies: string[][] = [];
  for (let start = 0; start < statements.length; start += WORDS_PER_FUNCTION)
    bodies.push(statements.slice(start, start + WORDS_PER_FUNCTION));
  return bodies;
}

/**
 * The bits of storage word `word` a masked write changes: the mask's own word for a bit mask, else
 * each lane's mask bit spread over the lane's bits in that word (`-(bit) & lane bits`).
 */
function laneBits(mask: readonly string[], granularity: number, width: number, word: number): string {
  if (granularity === 1) return mask[word] ?? ZERO;
  const terms: string[] = [];
  const low = word * WORD_BITS;
  const high = Math.min(width, low + WORD_BITS);
  for (let lane = Math.floor(low / granularity); lane * granularity < high; lane++) {
    const from = Math.max(low, lane * granularity) - low;
    const to = Math.min(high, (lane + 1) * granularity) - low;
    const bits = to - from === WORD_BITS ? -1 : ((2 ** (to - from) - 1) * 2 ** from) | 0;
    const maskWord = mask[Math.floor(lane / WORD_BITS)] ?? ZERO;
    terms.push(`(-((${maskWord} >>> ${lane % WORD_BITS}) & 1) & ${bits < 0 ? `(${bits})` : bits})`);
  }
  return terms.length === 0 ? ZERO : terms.join(' | ');
}

/** Register sampling, memory writes and register commits of one clock (all clocks: undefined). */
interface EdgeStatements {
  readonly sample: string[];
  readonly writes: string[];
  readonly commit: string[];
}

/** What the rising edge of each clock does, per clock index (one entry when the design has at most one clock). */
function edgeStatements(
  design: FlatDesign,
  writer: SettleWriter,
): { byClock: EdgeStatements[]; sampleWords: number; asyncResets: string[] } {
  const perClock = Math.max(1, design.clocks.length > 1 ? design.clocks.length : 1);
  const byClock: EdgeStatements[] = Array.from({ length: perClock }, () => ({ sample: [], writes: [], commit: [] }));
  const group = (clock: number): EdgeStatements => byClock[perClock === 1 ? 0 : clock]!;
  const asyncResets: string[] = [];
  let next = 0;
  for (const register of design.registers) {
    const q = writer.wordsOf(register.q);
    const d = writer.wordsOf(register.d);
    const reset = register.reset >= 0 ? writer.wordsOf(register.reset)[0] : undefined;
    const { sample, commit } = group(register.clock);
    q.forEach((slot, index) => {
      const held = d[index] ?? ZERO;
      sample.push(
        `nn[${next}] = ${reset === undefined ? held : `${reset} ? ${wordLiteral(register.resetValue, index)} : ${held}`};`,
      );
      commit.push(`${slot} = nn[${next++}];`);
    });
    // An asynchronous reset holds the register at its reset value whenever it is high, edge or not.
    if (register.asyncReset && reset !== undefined)
      asyncResets.push(
        `if (${reset}) { ${q.map((slot, index) => `${slot} = ${wordLiteral(register.resetValue, index)};`).join(' ')} }`,
      );
  }
  design.memories.forEach((memory, index) =>
    memory.writePorts.forEach((port) => {
      const stride = wordsOf(memory.width);
      const address = new Operand(writer.wordsOf(port.address), design.nets.widths[port.address]!).small(memory.depth);
      const data = writer.wordsOf(port.data);
      const mask = port.mask === undefined ? undefined : writer.wordsOf(port.mask);
      const stores = Array.from({ length: stride }, (_, word) => {
        const slot = `m${index}[${stride === 1 ? 'a' : `a * ${stride} + ${word}`}]`;
        if (mask === undefined) return `${slot} = ${data[word] ?? ZERO};`;
        const bits = laneBits(mask, memory.granularity, memory.width, word);
        return bits === ZERO ? '' : `{ const b = ${bits}; ${slot} = (${slot} & ~b) | (${data[word] ?? ZERO} & b); }`;
      });
      group(memory.clock).writes.push(
        `if (${writer.wordsOf(port.enable)[0]}) { const a = ${address}; if (a < ${memory.depth}) { ${stores.join(' ')} } }`,
      );
    }),
  );
  return { byClock, sampleWords: next, asyncResets };
}

/**
 * The simulator's generated source: `bind(words, memories)` points the model at one simulator's
 * state (the word array `n`, memories `m<i>`); `settle()` evaluates all cells in levelized order;
 * `edge()` samples every register and memory write from the settled values, then commits.
 * The functions are made once per design and rebound, never remade: V8 ties optimized code to
 * the closures, so a second set of closures would run cold through the whole JIT warm-up again.
 */
export function generateModel(
  design: FlatDesign,
  order: readonly number[],
  groups?: InstanceGroups,
  lanes = false,
): { layout: StoragePlan['layout']; source: string } {
  if (lanes && design.clocks.length > 1) throw new Error('internal: lanes of a design with several clocks');
  const plan = planStorage(design, order, WORDS_PER_FUNCTION, groups);
  const writer = new SettleWriter(design, plan, lanes);
  for (let at = 0; at < order.length;) {
    const group = groups ? groups.groupOf[order[at]!]! : -1;
    if (group < 0) {
      writer.emit(order[at++]!);
      continue;
    }
    // A group's cells are contiguous in the order (groupedCellOrder).
    const first = at;
    while (at < order.length && groups!.groupOf[order[at]!] === group) at++;
    writer.emitGroup(group, order.slice(first, at));
  }
  writer.finish();
  const edge = edgeStatements(design, writer);
  const memories = design.memories.map((_, index) => `m${index}`);
  const functionOf = (name: string, body: readonly string[]): string => modelFunction(name, body, design, lanes);
  let edgeFunctions: string[];
  let edgeCall: string;
  if (edge.byClock.length === 1) {
    const { sample, writes, commit } = edge.byClock[0]!;
    edgeFunctions = split([...sample, ...writes, ...commit]).map((body, index) => functionOf(`edge${index}`, body));
    edgeCall = callsOf('edge', edgeFunctions.length);
  } else {
    // Several clocks: `edge(mask)` runs the clocks whose bit is set, all sampled before any commits.
    edgeFunctions = [];
    const calls: string[] = [];
    for (const part of ['sample', 'writes', 'commit'] as const)
      edge.byClock.forEach((statements, clock) => {
        const bodies = split(statements[part]);
        if (bodies.length === 0) return;
        const prefix = `${part}${clock}_`;
        bodies.forEach((body, index) => edgeFunctions.push(functionOf(`${prefix}${index}`, body)));
        calls.push(`if (mask & ${1 << clock}) { ${callsOf(prefix, bodies.length)} }`);
      });
    edgeCall = calls.join(' ');
  }
  const asyncReset = edge.asyncResets.length === 0 ? '' : 'asyncReset(); ';
  // One join of all the pieces: no intermediate copy of the settle functions' text.
  const source = [
    '"use strict";',
    `let n${memories.map((name) => `, ${name}`).join('')};`,
    `${lanes ? 'let' : 'const'} nn = new Int32Array(${edge.sampleWords});`,
    ...(lanes ? [`let lanes = 0, N, NN = []${memories.map((_, index) => `, M${index}`).join('')};`] : []),
    ...writer.groupFunctions,
    ...(writer.functions.length === 0 ? [''] : writer.functions),
    ...(edgeFunctions.length === 0 ? [''] : edgeFunctions),
    ...(edge.asyncResets.length === 0 ? [] : [functionOf('asyncReset', edge.asyncResets)]),
    'return {',
    ...(lanes
      ? [
          // Lanes mode: `count` lanes, lane l's words words[l], its memory i memories[i][l].
          `  bind(words, memories, count) { N = words; ${memories.map((_, index) => `M${index} = memories[${index}];`).join(' ')} while (NN.length < count) NN.push(new Int32Array(${edge.sampleWords})); lanes = count; },`,
          `  initialize(l) { n = N[l]; ${writer.constants.join(' ')} },`,
        ]
      : [
          `  bind(words, memories) { n = words; ${memories.map((name, index) => `${name} = memories[${index}];`).join(' ')} },`,
          // Constants live in words nothing else writes: each simulator's array gets them once.
          `  initialize() { ${writer.constants.join(' ')} },`,
        ]),
    `  settle() { ${asyncReset}${callsOf('settle', writer.functions.length)} },`,
    `  edge(${edge.byClock.length === 1 ? '' : 'mask'}) { ${edgeCall} },`,
    '};',
  ].join('\n');
  return { layout: plan.layout, source };
}
