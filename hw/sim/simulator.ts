import { resetPortsOf, type IrDesign } from '../ir/ir.ts';
import { refuseUnmodelledBlackBoxes } from '../ir/blackBoxes.ts';
import { UserError } from '../../common/errors.ts';
import { flattenDesign, type FlatDesign, type FlatPrint } from './flatten.ts';
import { simplifyFlat } from './simplifyFlat.ts';
import { generateModel, type StorageLayout } from './codegen.ts';
import { groupedOrder } from './instanceGroups.ts';
import { loadWords, storeWords, wordsOf } from './words.ts';
import { formatPrint } from '../core/printFormat.ts';
import { PRINTED_LINE_LIMIT, tooManyPrintedLines, type PrintedLine } from '../ir/prints.ts';
import {
  CheckFailedError,
  coverName,
  type CheckFailure,
  type CheckMode,
  type CheckResults,
} from '../contract/checks.ts';

/** The runtime helper the generated code calls for XOR reductions (of the XOR of all words). */
function parity32(value: number): number {
  value ^= value >>> 16;
  value ^= value >>> 8;
  value ^= value >>> 4;
  value ^= value >>> 2;
  value ^= value >>> 1;
  return value & 1;
}

interface CompiledModel {
  /** Points the generated code at one simulator's state. */
  bind(words: Int32Array, memories: Int32Array[]): void;
  /** Stores the design's constants into the bound state (once per state). */
  initialize(): void;
  settle(): void;
  /** The rising edge of the clocks in `mask` (bit i: flat.clocks[i]); with one clock or none the mask is ignored. */
  edge(mask: number): void;
}

/** A compiled design: the flat netlist, where its values live, and the generated code. */
export interface CompiledDesign {
  readonly flat: FlatDesign;
  readonly layout: StorageLayout;
  readonly source: string;
  /** Dotted hierarchical name (`inst.sub.signal`, top ports by plain name) → net. */
  readonly signalIndex: ReadonlyMap<string, number>;
  /** The same names → where their words live, for peeks and pokes without per-call lookups. */
  readonly slots: ReadonlyMap<string, SignalSlot>;
  /** The top's inputs by name → their slots (what `poke` may set). */
  readonly inputSlots: ReadonlyMap<string, SignalSlot>;
}

/** A stream's input frames, and the frames its sampled outputs are written into (same cycle numbering). */
export interface FrameWords {
  readonly inputs: Uint32Array;
  readonly outputs: Uint32Array;
}

/**
 * Straight-line code that copies one frame of input words into a simulator's state, and its
 * outputs' words out of it: generated once per design and port lists, one assignment per word,
 * so a batch cycle costs a few array stores, not a name lookup and a bigint per port.
 */
export interface FrameTransfer {
  readonly design: CompiledDesign;
  readonly inputStride: number;
  readonly outputStride: number;
  readonly load: (state: Int32Array, frames: Uint32Array, base: number) => void;
  readonly store: (state: Int32Array, frames: Uint32Array, base: number) => void;
}

/** Where a named signal's words live in the simulator state. */
export interface SignalSlot {
  readonly offset: number;
  readonly words: number;
  readonly width: number;
  /** 2^width, for range checks of poked values. */
  readonly limit: bigint;
}

const compiled = new WeakMap<IrDesign, CompiledDesign>();

/** A design's one generated model, and the simulator whose state it is bound to now. */
interface SharedModel {
  readonly model: CompiledModel;
  owner: Simulator | undefined;
}

/**
 * One generated model per compiled design, shared by all its simulators and rebound to whichever
 * runs: parsed once, and V8's optimized code for the settle chunks (seconds of JIT warm-up on
 * MmaUnit) carries over from one simulator to the next, which fresh closures would not.
 */
const models = new WeakMap<CompiledDesign, SharedModel>();

function sharedModelOf(design: CompiledDesign): SharedModel {
  let shared = models.get(design);
  if (!shared) {
    const model = new Function('parity32', design.source)(parity32) as CompiledModel;
    shared = { model, owner: undefined };
    models.set(design, shared);
  }
  return shared;
}

/** Counts every holding check of this cycle into `hits`; returns the index of the first failing assert or assume, or -1. */
export type CheckScan = (words: Int32Array, hits: Uint32Array, mask: number) => number;

const checkScans = new WeakMap<CompiledDesign, CheckScan>();
/** Checks per generated scan function (small functions that V8 optimizes early). */
const CHECKS_PER_SCAN = 64;

/**
 * The check scan of a design, generated once: one test per check on the words of its condition
 * (and reset, and whether its clock rises in the step's mask), no loop over check objects. A failing check skips counting the rest: the caller
 * records every failure of the cycle from it on, then stops (stop mode) or the cycle goes on.
 */
export function checkScanOf(design: CompiledDesign): CheckScan {
  let scan = checkScans.get(design);
  if (scan) return scan;
  const { offset } = design.layout;
  const lines = (design.flat.checks ?? []).map((check, index) => {
    const held = `(w[${offset[check.condition]!}] & 1) !== 0`;
    const body =
      check.kind === 'cover' ? `if (${held}) h[${index}]++;` : `if (${held}) h[${index}]++; else return ${index};`;
    const outOfReset = check.reset >= 0 ? `if ((w[${offset[check.reset]!}] & 1) === 0) { ${body} }` : body;
    // One clock rises in every step, so only several clocks need the test.
    return check.clock >= 0 && design.flat.clocks.length > 1
      ? `if ((m & ${1 << check.clock}) !== 0) { ${outOfReset} }`
      : outOfReset;
  });
  // In parts of CHECKS_PER_SCAN: one function of the MmaBench's 973 checks ran 2× slower than the loop.
  const parts: CheckScan[] = [];
  for (let first = 0; first < lines.length; first += CHECKS_PER_SCAN)
    parts.push(
      new Function('w', 'h', 'm', `${lines.slice(first, first + CHECKS_PER_SCAN).join('\n')}\nreturn -1;`) as CheckScan,
    );
  scan = (words, hits, mask) => {
    for (const part of parts) {
      const failing = part(words, hits, mask);
      if (failing >= 0) return failing;
    }
    return -1;
  };
  checkScans.set(design, scan);
  return scan;
}

/**
 * The rest of a cycle's checks from `first` on, which the scan found failing, on the state `words`:
 * every holding check counted into `hits`, every failing assertion or assumption returned (with
 * `stopAtFirst`, only the first, and nothing after it counted: the run ends there).
 */
export function cycleFailures(
  design: CompiledDesign,
  words: Int32Array,
  hits: Uint32Array,
  first: number,
  mask: number,
  cycle: number,
  stopAtFirst: boolean,
): CheckFailure[] {
  const checks = design.flat.checks!;
  const offset = design.layout.offset;
  const failures: CheckFailure[] = [];
  for (let index = first; index < checks.length; index++) {
    const check = checks[index]!;
    if (check.clock >= 0 && (mask & (1 << check.clock)) === 0) continue;
    if (check.reset >= 0 && (words[offset[check.reset]!]! & 1) !== 0) continue;
    if ((words[offset[check.condition]!]! & 1) !== 0) {
      hits[index]!++;
      continue;
    }
    if (check.kind === 'cover') continue;
    const values: Record<string, bigint> = {};
    for (const read of check.reads) values[read.name] = readNetOf(design, words, read.net);
    failures.push({
      kind: check.kind,
      message: check.message,
      location: check.location,
      cycle,
      scope: check.scope,
      module: check.module,
      index: check.index,
      values,
    });
    if (stopAtFirst) break;
  }
  return failures;
}

/** Each cover point's hit count by its name (CheckResults.covers), from per-check hits. */
export function coverCounts(design: CompiledDesign, hits: Uint32Array): Record<string, number> {
  const covers: Record<string, number> = {};
  (design.flat.checks ?? []).forEach((check, index) => {
    if (check.kind === 'cover') covers[coverName(check.scope, check.message)] = hits[index]!;
  });
  return covers;
}

/** Where a printf's condition and reset live in the state, and the clocks (a step mask) it prints on. */
interface PrintSlot {
  readonly condition: number;
  readonly reset: number;
  /** Its clock's bit in a step's mask with several clocks; 0 with one (the model ignores the mask then, and so do prints). */
  readonly clock: number;
  readonly print: FlatPrint;
}

function printSlotsOf(design: CompiledDesign): PrintSlot[] {
  const { offset } = design.layout;
  const several = design.flat.clocks.length > 1;
  return (design.flat.prints ?? []).map((print) => ({
    condition: offset[print.condition]!,
    reset: offset[print.reset]!,
    clock: several ? 1 << print.clock : 0,
    print,
  }));
}

/** The value of flat net `net` in the state `words`. */
export function readNetOf(design: CompiledDesign, words: Int32Array, net: number): bigint {
  const offset = design.layout.offset[net]!;
  if (offset < 0) throw new Error(`internal: net ${net} is an intermediate without storage`);
  return loadWords(words, offset, wordsOf(design.flat.nets.widths[net]!));
}

/** A memory's words at the start of a run: zero, or its initial contents (`init`, ROMs). */
export function initialMemory(memory: FlatDesign['memories'][number]): Int32Array {
  const stride = wordsOf(memory.width);
  const words = new Int32Array(memory.depth * stride);
  memory.init?.forEach((word, address) => word !== 0n && storeWords(words, address * stride, stride, word));
  return words;
}

/** Flattens, levelizes and generates code for a design (cached per design object). */
export function compileDesign(design: IrDesign): CompiledDesign {
  const cached = compiled.get(design);
  if (cached) return cached;
  refuseUnmodelledBlackBoxes(design);
  const flat = simplifyFlat(flattenDesign(design));
  const { order, groups } = groupedOrder(flat);
  const { layout, source } = generateModel(flat, order, groups);
  const signalIndex = new Map<string, number>();
  const slots = new Map<string, SignalSlot>();
  // Every net of one instance shares its scope array: join each scope once, not once per net.
  const prefixes = new Map<readonly string[], string>();
  const { nets } = flat;
  for (let net = 0; net < nets.length; net++) {
    if (!nets.namedFlags[net]) continue;
    const scope = nets.scope(net);
    let prefix = prefixes.get(scope);
    if (prefix === undefined) prefixes.set(scope, (prefix = scope.map((part) => `${part}.`).join('')));
    const name = prefix + nets.name(net);
    const width = nets.widths[net]!;
    signalIndex.set(name, net);
    slots.set(name, { offset: layout.offset[net]!, words: wordsOf(width), width, limit: 1n << BigInt(width) });
  }
  const inputSlots = new Map([...flat.inputs.keys()].map((name) => [name, slots.get(name)!]));
  const result = { flat, layout, source, signalIndex, slots, inputSlots };
  compiled.set(design, result);
  return result;
}

/**
 * The in-process simulator: a design compiled to JavaScript, 2-state, one clock or several
 * (`tick` steps some of them).
 *
 * Step contract (the same for every engine; see hw/contract/engine.ts):
 * `poke` sets inputs; `peek` settles combinational logic first if anything changed, so it sees
 * this cycle's outputs; `step` settles, lets registers and memories sample at the rising edge,
 * then marks the design to settle again on the next peek. All state starts at zero, except
 * memories declared with initial contents (`init`, ROMs), which start with them.
 */
export class Simulator {
  readonly design: CompiledDesign;
  /** Every stored net's words (see words.ts); the generated code reads and writes it directly. */
  private readonly words: Int32Array;
  private readonly memories: Int32Array[];
  private readonly shared: SharedModel;
  private dirty = true;
  private cycleCount = 0;
  private readonly beforeEdge: ((cycle: number) => void)[] = [];
  private readonly afterEdge: ((cycle: number, mask: number) => void)[] = [];
  /** What a failing assertion or assumption does: throw CheckFailedError (stop) or be counted. */
  checkMode: CheckMode = 'stop';
  private readonly failures: CheckFailure[] = [];
  /** Per flat check: cycles in which it held (for cover points: hits; the coverage hook). */
  private readonly checkHits: Uint32Array;
  private readonly printedLines: PrintedLine[] = [];
  private printSlots: readonly PrintSlot[] | undefined;

  constructor(design: IrDesign | CompiledDesign) {
    this.design = 'flat' in design ? design : compileDesign(design);
    const { layout, flat } = this.design;
    this.words = new Int32Array(layout.wordCount);
    this.memories = flat.memories.map(initialMemory);
    this.shared = sharedModelOf(this.design);
    this.checkHits = new Uint32Array(flat.checks?.length ?? 0);
    this.model.initialize();
    // Registers with a start value (random initial state); all others start at 0.
    for (const register of flat.registers)
      if (register.initial !== undefined)
        storeWords(this.words, layout.offset[register.q]!, wordsOf(flat.nets.widths[register.q]!), register.initial);
  }

  /** Failures so far (in count mode all of them; in stop mode the one thrown) and cover hit counts. */
  get checkResults(): CheckResults {
    return { failures: [...this.failures], covers: coverCounts(this.design, this.checkHits) };
  }

  /**
   * Evaluates the checks whose clock rises in this step (`mask`; combinational modules' always) on
   * the settled values before the edge: skipped while their module's reset is high; a false
   * assert/assume is a failure, a true cover a hit.
   */
  private evaluateChecks(mask: number): void {
    // The generated scan counts every holding check and returns the first failing one, if any.
    const failing = checkScanOf(this.design)(this.words, this.checkHits, mask);
    if (failing >= 0) this.recordFailures(failing, mask);
  }

  /**
   * The rest of this cycle's checks from `first` on, which the scan found failing: every failure
   * recorded (in stop mode the first thrown), every holding check after it counted.
   */
  private recordFailures(first: number, mask: number): void {
    const stop = this.checkMode === 'stop';
    const failures = cycleFailures(this.design, this.words, this.checkHits, first, mask, this.cycleCount, stop);
    this.failures.push(...failures);
    if (stop) throw new CheckFailedError(failures[0]!, 'ts');
  }

  /** The lines the design's printfs printed so far, in order (hw/ir/prints.ts). */
  get printed(): readonly PrintedLine[] {
    return this.printedLines;
  }

  /**
   * The printfs whose clock rises in this step (`mask`), on the settled values before the edge,
   * in print order: each whose module is out of reset and whose condition holds prints a line.
   * The test of one printf is two word reads (offsets found once): a printf that does not fire
   * costs a design next to nothing per cycle.
   */
  private evaluatePrints(mask: number): void {
    const { words } = this;
    const slots = (this.printSlots ??= printSlotsOf(this.design));
    for (let index = 0; index < slots.length; index++) {
      const slot = slots[index]!;
      if ((words[slot.condition]! & 1) === 0 || (words[slot.reset]! & 1) !== 0) continue;
      if (slot.clock !== 0 && (mask & slot.clock) === 0) continue;
      this.print(slot.print);
    }
  }

  /** Records one line of a printf that fires in this cycle. */
  private print(print: FlatPrint): void {
    if (this.printedLines.length >= PRINTED_LINE_LIMIT) throw tooManyPrintedLines();
    const values = print.args.map(({ net }) => readNetOf(this.design, this.words, net));
    const widths = print.args.map(({ width }) => width);
    this.printedLines.push({
      cycle: this.cycleCount,
      scope: print.scope,
      text: formatPrint(print.format, values, widths),
    });
  }

  /** The shared generated model, bound to this simulator's state. */
  private get model(): CompiledModel {
    const shared = this.shared;
    if (shared.owner !== this) {
      shared.model.bind(this.words, this.memories);
      shared.owner = this;
    }
    return shared.model;
  }

  /** Cycles stepped since construction. */
  get cycle(): number {
    return this.cycleCount;
  }

  /** Sets a top-level input; the value must fit the port's width. */
  poke(name: string, value: number | bigint): void {
    const slot = this.design.inputSlots.get(name);
    if (slot === undefined)
      throw new UserError(
        `${this.design.flat.top.name} has no input '${name}' (inputs: ${[...this.design.flat.inputs.keys()].join(', ')})`,
      );
    // The common cases first: one word, given as a bigint (engine streams) or a number.
    if (slot.words === 1 && typeof value === 'bigint' && value >= 0n && value < slot.limit)
      this.words[slot.offset] = Number(value);
    else if (
      typeof value === 'number' &&
      slot.words === 1 &&
      Number.isInteger(value) &&
      value >= 0 &&
      value < 2 ** slot.width
    )
      this.words[slot.offset] = value;
    else {
      const big = BigInt(value);
      if (big < 0n || big >= slot.limit)
        throw new UserError(`value ${value} does not fit the ${slot.width}-bit input '${name}'`);
      if (slot.words === 1) this.words[slot.offset] = Number(big);
      else storeWords(this.words, slot.offset, slot.words, big);
    }
    this.dirty = true;
  }

  /** Any named signal: a top port by name, or `instance.signal` below the top. */
  peek(name: string): bigint {
    const slot = this.slot(name);
    if (this.dirty) this.settle();
    const { words } = this;
    const offset = slot.offset;
    if (slot.words === 1) return BigInt(words[offset]! >>> 0);
    if (slot.words === 2) return (BigInt(words[offset + 1]! >>> 0) << 32n) | BigInt(words[offset]! >>> 0);
    return loadWords(words, offset, slot.words);
  }

  /** `peek` as a number, for signals up to 32 bits on hot paths. */
  peekNumber(name: string): number {
    const slot = this.slot(name);
    if (slot.words > 1) return Number(this.peek(name));
    if (this.dirty) this.settle();
    return this.words[slot.offset]! >>> 0;
  }

  private slot(name: string): SignalSlot {
    const slot = this.design.slots.get(name);
    if (slot === undefined) throw new UserError(`${this.design.flat.top.name} has no signal '${name}'`);
    return slot;
  }

  /** Settles combinational logic (no clock edge). */
  settle(): void {
    if (!this.dirty) return;
    this.model.settle();
    this.dirty = false;
  }

  /** Advances `cycles` rising edges of every clock at once. */
  step(cycles = 1): void {
    this.stepMask((1 << this.design.flat.clocks.length) - 1, cycles);
  }

  /**
   * One step in which only the named clocks rise, all at once (the multi-clock contract,
   * hw/contract/engine.ts); the other clocks' registers and memories keep their values.
   */
  tick(...clocks: string[]): void {
    const all = this.design.flat.clocks;
    let mask = 0;
    for (const clock of clocks) {
      const index = all.indexOf(clock);
      if (index < 0)
        throw new UserError(
          `${this.design.flat.top.name} has no clock '${clock}' (clocks: ${all.join(', ') || 'none'})`,
        );
      mask |= 1 << index;
    }
    this.stepMask(mask);
  }

  /** `cycles` steps in which the clocks of `mask` (bit i: flat.clocks[i]) rise together. */
  stepMask(mask: number, cycles = 1): void {
    const { model } = this;
    for (let index = 0; index < cycles; index++) {
      if (this.dirty) model.settle();
      this.dirty = false;
      this.edge(model, mask);
    }
  }

  /**
   * Runs `count` cycles from frame `first` of `frames` (frames.ts: one frame of input words per
   * cycle): each cycle's inputs are copied in, logic settles, the outputs are copied into the
   * same frame of `sampled`, then the clocks of `masks[cycle]` (default: all) rise — the step
   * contract of a batch stream, with no object or bigint per cycle.
   */
  runFrames(
    transfer: FrameTransfer,
    frames: FrameWords,
    first: number,
    count: number,
    masks?: readonly number[],
  ): void {
    if (transfer.design !== this.design) throw new Error('internal: a frame transfer of another design');
    const { model, words } = this;
    const all = (1 << this.design.flat.clocks.length) - 1;
    const { load, store, inputStride, outputStride } = transfer;
    const { inputs, outputs } = frames;
    for (let cycle = first; cycle < first + count; cycle++) {
      load(words, inputs, cycle * inputStride);
      model.settle();
      this.dirty = false;
      store(words, outputs, cycle * outputStride);
      this.edge(model, masks ? masks[cycle]! : all);
    }
  }

  /** The edge of one step on settled values: observers and checks before it, observers after. */
  private edge(model: CompiledModel, mask: number): void {
    const { beforeEdge, afterEdge } = this;
    const observed = beforeEdge.length > 0;
    if (observed) for (const listener of beforeEdge) listener(this.cycleCount);
    // Prints before checks: a failing assertion stops the run after its cycle's lines, as in Verilog.
    if ((this.design.flat.prints?.length ?? 0) > 0) this.evaluatePrints(mask);
    if ((this.design.flat.checks?.length ?? 0) > 0) this.evaluateChecks(mask);
    model.edge(mask);
    this.dirty = true;
    if (observed) {
      model.settle();
      this.dirty = false;
      for (const listener of afterEdge) listener(this.cycleCount, mask);
    }
    this.cycleCount++;
  }

  /**
   * Holds every reset input (`reset` and each domain's `rst_<name>`) high for `cycles` steps of
   * every clock at once, then low.
   */
  reset(cycles = 1): void {
    const resets = resetPortsOf(this.design.flat.top);
    for (const name of resets) this.poke(name, 1);
    this.step(cycles);
    for (const name of resets) this.poke(name, 0);
  }

  /**
   * Observers for tracing: `before(cycle)` sees the settled values just before the edge of
   * `cycle`, `after(cycle, mask)` the settled values just after it (`mask`: the clocks that rose).
   * Without observers nothing is paid.
   */
  observe(before: (cycle: number) => void, after: (cycle: number, mask: number) => void): void {
    this.beforeEdge.push(before);
    this.afterEdge.push(after);
  }

  /** The value of a flat net (tracers and adapters). */
  readNet(net: number): bigint {
    return readNetOf(this.design, this.words, net);
  }
}
