/**
 * A design whose names are Verilog keywords and the names their escapes would take (a module
 * `begin` with ports `input` and `input_v`, its instance `end`), and the check that every engine
 * traces it under its DSL names with the same values. Shared by the hardening test (ts, Icarus)
 * and the soak (Verilator, whose build is too slow for `make test`).
 */
import { expect } from 'vitest';
import { join } from 'node:path';
import { runGen } from '../../support/cli.ts';
import { readVcdFile } from '../../../waves/vcdReader.ts';
import { CORE_IMPORT } from './designFolder.ts';

/** The design file's text: `KwTop` instantiates `begin` as `end`. */
export const KEYWORD_DESIGN = `import { defineModule, input, output } from ${CORE_IMPORT};
/** A module named after a Verilog keyword, whose ports clash once keywords are escaped. */
export const Begin = defineModule({
  name: 'begin',
  defaults: {},
  ports: () => ({ input: input(4), input_v: input(4), y: output(4) }),
  build: (m, io) => {
    const reg = m.reg('reg', 4, { reset: 0 });
    reg.set(io.input.xor(io.input_v));
    io.y.set(reg);
  },
});
export const KwTop = defineModule({
  name: 'KwTop',
  defaults: {},
  ports: () => ({ a: input(4), b: input(4), y: output(4) }),
  build: (m, io) => {
    const end = m.instance(Begin, { name: 'end' });
    end.input.set(io.a);
    end.input_v.set(io.b);
    io.y.set(end.y);
  },
});
`;

/** Five cycles for KwTop, as a vector file's text. */
export const KEYWORD_VECTORS = `${[
  { reset: 1, a: 0, b: 0 },
  { reset: 0, a: 3, b: 5 },
  { reset: 0, a: 15, b: 1 },
  { reset: 0, a: 7, b: 7 },
  { reset: 0, a: 9, b: 0 },
]
  .map((inputs) => JSON.stringify({ in: inputs }))
  .join('\n')}\n`;

/** `gen sim` of KwTop on the vectors, in the folder holding both files. */
const SIM_KWTOP = ['sim', '--design', 'keywords.ts', '--top', 'KwTop', '--vectors', 'vectors.jsonl'];

/**
 * Runs `gen sim --vcd` in `folder` (holding keywords.ts and vectors.jsonl) on each engine and
 * checks that the traces name the signals by their DSL names and that `gen wave diff` finds them
 * identical to the first engine's.
 */
export async function expectEnginesAgree(folder: string, engines: readonly string[]): Promise<void> {
  const traces: string[] = [];
  for (const engine of engines) {
    const vcd = join(folder, `${engine}.vcd`);
    const run = await runGen([...SIM_KWTOP, '--engine', engine, '--vcd', vcd], { cwd: folder });
    expect(run.stderr).toBe('');
    traces.push(vcd);
  }
  const names = readVcdFile(traces[0]!).signals.map((signal) => signal.fullName);
  expect(names).toEqual(expect.arrayContaining(['KwTop.end.input', 'KwTop.end.input_v', 'KwTop.end.reg']));
  for (const trace of traces.slice(1)) {
    expect(readVcdFile(trace).signals.map((signal) => signal.fullName)).toEqual(names);
    const diff = await runGen(['wave', 'diff', traces[0]!, trace]);
    expect(diff.stdout).toMatch(/^identical/);
    expect(diff.exitCode).toBe(0);
  }
}
