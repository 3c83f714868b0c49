import { ToolError, UserError } from '../../../common/errors.ts';
import { findYosys, runYosysScript, type YosysEngine } from '../../../tools/yosys.ts';
import { abcDecide, BOUNDED_CYCLES, clipCounterexample, HAS_ABC, type MiterOutcome } from './abcMiter.ts';

/** One mutant: the Yosys command that makes it, and every module of the mutated design as Verilog. */
export interface Mutant {
  readonly id: number;
  readonly command: string;
  readonly verilog: string;
}

/**
 * Which Yosys runs the mutation scripts: the fastest there is (a native start takes milliseconds,
 * the WebAssembly build seconds, and a survivor costs up to two SAT runs).
 */
const YOSYS: YosysEngine = findYosys('fastest');

const readDesign = (files: ReadonlyMap<string, string>, top: string): string[] => [
  ...[...files.keys()].map((name) => `read_verilog ${name}`),
  `hierarchy -top ${top}`,
  'proc',
  'opt_clean',
];

/**
 * The design as it is mutated: each memory collected into one cell, its initial contents a
 * parameter. Left as one `$meminit` cell per word, the memory words would be most of what `mutate`
 * samples, and a mutated `$meminit` enable is one Yosys refuses to write back.
 */
const mutableDesign = (files: ReadonlyMap<string, string>, top: string): string[] => [
  ...readDesign(files, top),
  'memory_collect',
];

/**
 * `count` mutants of a design (Yosys `mutate -list`, evenly sampled over cells, ports and bits),
 * each applied to the processed design and written back as Verilog with its hierarchy and
 * register names kept (so the same testbench drives it).
 */
export async function makeMutants(
  files: ReadonlyMap<string, string>,
  top: string,
  count: number,
  seed: number,
): Promise<Mutant[]> {
  const inputs = Object.fromEntries(files);
  const listed = await runYosysScript(
    [...mutableDesign(files, top), `mutate -list ${count} -seed ${seed} -o mutants.ys`].join('\n'),
    inputs,
    ['mutants.ys'],
    YOSYS,
  );
  const commands = listed.files['mutants.ys']!.split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('mutate '));
  const outputs = commands.map((_, id) => `mutant${id}.v`);
  const script = [
    ...mutableDesign(files, top),
    'design -save original',
    ...commands.flatMap((command, id) => ['design -load original', command, `write_verilog -noattr mutant${id}.v`]),
  ];
  const written = await runYosysScript(script.join('\n'), inputs, outputs, YOSYS);
  return commands.map((command, id) => ({ id, command, verilog: written.files[outputs[id]!]! }));
}

/** A design as the miter reads it: one Verilog file per module, and its top. */
export interface MiterDesign {
  readonly files: ReadonlyMap<string, string>;
  readonly top: string;
}

/** Limit per Yosys `sat` run (system Yosys): a proof that takes longer leaves the mutant undecided. */
const SAT_TIMEOUT_MS = 60_000;

/**
 * What the miter says of a surviving mutant: 'proved' equal, 'bounded' (no difference within
 * BOUNDED_CYCLES cycles), 'different' (the solver found inputs that tell them apart), or
 * 'undecided' (the solver ran out of time).
 */
export type ProofVerdict = 'proved' | 'bounded' | 'different' | 'undecided';

export interface ProofResult {
  readonly verdict: ProofVerdict;
  /** For 'different': the distinguishing inputs, `port=hex` (with `@step` when sequential). */
  readonly counterexample?: string;
}

/** The inputs of a failed `sat` proof's model, from its `-show-inputs` table (a Time column when sequential). */
function satCounterexample(log: string): string {
  const values = [...log.matchAll(/^\s*(?:(\d+)\s+)?\\in_(\S+)\s+\S+\s+(\S+)\s+[01x]+\s*$/gm)].map(
    ([, step, port, hex]) => `${port}=${hex}${step === undefined ? '' : `@${step}`}`,
  );
  return clipCounterexample(values.join(' '));
}

/**
 * The fallback without ABC: Yosys `sat` on the miter, combinationally, or for sequential designs
 * by temporal induction from the all-zero state, then a bounded check of BOUNDED_CYCLES cycles.
 * A failed induction step is no counterexample; a failed bounded or combinational check is one.
 */
async function satDecide(
  miterScript: readonly string[],
  inputs: Readonly<Record<string, string>>,
  sequential: boolean,
): Promise<MiterOutcome | { readonly kind: 'bounded' }> {
  const solve = async (satCommand: string): Promise<MiterOutcome> => {
    try {
      const { log } = await runYosysScript([...miterScript, satCommand].join('\n'), inputs, [], YOSYS, SAT_TIMEOUT_MS);
      if (/FAIL!/.test(log)) return { kind: 'fail', counterexample: satCounterexample(log) };
      return /SUCCESS!|QED/.test(log) ? { kind: 'success' } : { kind: 'undecided' };
    } catch (error) {
      if (error instanceof ToolError) return { kind: 'undecided' };
      throw error;
    }
  };
  if (!sequential) return solve('sat -prove trigger 0 -show-inputs miter');
  if (
    (await solve(`sat -tempinduct -prove trigger 0 -set-init-zero -maxsteps ${BOUNDED_CYCLES} miter`)).kind ===
    'success'
  )
    return { kind: 'success' };
  const bounded = await solve(`sat -prove trigger 0 -set-init-zero -seq ${BOUNDED_CYCLES} -show-inputs miter`);
  return bounded.kind === 'success' ? { kind: 'bounded' } : bounded;
}

/**
 * Tries to prove a mutant equal to the original with a miter (`miter -equiv`, output `trigger`
 * high when they differ), decided by ABC when installed, else by Yosys `sat`.
 *
 * `context` (default: the block itself) is the design compared with and without the mutant
 * inside: the mutated module alone (a mutant equal there is equal everywhere), the block, or a
 * design that uses the block's modules unchanged (a mutant that differs only on inputs that
 * design never gives the block — a rank the lane detector cannot produce — is proved equal
 * there). `sequential` is whether `context` has state.
 */
export async function proveEquivalent(
  block: MiterDesign,
  mutant: Mutant,
  sequential: boolean,
  context: MiterDesign = block,
): Promise<ProofResult> {
  for (const [name, text] of block.files)
    if (context.files.get(name) !== text)
      throw new UserError(
        `${context.top} does not contain ${block.top}'s module ${name} unchanged, so it cannot be its miter context`,
      );
  const surroundings = [...context.files.keys()].filter((name) => !block.files.has(name));
  const miterScript = [
    ...['mutant.v', ...surroundings].map((name) => `read_verilog ${name}`),
    `hierarchy -top ${context.top}`,
    'proc',
    'flatten',
    `rename ${context.top} gate`,
    'design -stash mutant',
    ...readDesign(context.files, context.top),
    'flatten',
    `rename ${context.top} gold`,
    'design -copy-from mutant -as gate gate',
    'miter -equiv -flatten gold gate miter',
    'hierarchy -top miter',
  ];
  const inputs = { ...Object.fromEntries(context.files), 'mutant.v': mutant.verilog };
  const outcome =
    HAS_ABC && YOSYS === 'system'
      ? await abcDecide(miterScript, inputs, sequential)
      : await satDecide(miterScript, inputs, sequential);
  if (outcome.kind === 'success') return { verdict: 'proved' };
  if (outcome.kind === 'bounded') return { verdict: 'bounded' };
  return outcome.kind === 'fail'
    ? { verdict: 'different', counterexample: outcome.counterexample }
    : { verdict: 'undecided' };
}
