import { spawnSync } from 'node:child_process';
import { ToolError } from '../../../common/errors.ts';
import { runYosysScript, type YosysEngine } from '../../../synth/yosys.ts';

/** One mutant: the Yosys command that makes it, and every module of the mutated design as Verilog. */
export interface Mutant {
  readonly id: number;
  readonly command: string;
  readonly verilog: string;
}

/**
 * Which Yosys runs the mutation scripts: the system one when installed (a native start takes
 * milliseconds, the WebAssembly build seconds, and a survivor costs up to two SAT runs), else the
 * npm WebAssembly build, which needs nothing installed.
 */
const YOSYS: YosysEngine = spawnSync('yosys', ['-V'], { stdio: 'ignore' }).status === 0 ? 'system' : 'yowasp';

const readDesign = (files: ReadonlyMap<string, string>, top: string): string[] => [...[...files.keys()].map((name) => `read_verilog ${name}`), `hierarchy -top ${top}`, 'proc', 'opt_clean'];

/**
 * `count` mutants of a design (Yosys `mutate -list`, evenly sampled over cells, ports and bits),
 * each applied to the processed design and written back as Verilog with its hierarchy and
 * register names kept (so the same testbench drives it).
 */
export async function makeMutants(files: ReadonlyMap<string, string>, top: string, count: number, seed: number): Promise<Mutant[]> {
  const inputs = Object.fromEntries(files);
  const listed = await runYosysScript([...readDesign(files, top), `mutate -list ${count} -seed ${seed} -o mutants.ys`].join('\n'), inputs, ['mutants.ys'], YOSYS);
  const commands = listed.files['mutants.ys']!.split('\n').map((line) => line.trim()).filter((line) => line.startsWith('mutate '));
  const outputs = commands.map((_, id) => `mutant${id}.v`);
  const script = [...readDesign(files, top), 'design -save original', ...commands.flatMap((command, id) => ['design -load original', command, `write_verilog -noattr mutant${id}.v`])];
  const written = await runYosysScript(script.join('\n'), inputs, outputs, YOSYS);
  return commands.map((command, id) => ({ id, command, verilog: written.files[outputs[id]!]! }));
}

/** Cycles the sequential equivalence proof unrolls when induction alone cannot close it. */
const SEQUENTIAL_DEPTH = 24;
/** Limit per SAT run (system Yosys): a proof that takes longer leaves the mutant a survivor. */
const SAT_TIMEOUT_MS = 60_000;

/** What the SAT miter says of a surviving mutant. */
export type ProofResult = 'proved' | 'bounded' | 'unproven';

/**
 * Tries to prove a mutant equal to the original with a SAT miter: combinationally for designs
 * without state; for sequential ones by temporal induction from the all-zero state (the step
 * contract's start), then by a bounded check of SEQUENTIAL_DEPTH cycles when induction cannot
 * close. 'proved', 'bounded' (no difference within the bound) or 'unproven' (a counterexample,
 * or the SAT run hit its time limit).
 */
export async function proveEquivalent(files: ReadonlyMap<string, string>, top: string, mutant: Mutant, sequential: boolean): Promise<ProofResult> {
  const proves = async (satCommand: string): Promise<boolean> => {
    const script = [
      'read_verilog mutant.v', `hierarchy -top ${top}`, 'proc', 'flatten', `rename ${top} gate`, 'design -stash mutant',
      ...readDesign(files, top), 'flatten', `rename ${top} gold`,
      'design -copy-from mutant -as gate gate',
      'miter -equiv -flatten -make_assert -ignore_gold_x gold gate miter', 'hierarchy -top miter',
      satCommand,
    ];
    try {
      const { log } = await runYosysScript(script.join('\n'), { ...Object.fromEntries(files), 'mutant.v': mutant.verilog }, [], YOSYS, SAT_TIMEOUT_MS);
      return /SUCCESS!|QED/.test(log) && !/FAIL!/.test(log);
    } catch (error) {
      if (error instanceof ToolError) return false;
      throw error;
    }
  };
  if (!sequential) return (await proves('sat -prove-asserts -show-ports miter')) ? 'proved' : 'unproven';
  if (await proves(`sat -tempinduct -prove-asserts -set-init-zero -maxsteps ${SEQUENTIAL_DEPTH} miter`)) return 'proved';
  return (await proves(`sat -prove-asserts -set-init-zero -seq ${SEQUENTIAL_DEPTH} miter`)) ? 'bounded' : 'unproven';
}
