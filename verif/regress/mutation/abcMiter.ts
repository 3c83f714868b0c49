import { ToolError } from '../../../common/errors.ts';
import { readOutputs, runTool, withWorkspace } from '../../../tools/runTool.ts';
import { hasTool } from '../../../tools/toolchain.ts';

/** What one proof attempt on a miter gave: no difference, a counterexample, or no decision. */
export type MiterOutcome =
  | { readonly kind: 'success' }
  | { readonly kind: 'fail'; readonly counterexample: string }
  | { readonly kind: 'undecided' };

/**
 * Whether the ABC that ships with Yosys is installed. Its SAT sweeping (fraiging) merges the
 * identical parts of original and mutant first, so it decides a one-cell difference in an FP adder
 * in a second where Yosys `sat` on the flat miter runs for minutes; and its PDR proves sequential
 * miters for every cycle, where `sat -tempinduct` often cannot close.
 */
export const HAS_ABC = hasTool('yosys-abc');

/** Seconds per ABC engine run; a run that needs longer leaves the mutant undecided. */
const ABC_SECONDS = 60;
/** Cycles of the bounded check when PDR neither proves nor refutes in its time. */
export const BOUNDED_CYCLES = 24;
/** Longest counterexample kept in a report: a sequential one lists every input at every step. */
const COUNTEREXAMPLE_CHARS = 400;

/**
 * Lowers a miter (output `trigger`) to an AIG with a map of its input bits: registers start at
 * zero (the step contract's reset state), synchronous resets and enables become logic. The first
 * `opt -fast` merges the word-level cells original and mutant share (the three multipliers a
 * mutant of the fourth leaves alone) before `techmap` turns them into thousands of gates.
 */
const TO_AIGER = [
  'setundef -zero -init',
  'async2sync',
  'opt -fast',
  'techmap',
  'opt -fast',
  'dffunmap',
  'aigmap',
  'write_aiger -map miter.map miter.aig',
];

/**
 * The counterexample ABC wrote (`write_cex -n`: `pi<k>@<step>=<bit>`) as `port=hex` words, with
 * `@step` for sequential ones, input bits named through Yosys' AIGER map (`input <k> <bit> in_<port>`).
 */
function counterexampleOf(cex: string, map: string, sequential: boolean): string {
  const inputs = new Map<number, { port: string; bit: number }>();
  for (const [, index, bit, name] of map.matchAll(/^input (\d+) (\d+) in_(\S+)$/gm))
    inputs.set(Number(index), { port: name!, bit: Number(bit) });
  const values = new Map<string, bigint>();
  for (const [, index, step, value] of cex.matchAll(/^pi(\d+)@(\d+)=([01])$/gm)) {
    const input = inputs.get(Number(index));
    if (!input || input.port === 'clk') continue;
    const key = sequential ? `${input.port}=@${step}` : `${input.port}=`;
    values.set(key, (values.get(key) ?? 0n) | (BigInt(value!) << BigInt(input.bit)));
  }
  return clipCounterexample([...values].map(([key, value]) => key.replace('=', `=${value.toString(16)}`)).join(' '));
}

/** A counterexample cut to COUNTEREXAMPLE_CHARS for the report. */
export const clipCounterexample = (text: string): string =>
  text.length > COUNTEREXAMPLE_CHARS ? `${text.slice(0, COUNTEREXAMPLE_CHARS)}…` : text;

/** Runs Yosys (the script building the miter, then TO_AIGER) and ABC `command` on the result. */
async function runAbc(
  miterScript: readonly string[],
  inputs: Readonly<Record<string, string>>,
  command: string,
): Promise<{ log: string; cex?: string; map?: string }> {
  const timeout = (ABC_SECONDS + 60) * 1000;
  return withWorkspace(
    'abc-miter',
    { ...inputs, 'miter.ys': [...miterScript, ...TO_AIGER].join('\n') },
    async (dir) => {
      await runTool('yosys', ['-q', '-s', 'miter.ys'], { cwd: dir, timeout });
      const { stdout } = await runTool('yosys-abc', ['-c', `read miter.aig; ${command}; write_cex -n cex.txt`], {
        cwd: dir,
        timeout,
      });
      const files = readOutputs(dir, ['cex.txt', 'miter.map']);
      return {
        log: stdout,
        ...(files['cex.txt'] ? { cex: files['cex.txt'] } : {}),
        ...(files['miter.map'] ? { map: files['miter.map'] } : {}),
      };
    },
  );
}

/**
 * Decides a miter with ABC: `&cec -m` (combinational equivalence by SAT sweeping) for designs
 * without state; for sequential ones `pdr` (every cycle from reset), then, if PDR runs out of
 * time, `bmc3` over BOUNDED_CYCLES cycles — its success is returned as 'bounded'.
 */
export async function abcDecide(
  miterScript: readonly string[],
  inputs: Readonly<Record<string, string>>,
  sequential: boolean,
): Promise<MiterOutcome | { readonly kind: 'bounded' }> {
  const attempt = async (command: string, proved: RegExp, refuted: RegExp): Promise<'proved' | MiterOutcome> => {
    try {
      const { log, cex, map } = await runAbc(miterScript, inputs, command);
      if (refuted.test(log))
        return { kind: 'fail', counterexample: counterexampleOf(cex ?? '', map ?? '', sequential) };
      return proved.test(log) ? 'proved' : { kind: 'undecided' };
    } catch (error) {
      if (error instanceof ToolError) return { kind: 'undecided' };
      throw error;
    }
  };
  const asserted = /was asserted in frame/;
  if (!sequential) {
    const outcome = await attempt('&get -n; &cec -m', /Networks are equivalent/, /NOT EQUIVALENT/);
    return outcome === 'proved' ? { kind: 'success' } : outcome;
  }
  const unbounded = await attempt(`pdr -T ${ABC_SECONDS}`, /Property proved/, asserted);
  if (unbounded === 'proved') return { kind: 'success' };
  if (unbounded.kind === 'fail') return unbounded;
  const bounded = await attempt(`bmc3 -F ${BOUNDED_CYCLES} -T ${ABC_SECONDS}`, /No output asserted in/, asserted);
  return bounded === 'proved' ? { kind: 'bounded' } : bounded;
}
