import { FieldError, UserError } from '../../common/errors.ts';
import type { IrDesign, IrMemory, IrModule, IrRegister } from './ir.ts';

/**
 * What state a run starts from: all 0 (the default, the step contract's), or random values drawn
 * from a seed for every register without a reset value and every memory without initial contents,
 * the same on every engine, so a register that misses its reset shows as a mismatch against a
 * golden model instead of starting at a lucky 0.
 */
export type InitialState = 'zero' | { readonly random: number };

/** The deepest memory random initial state fills (its words become `initial` lines of the Verilog). */
export const RANDOM_INIT_MAX_DEPTH = 65_536;

const MASK64 = (1n << 64n) - 1n;

/** SplitMix64's output function: a well-mixed 64-bit value of a 64-bit state. */
function mix64(state: bigint): bigint {
  let z = state & MASK64;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
  return z ^ (z >> 31n);
}

/** FNV-1a, 64 bits, of a string's UTF-16 code units: the start state of one register's or memory's draws. */
function fnv1a64(text: string): bigint {
  let hash = 0xcbf29ce484222325n;
  for (let index = 0; index < text.length; index++)
    hash = ((hash ^ BigInt(text.charCodeAt(index))) * 0x100000001b3n) & MASK64;
  return hash;
}

/**
 * The random values of one register or memory of a module: a SplitMix64 sequence started from
 * the seed, the module's name and the state's name, so a value depends on nothing else (not on
 * the engine, the order of declarations, or other registers). Every instance of a module starts
 * alike. A `width`-bit value takes ceil(width / 64) draws, the first in the low bits.
 */
export function randomWords(seed: number, module: string, name: string, width: number, count: number): bigint[] {
  let state = fnv1a64(`${seed}/${module}/${name}`);
  const draws = Math.ceil(width / 64);
  const mask = (1n << BigInt(width)) - 1n;
  const words: bigint[] = [];
  for (let word = 0; word < count; word++) {
    let value = 0n;
    for (let draw = 0; draw < draws; draw++) {
      state = (state + 0x9e3779b97f4a7c15n) & MASK64;
      value |= mix64(state) << BigInt(64 * draw);
    }
    words.push(value & mask);
  }
  return words;
}

function randomModule(module: IrModule, seed: number): IrModule {
  if (module.blackBox) return module;
  const registers = module.registers.map((register): IrRegister => {
    if (register.resetValue !== undefined) return register;
    const net = module.nets[register.q]!;
    return { ...register, initial: randomWords(seed, module.name, net.name, net.width, 1)[0]! };
  });
  const memories = module.memories.map((memory): IrMemory => {
    if (memory.init !== undefined) return memory;
    if (memory.depth > RANDOM_INIT_MAX_DEPTH)
      throw new UserError(
        `--init random: memory '${memory.name}' of ${module.name} has ${memory.depth} words, over the ${RANDOM_INIT_MAX_DEPTH} random initial state fills`,
      );
    return { ...memory, init: randomWords(seed, module.name, memory.name, memory.width, memory.depth) };
  });
  return { ...module, registers, memories };
}

const randomized = new WeakMap<IrDesign, Map<number, IrDesign>>();
/** The copies withInitialState made: already started as asked (an engine passing one on keeps it). */
const copies = new WeakSet<IrDesign>();

/**
 * The design as a run with `init` starts it: itself for zero state; for random state, a copy
 * whose registers without a reset value have an `initial` value and whose memories without
 * initial contents have random ones (one copy per design and seed, so engines' caches keyed by
 * the design object build it once). Black boxes keep their own state.
 */
export function withInitialState<D extends IrDesign>(design: D, init: InitialState | undefined): D {
  if (init === undefined || init === 'zero' || copies.has(design)) return design;
  const seed = init.random;
  if (!Number.isSafeInteger(seed) || seed < 0)
    throw new FieldError('init', `random: the seed must be a whole number 0 or above, got ${seed}`);
  let bySeed = randomized.get(design);
  if (!bySeed) randomized.set(design, (bySeed = new Map()));
  let copy = bySeed.get(seed);
  if (!copy) {
    copy = { ...design, modules: design.modules.map((module) => randomModule(module, seed)) };
    bySeed.set(seed, copy);
    copies.add(copy);
  }
  return copy as D;
}

/**
 * Parses `zero`, `random` or `random:<seed>` (the `--init` flag); `random` alone takes
 * `freshSeed()` (the caller prints it, so the run can be replayed).
 */
export function parseInitialState(text: string, freshSeed: () => number): InitialState {
  if (text === 'zero') return 'zero';
  const match = /^random(?::(\d{1,15}))?$/.exec(text);
  if (!match) throw new FieldError('init', `must be zero, random or random:<seed>, got ${JSON.stringify(text)}`);
  return { random: match[1] === undefined ? freshSeed() : Number(match[1]) };
}
