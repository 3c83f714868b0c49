import fc from 'fast-check';
import {
  connect,
  defineModule,
  flattenPorts,
  flip,
  input,
  output,
  mux,
  cat,
  constant,
  regs,
  vec,
  wires,
  type ModuleDefinition,
  type Value,
  type ModuleBuilder,
  type Memory,
  type Params,
  type PortSpec,
  type PortTree,
  type Signal,
} from '../../hw/core/index.ts';

/**
 * A random design's module: its ports are named by index (`i0…`, `o0…`), so they are a record.
 * As a child it may also have the bundle ports `bi` (consumer side) and `bo` (producer side),
 * which this type leaves out: only the parent built here (populate) reads them.
 */
export type FuzzModule = ModuleDefinition<Params, Record<string, PortSpec>>;

/**
 * Random designs for differential fuzzing of the framework itself: expression DAGs over every
 * operator, widths 1–80, registers, sub-module instances, `when`/`elsewhen`/`otherwise` chains
 * (nested, with partial and repeated assignments) and memories (combinational and registered
 * reads, write ports, writes under a `when`) and interfaces (bundle-typed wires, registers and
 * sub-module ports with nested and flipped fields and vecs of bundles, joined with `connect`). A design is plain data (so fast-check can shrink
 * it); `buildRandomDesign` turns it into a module definition, resizing operands explicitly so
 * that every generated design is legal.
 */

export const FUZZ_OPERATORS = [
  'and',
  'or',
  'xor',
  'add',
  'sub',
  'mul',
  'eq',
  'ne',
  'lt',
  'le',
  'gt',
  'ge',
  'slt',
  'sle',
  'not',
  'neg',
  'andReduce',
  'orReduce',
  'xorReduce',
  'shl',
  'shr',
  'sra',
  'shlConst',
  'shrConst',
  'sraConst',
  'mux',
  'cat',
  'bits',
  'zext',
  'sext',
  'const',
  'addCarry',
] as const;
export type FuzzOperator = (typeof FUZZ_OPERATORS)[number];

export interface FuzzNode {
  readonly op: FuzzOperator;
  /** Operand choices: indices into the values made so far (taken modulo their count). */
  readonly a: number;
  readonly b: number;
  readonly c: number;
  /** Target width 1–80 where the operator lets us choose one. */
  readonly width: number;
  /** Shift amounts, slice positions, extension amounts. */
  readonly k: number;
  readonly literal: bigint;
}

export interface FuzzRegister {
  readonly width: number;
  readonly reset: bigint | undefined;
  /** Which value feeds it (index into the final value pool). */
  readonly next: number;
}

/** A memory write: address, data and enable are pool choices (enable: bit 0). */
export interface FuzzWrite {
  /** Which memory (index modulo the design's memories). */
  readonly memory: number;
  readonly address: number;
  readonly data: number;
  readonly enable: number;
}

/**
 * A memory of 2^depthLog2 words. Its reads come before the nodes (their words join the pool);
 * its top-level writes come after them.
 */
export interface FuzzMemory {
  readonly width: number;
  readonly depthLog2: number;
  /** Read addresses (pool choices); `sync` reads are registered (`readSync`). */
  readonly reads: readonly { readonly address: number; readonly sync: boolean }[];
  /** Write ports outside any `when`, in order (a later port wins on the same address). */
  readonly writes: readonly Omit<FuzzWrite, 'memory'>[];
  // The fields below are absent in cases saved before they were fuzzed: those build as they did.
  /** Words, when not 2^depthLog2 (any depth: addresses past the end read 0, writes there do nothing). */
  readonly depth?: number;
  /** Which divisor of the width is the write-mask granularity (index modulo the divisors). */
  readonly granularity?: number;
  /** Per top-level write port: its lane mask (a pool choice). */
  readonly masks?: readonly number[];
  /** Initial words (each cut to the width, past the depth dropped). */
  readonly init?: readonly bigint[];
  /** Per read: a registered read that returns this edge's write ('write-first'). */
  readonly writeFirst?: readonly boolean[];
}

/** What one branch of a when chain does, in order: assignments, a memory write, a nested chain. */
export interface FuzzBody {
  /** Target (index modulo the targets) ← pool value; a target may be assigned twice or not at all. */
  readonly assigns: readonly { readonly target: number; readonly value: number }[];
  /** A write whose enable is also the branch's path (needs a memory in the design). */
  readonly write?: FuzzWrite;
  readonly nested?: FuzzWhenChain;
}

/** `when(c0) … elsewhen(c1) … otherwise …`: conditions are pool choices (bit 0). */
export interface FuzzWhenChain {
  readonly conditions: readonly number[];
  /** One body per condition, then the otherwise body when there is one more body than conditions. */
  readonly bodies: readonly FuzzBody[];
}

/**
 * A signal the when chains assign: a wire (given a default value first, so every path drives it)
 * or a register (holds where no branch assigns it, unless it has a default too).
 */
export interface FuzzTarget {
  readonly width: number;
  readonly register: boolean;
  readonly reset: bigint | undefined;
  /** Pool choice assigned before the chains; always used for wires. */
  readonly initial: number | undefined;
}

/** Conditional logic after the nodes: targets, then the chains; the targets' values join the pool. */
export interface FuzzConditional {
  readonly targets: readonly FuzzTarget[];
  readonly chains: readonly FuzzWhenChain[];
}

/**
 * A field of a fuzzed bundle type (named `f<k>` by position): a leaf of some width (`flipped`: it
 * flows back, an `input` from the producer's side), a nested bundle (flipped as a whole or not),
 * or a vec of `count` bundles.
 */
export type FuzzBundleField =
  | { readonly width: number; readonly flipped: boolean }
  | { readonly fields: readonly FuzzBundleField[]; readonly flipped: boolean }
  | { readonly fields: readonly FuzzBundleField[]; readonly count: number };

/**
 * An interface chain: wires of the bundle type whose forward fields come from the pool, a stage
 * (registers or wires of the type) joined to them with `connect`, and wires after it whose
 * backward fields come from the pool; as a child, the design's bundle ports `bi`/`bo` stand for
 * the two ends, and its parent drives them through wires the same way.
 */
export interface FuzzBundle {
  readonly fields: readonly FuzzBundleField[];
  /** The stage is registers (reset to 0 when `reset`) rather than wires. */
  readonly registered: boolean;
  readonly reset: boolean;
  /** Pool choices for the forward and backward leaves driven from the design (leaf k takes choice + 7·k). */
  readonly forward: number;
  readonly backward: number;
}

export interface FuzzDesign {
  readonly inputs: readonly number[];
  readonly registers: readonly FuzzRegister[];
  readonly nodes: readonly FuzzNode[];
  /** Each output: which pool value it shows, fitted to a chosen width (so ports are known before building). */
  readonly outputs: readonly { readonly value: number; readonly width: number }[];
  /** A child design instanced `instances` times, its inputs fed from the pool, its outputs added to it. */
  readonly child?: FuzzDesign;
  readonly instances: number;
  /** Memories (absent in cases saved before memories were fuzzed: those build as they did). */
  readonly memories?: readonly FuzzMemory[];
  /** When chains (absent likewise in older saved cases). */
  readonly conditional?: FuzzConditional;
  /** An interface chain (absent in cases saved before bundles were fuzzed: those build as they did). */
  readonly bundle?: FuzzBundle;
  /** Checks on pool values (absent likewise in older saved cases). */
  readonly checks?: readonly FuzzCheck[];
}

/**
 * A check on a pool value, made after the whole pool: a cover of one of its bits, or an
 * assertion that it is not zero (often false: the engines must report the same failing cycles).
 */
export interface FuzzCheck {
  readonly kind: 'cover' | 'assert';
  readonly value: number;
  /** The covered bit (modulo the value's width). */
  readonly bit: number;
}

export const MAX_FUZZ_WIDTH = 80;
const widthArbitrary = fc.oneof(
  fc.integer({ min: 1, max: 8 }),
  fc.integer({ min: 1, max: MAX_FUZZ_WIDTH }),
  fc.constantFrom(1, 31, 32, 33, 63, 64, 65),
);

const nodeArbitrary: fc.Arbitrary<FuzzNode> = fc.record({
  op: fc.constantFrom(...FUZZ_OPERATORS),
  a: fc.nat(1000),
  b: fc.nat(1000),
  c: fc.nat(1000),
  width: widthArbitrary,
  k: fc.nat(100),
  literal: fc.bigInt({ min: 0n, max: (1n << 80n) - 1n }),
});

const choice = fc.nat(1000);
const writeArbitrary: fc.Arbitrary<FuzzWrite> = fc.record({
  memory: fc.nat(3),
  address: choice,
  data: choice,
  enable: choice,
});

const memoryArbitrary: fc.Arbitrary<FuzzMemory> = fc.record({
  width: widthArbitrary,
  depthLog2: fc.integer({ min: 1, max: 4 }),
  reads: fc.array(fc.record({ address: choice, sync: fc.boolean() }), { minLength: 1, maxLength: 3 }),
  writes: fc.array(fc.record({ address: choice, data: choice, enable: choice }), { maxLength: 2 }),
  depth: fc.option(fc.integer({ min: 1, max: 20 }), { nil: undefined }),
  granularity: fc.nat(7),
  masks: fc.array(choice, { minLength: 2, maxLength: 2 }),
  init: fc.option(fc.array(fc.bigInt({ min: 0n, max: (1n << 80n) - 1n }), { maxLength: 6 }), { nil: undefined }),
  writeFirst: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
});

/** The divisors of `width`, smallest first (the write-mask granularities a memory can have). */
function divisorsOf(width: number): number[] {
  return Array.from({ length: width }, (_, index) => index + 1).filter((divisor) => width % divisor === 0);
}

/** A when chain nested up to `depth` more levels: 1–2 conditions, an otherwise half the time. */
function chainArbitrary(depth: number): fc.Arbitrary<FuzzWhenChain> {
  const body: fc.Arbitrary<FuzzBody> = fc.record(
    {
      assigns: fc.array(fc.record({ target: fc.nat(7), value: choice }), { maxLength: 2 }),
      write: writeArbitrary,
      nested: depth > 0 ? chainArbitrary(depth - 1) : fc.constant(undefined),
    },
    { requiredKeys: ['assigns'] },
  );
  return fc.tuple(fc.array(choice, { minLength: 1, maxLength: 2 }), fc.boolean()).chain(([conditions, otherwise]) =>
    fc.record({
      conditions: fc.constant(conditions),
      bodies: fc.array(body, {
        minLength: conditions.length + (otherwise ? 1 : 0),
        maxLength: conditions.length + (otherwise ? 1 : 0),
      }),
    }),
  );
}

const conditionalArbitrary: fc.Arbitrary<FuzzConditional> = fc.record({
  targets: fc.array(
    fc.record({
      width: widthArbitrary,
      register: fc.boolean(),
      reset: fc.option(fc.bigInt({ min: 0n, max: (1n << 80n) - 1n }), { nil: undefined }),
      initial: fc.option(choice, { nil: undefined }),
    }),
    { minLength: 1, maxLength: 3 },
  ),
  chains: fc.array(chainArbitrary(1), { minLength: 1, maxLength: 2 }),
});

/** A bundle type's fields `f0, f1, …`, nested up to `depth` more levels. */
function bundleFieldsArbitrary(depth: number): fc.Arbitrary<FuzzBundleField[]> {
  const leaf: fc.Arbitrary<FuzzBundleField> = fc.record({ width: widthArbitrary, flipped: fc.boolean() });
  const field: fc.Arbitrary<FuzzBundleField> =
    depth > 0
      ? fc.oneof(
          { arbitrary: leaf, weight: 3 },
          { arbitrary: fc.record({ fields: bundleFieldsArbitrary(depth - 1), flipped: fc.boolean() }), weight: 1 },
          {
            arbitrary: fc.record({ fields: bundleFieldsArbitrary(depth - 1), count: fc.integer({ min: 1, max: 3 }) }),
            weight: 1,
          },
        )
      : leaf;
  return fc.array(field, { minLength: 1, maxLength: 3 });
}

const bundleArbitrary: fc.Arbitrary<FuzzBundle> = fc.record({
  fields: bundleFieldsArbitrary(2),
  registered: fc.boolean(),
  reset: fc.boolean(),
  forward: choice,
  backward: choice,
});

/** A design's arbitrary; `withChecks` adds its checks (the draws without them stay as they were). */
function designArbitrary(depth: number, withChecks: boolean): fc.Arbitrary<FuzzDesign> {
  return fc.record({
    inputs: fc.array(widthArbitrary, { minLength: 1, maxLength: 4 }),
    registers: fc.array(
      fc.record({
        width: widthArbitrary,
        reset: fc.option(fc.bigInt({ min: 0n, max: (1n << 80n) - 1n }), { nil: undefined }),
        next: fc.nat(1000),
      }),
      { maxLength: 3 },
    ),
    nodes: fc.array(nodeArbitrary, { minLength: 1, maxLength: 24 }),
    outputs: fc.array(fc.record({ value: fc.nat(1000), width: widthArbitrary }), { minLength: 1, maxLength: 4 }),
    child:
      depth > 0
        ? fc.option(designArbitrary(depth - 1, withChecks), { nil: undefined, freq: 3 })
        : fc.constant(undefined),
    instances: fc.integer({ min: 1, max: 2 }),
    memories: fc.array(memoryArbitrary, { maxLength: 1 }),
    conditional: fc.option(conditionalArbitrary, { nil: undefined, freq: 2 }),
    bundle: fc.option(bundleArbitrary, { nil: undefined, freq: 2 }),
    ...(withChecks ? { checks: fc.array(checkArbitrary, { maxLength: 2 }) } : {}),
  });
}

const checkArbitrary: fc.Arbitrary<FuzzCheck> = fc.record({
  kind: fc.constantFrom('cover' as const, 'assert' as const),
  value: choice,
  bit: fc.nat(79),
});

/** Random designs up to one level of sub-module nesting, without checks (suites and benchmarks run them in stop mode). */
export const fuzzDesignArbitrary: fc.Arbitrary<FuzzDesign> = designArbitrary(1, false);

/** The same designs with cover points and (often false) assertions, for the engines' differential fuzz of checks. */
export const checkedFuzzDesignArbitrary: fc.Arbitrary<FuzzDesign> = designArbitrary(1, true);

/** Width-adapts a value explicitly (the DSL never does it silently). */
export function fit(value: Value, width: number): Value {
  if (value.width === width) return value;
  return value.width > width ? value.trunc(width) : value.zext(width);
}

const pick = (pool: readonly Value[], index: number): Value => pool[index % pool.length]!;

/** How wide generated values may grow, and how far extensions may reach at once. */
export interface FuzzLimits {
  readonly maxWidth: number;
  readonly extendSpan: number;
}

const DEFAULT_LIMITS: FuzzLimits = { maxWidth: MAX_FUZZ_WIDTH, extendSpan: 17 };

/** The hardware for one node, given the pool of values made so far. */
export function buildFuzzNode(node: FuzzNode, pool: readonly Value[], limits: FuzzLimits = DEFAULT_LIMITS): Value {
  const a = pick(pool, node.a);
  const b = pick(pool, node.b);
  const c = pick(pool, node.c);
  const w = node.width;
  const amount = fit(b, Math.min(b.width, 8));
  const BUILDERS: Record<FuzzOperator, () => Value> = {
    and: () => fit(a, w).and(fit(b, w)),
    or: () => fit(a, w).or(fit(b, w)),
    xor: () => fit(a, w).xor(fit(b, w)),
    add: () => fit(a, w).add(fit(b, w)),
    sub: () => fit(a, w).sub(fit(b, w)),
    addCarry: () => fit(a, Math.min(w, limits.maxWidth - 1)).addCarry(fit(b, Math.min(w, limits.maxWidth - 1))),
    mul: () => fit(a, Math.ceil(w / 2)).mul(fit(b, Math.max(1, Math.floor(w / 2)))),
    eq: () => a.eq(fit(b, a.width)),
    ne: () => a.ne(fit(b, a.width)),
    lt: () => a.lt(fit(b, a.width)),
    le: () => a.le(fit(b, a.width)),
    gt: () => a.gt(fit(b, a.width)),
    ge: () => a.ge(fit(b, a.width)),
    slt: () => a.slt(fit(b, a.width)),
    sle: () => a.sle(fit(b, a.width)),
    not: () => a.not(),
    neg: () => a.neg(),
    andReduce: () => a.andReduce(),
    orReduce: () => a.orReduce(),
    xorReduce: () => a.xorReduce(),
    shl: () => a.shl(amount),
    shr: () => a.shr(amount),
    sra: () => a.sra(amount),
    shlConst: () => a.shl(node.k % (a.width + 2)),
    shrConst: () => a.shr(node.k % (a.width + 2)),
    sraConst: () => a.sra(node.k % (a.width + 2)),
    mux: () => mux(a.bit(0), fit(b, w), fit(c, w)),
    cat: () => cat(fit(a, Math.max(1, w >> 1)), fit(b, Math.max(1, w - (w >> 1)))),
    bits: () => {
      const lo = node.k % a.width;
      const hi = lo + (node.c % (a.width - lo));
      return a.bits(hi, lo);
    },
    zext: () => a.zext(Math.min(limits.maxWidth, a.width + (node.k % limits.extendSpan))),
    sext: () => a.sext(Math.min(limits.maxWidth, a.width + (node.k % limits.extendSpan))),
    const: () => constant(node.literal & ((1n << BigInt(w)) - 1n), w),
  };
  const value = BUILDERS[node.op]();
  return value.width > limits.maxWidth ? value.trunc(limits.maxWidth) : value;
}

function populate(
  m: ModuleBuilder,
  design: FuzzDesign,
  inputs: readonly Value[],
  child: FuzzModule | undefined,
  bundlePorts: BundlePorts | undefined,
): Value[] {
  const registers = design.registers.map((register, index) =>
    m.reg(
      `r${index}`,
      register.width,
      register.reset === undefined ? {} : { reset: register.reset & ((1n << BigInt(register.width)) - 1n) },
    ),
  );
  const pool: Value[] = [...inputs, ...registers];
  const childBundles: BundlePorts[] = [];
  if (child && design.child) {
    const childDesign = design.child;
    for (let instance = 0; instance < design.instances; instance++) {
      const io = m.instance(child, { name: `child${instance}` });
      childDesign.inputs.forEach((width, index) => io[`i${index}`]!.set(fit(pick(pool, index * 7 + instance), width)));
      outputWidths(childDesign).forEach((_, index) => pool.push(io[`o${index}`]!));
      // Its bundle ports, left out of FuzzModule's type.
      if (childDesign.bundle) childBundles.push({ bi: io['bi'] as unknown, bo: io['bo'] as unknown });
    }
  }
  // Values the digest shows besides the nodes: memory words read, when-chain targets.
  const extra: Value[] = [];
  const memories = (design.memories ?? []).map((spec, index) => {
    const depth = spec.depth ?? 1 << spec.depthLog2;
    const divisors = divisorsOf(spec.width);
    const memory = m.memory(`mem${index}`, {
      depth,
      width: spec.width,
      ...(spec.granularity === undefined ? {} : { granularity: divisors[spec.granularity % divisors.length]! }),
      ...(spec.init === undefined
        ? {}
        : { init: spec.init.slice(0, depth).map((word) => word & ((1n << BigInt(spec.width)) - 1n)) }),
    });
    spec.reads.forEach((read, readIndex) => {
      const address = fit(pick(pool, read.address), memory.addressWidth);
      const mode = spec.writeFirst?.[readIndex] ? 'write-first' : 'read-first';
      extra.push(read.sync ? memory.readSync(address, { readDuringWrite: mode }) : memory.read(address));
    });
    return memory;
  });
  pool.push(...extra);
  const nodes = design.nodes.map((node) => {
    const value = buildFuzzNode(node, pool);
    pool.push(value);
    return value;
  });
  const write = (spec: Omit<FuzzWrite, 'memory'>, memory: Memory, mask?: number): void =>
    memory.write(
      fit(pick(pool, spec.address), memory.addressWidth),
      fit(pick(pool, spec.data), memory.width),
      pick(pool, spec.enable).bit(0),
      mask === undefined ? undefined : fit(pick(pool, mask), memory.width / memory.granularity),
    );
  // Interfaces after the nodes: their ends join the pool only once every field is driven (no loop).
  const ends: Value[] = [];
  if (design.bundle) ends.push(...buildBundleChain(m, design.bundle, 'b', pool, bundlePorts));
  childBundles.forEach((ports, instance) =>
    ends.push(...buildBundleChain(m, { ...design.child!.bundle!, registered: false }, `c${instance}`, pool, ports)),
  );
  pool.push(...ends);
  extra.push(...ends);
  if (design.conditional) extra.push(...buildConditional(m, design.conditional, pool, memories, write));
  (design.memories ?? []).forEach((spec, index) =>
    spec.writes.forEach((port, portIndex) => write(port, memories[index]!, spec.masks?.[portIndex])),
  );
  registers.forEach((register, index) => register.set(fit(pick(pool, design.registers[index]!.next), register.width)));
  (design.checks ?? []).forEach((check, index) => {
    const value = pick(pool, check.value);
    if (check.kind === 'cover') m.cover(value.bit(check.bit % value.width), `c${index}`);
    else m.assert(value.orReduce(), `a${index} nonzero`);
  });
  // Every node (and memory word and when target) reaches an output through the digest, so a wrong value anywhere is seen.
  const digest = [...nodes, ...extra].map((value) => fit(value, MAX_FUZZ_WIDTH)).reduce((acc, value) => acc.xor(value));
  return [...design.outputs.map((output) => fit(pick(pool, output.value), output.width)), digest];
}

/**
 * The when chains of a design: targets `t<k>` (wires get their default first), then each chain
 * over values of the pool as it is now. The targets join the pool afterwards (a wire read before
 * it is assigned could close a combinational loop). Returns the targets.
 */
function buildConditional(
  m: ModuleBuilder,
  conditional: FuzzConditional,
  pool: Value[],
  memories: readonly Memory[],
  write: (spec: Omit<FuzzWrite, 'memory'>, memory: Memory) => void,
): Signal[] {
  const targets = conditional.targets.map((target, index) => {
    const signal = target.register
      ? m.reg(
          `t${index}`,
          target.width,
          target.reset === undefined ? {} : { reset: target.reset & ((1n << BigInt(target.width)) - 1n) },
        )
      : m.wire(`t${index}`, target.width);
    const initial = target.initial ?? (target.register ? undefined : 0);
    if (initial !== undefined) signal.set(fit(pick(pool, initial), target.width));
    return signal;
  });
  const runBody = (body: FuzzBody): void => {
    for (const assign of body.assigns) {
      const target = targets[assign.target % targets.length]!;
      target.set(fit(pick(pool, assign.value), target.width));
    }
    if (body.write && memories.length > 0) write(body.write, memories[body.write.memory % memories.length]!);
    if (body.nested) runChain(body.nested);
  };
  const runChain = (chain: FuzzWhenChain): void => {
    const condition = (index: number): Value => pick(pool, chain.conditions[index]!).bit(0);
    const when = m.when(condition(0), () => runBody(chain.bodies[0]!));
    for (let index = 1; index < chain.conditions.length; index++)
      when.elsewhen(condition(index), () => runBody(chain.bodies[index]!));
    const otherwise = chain.bodies[chain.conditions.length];
    if (otherwise) when.otherwise(() => runBody(otherwise));
  };
  for (const chain of conditional.chains) runChain(chain);
  pool.push(...targets);
  return targets;
}

/** The two ends of a child's interface chain: its `bi` and `bo` ports (seen from inside or from the parent). */
interface BundlePorts {
  readonly bi: unknown;
  readonly bo: unknown;
}

/** The bundle type of fuzzed fields, from the producer's side: fields `f0, f1, …`. */
export function fuzzBundleType(fields: readonly FuzzBundleField[]): { readonly [name: string]: PortTree } {
  return Object.fromEntries(
    fields.map((field, index): [string, PortTree] => {
      if ('width' in field) return [`f${index}`, field.flipped ? input(field.width) : output(field.width)];
      const inner = fuzzBundleType(field.fields);
      return [`f${index}`, 'count' in field ? vec(field.count, inner) : field.flipped ? flip(inner) : inner];
    }),
  );
}

/** The signals of an interface in the order flattenPorts walks its type. */
function leavesOf(group: unknown): Signal[] {
  if (Array.isArray(group)) return group.flatMap(leavesOf);
  if (typeof group === 'object' && group !== null && !('width' in group))
    return Object.values(group as Record<string, unknown>).flatMap(leavesOf);
  return [group as Signal];
}

/**
 * One interface chain (FuzzBundle): `upstream` → stage → `downstream`, each joined to the next
 * with one `connect`. Outside a child the ends are wires `<prefix>s`/`<prefix>k` whose forward
 * (upstream) and backward (downstream) fields are driven from the pool; inside a child they are
 * its ports; for a child's ports seen from the parent (`ports` given, `prefix` 'c<k>'), the parent
 * drives them through such wires, with no stage of its own. Returns the values the chain gives
 * back to the design: the upstream's backward and the downstream's forward fields.
 */
function buildBundleChain(
  m: ModuleBuilder,
  spec: FuzzBundle,
  prefix: string,
  pool: readonly Value[],
  ports: BundlePorts | undefined,
): Value[] {
  const type = fuzzBundleType(spec.fields);
  const leaves = flattenPorts(type);
  const inChild = ports !== undefined && prefix === 'b';
  const drive = (group: unknown, direction: 'input' | 'output', from: number): void =>
    leavesOf(group).forEach((signal, index) => {
      if (leaves[index]!.spec.direction === direction) signal.set(fit(pick(pool, from + 7 * index), signal.width));
    });
  const gather = (group: unknown, direction: 'input' | 'output'): Signal[] =>
    leavesOf(group).filter((_, index) => leaves[index]!.spec.direction === direction);
  if (inChild) {
    // Inside a child: bi → stage → bo; the child's pool never sees them (its outputs feed the parent's drives).
    const stage = spec.registered
      ? regs(m, `${prefix}t`, type, spec.reset ? { reset: 0 } : {})
      : wires(m, `${prefix}t`, type);
    connect(stage, ports.bi);
    connect(ports.bo, stage);
    return [];
  }
  const upstream = wires(m, `${prefix}s`, type);
  const downstream = wires(m, `${prefix}k`, type);
  drive(upstream, 'output', spec.forward);
  drive(downstream, 'input', spec.backward);
  if (ports) {
    connect(ports.bi, upstream);
    connect(downstream, ports.bo);
  } else {
    const stage = spec.registered
      ? regs(m, `${prefix}t`, type, spec.reset ? { reset: 0 } : {})
      : wires(m, `${prefix}t`, type);
    connect(stage, upstream);
    connect(downstream, stage);
  }
  return [...gather(upstream, 'input'), ...gather(downstream, 'output')];
}

/** Widths of a design's outputs: the chosen ones, then the digest of all its nodes. */
function outputWidths(design: FuzzDesign): number[] {
  return [...design.outputs.map((out) => out.width), MAX_FUZZ_WIDTH];
}

/**
 * The module definition of a random design: inputs `i0…`, outputs `o0…`; its child (if any) is
 * its own module, `<name>_c`.
 */
export function buildRandomDesign(design: FuzzDesign, name: string, asChild = false): FuzzModule {
  const child = design.child ? buildRandomDesign(design.child, `${name}_c`, true) : undefined;
  const bundleType = asChild && design.bundle ? fuzzBundleType(design.bundle.fields) : undefined;
  return defineModule({
    name,
    defaults: {},
    ports: (): Record<string, PortSpec> => ({
      ...Object.fromEntries(design.inputs.map((width, index) => [`i${index}`, input(width)])),
      ...Object.fromEntries(outputWidths(design).map((width, index) => [`o${index}`, output(width)])),
      // The bundle ports are trees, not single ports (see FuzzModule).
      ...((bundleType ? { bi: flip(bundleType), bo: bundleType } : {}) as Record<string, PortSpec>),
    }),
    build(m, io) {
      const ports = io as unknown as Record<string, Signal>;
      const outputs = populate(
        m,
        design,
        design.inputs.map((_, index) => ports[`i${index}`]!),
        child,
        bundleType ? { bi: ports['bi'], bo: ports['bo'] } : undefined,
      );
      outputs.forEach((value, index) => ports[`o${index}`]!.set(value));
    },
  });
}

/**
 * Many random designs side by side under one top (`f0_i0`, `f0_o0`, …): one Verilator build
 * checks them all, since builds, not runs, dominate.
 */
export function buildDesignBatch(designs: readonly FuzzDesign[], name: string): ModuleDefinition {
  const members = designs.map((design, index) => ({
    design,
    definition: buildRandomDesign(design, `${name}_f${index}`),
  }));
  return defineModule({
    name,
    defaults: {},
    ports: () => Object.fromEntries(members.flatMap(({ design }, member) => memberPorts(design, member))),
    build(m, io) {
      const ports = io as Record<string, Signal>;
      members.forEach(({ design, definition }, member) =>
        connectMember(design, member, m.instance(definition, { name: `member${member}` }), ports),
      );
    },
  });
}

/** Member `member`'s ports under a batch top: its inputs `f<k>_i<n>`, its outputs `f<k>_o<n>` (the last its digest). */
export function memberPorts(design: FuzzDesign, member: number) {
  return [
    ...design.inputs.map((width, index) => [`f${member}_i${index}`, input(width)] as const),
    ...outputWidths(design).map((width, index) => [`f${member}_o${index}`, output(width)] as const),
  ];
}

/** Wires a member's instance to its ports under the batch top (memberPorts). */
export function connectMember(
  design: FuzzDesign,
  member: number,
  instance: Record<string, Signal>,
  ports: Record<string, Signal>,
): void {
  design.inputs.forEach((_, index) => instance[`i${index}`]!.set(ports[`f${member}_i${index}`]!));
  outputWidths(design).forEach((_, index) => ports[`f${member}_o${index}`]!.set(instance[`o${index}`]!));
}

/** Random per-cycle inputs for a design's input widths (reset pulsed in cycle 0 when clocked). */
export function stimulusArbitrary(
  inputs: ReadonlyMap<string, number>,
  cycles: number,
): fc.Arbitrary<Record<string, bigint>[]> {
  const cycle = fc.record(
    Object.fromEntries(
      [...inputs].map(([name, width]) => [name, fc.bigInt({ min: 0n, max: (1n << BigInt(width)) - 1n })]),
    ),
  );
  return fc.array(cycle, { minLength: cycles, maxLength: cycles });
}
