import { BitmapDecoder } from '../../../hw/designs/decoder/index.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { createEngine } from '../../../verif/engines/index.ts';
import type { EngineName, PortValues } from '../../../verif/engines/engine.ts';
import { decoderTimeline, type DecoderCycle, type DecoderShape } from '../../../verif/golden/decoder.ts';
import { decoderInputVectors, decoderMmaStream } from '../decoderWorkload.ts';
import { availableEngines } from '../engines.ts';
import { escapeHtml, ShownNumbers, tableHtml } from '../html.ts';
import type { ReportSection, SectionContext, SectionResult } from '../types.ts';

const SEED = 1;

/** --quick checks a 4-thread decoder (small external builds); the full run checks the paper's warp. */
function shapeFor(context: SectionContext): DecoderShape {
  return { threads: context.quick ? 4 : 32, tileLength: 64, slots: 4 };
}

function mmaCount(context: SectionContext): number {
  return context.quick ? 6 : 24;
}

const bit = (value: boolean): bigint => (value ? 1n : 0n);

/** Every output the golden decoder predicts for one cycle. */
function expectedPorts(cycle: DecoderCycle): PortValues {
  const ports: PortValues = { valid: bit(cycle.valid), first: bit(cycle.first), last: bit(cycle.last), pointer: BigInt(cycle.pointer) };
  cycle.slots.forEach((slots, thread) =>
    slots.forEach((slot, index) => {
      ports[`operand_${thread}_${index}_register`] = BigInt(slot.register);
      ports[`operand_${thread}_${index}_half`] = BigInt(slot.half);
      ports[`operand_${thread}_${index}_zero`] = bit(slot.zero);
    }),
  );
  return ports;
}

interface EngineRun {
  readonly engine: EngineName;
  readonly mismatchedCycles: number;
  readonly firstMismatch?: string;
  readonly seconds: number;
}

/**
 * The built-in regression used until `gen regress`'s suites are available: one seeded stream of
 * BitmapDecoder MMAs (back to back, gaps, a restart, resets) on every engine installed, each
 * engine's outputs compared with the golden decoder bit for bit, every cycle, every port —
 * so the engines agree with each other too.
 */
export const builtinRegressionSection: ReportSection = {
  id: 'regression',
  title: 'Regression: RTL = golden model on every engine',
  reproduce: () => ['npx vitest run tests/hw/designs/decoder/engines.test.ts tests/hw/designs/decoder/sequential.test.ts'],
  run: async (context): Promise<SectionResult> => {
    const shape = shapeFor(context);
    const design = elaborate(BitmapDecoder, shape);
    const stimulus = decoderMmaStream(shape, mmaCount(context), SEED, true);
    const expected = decoderTimeline(stimulus, shape).map(expectedPorts);
    const inputs = decoderInputVectors(stimulus, shape);
    const { available, missing } = availableEngines();
    const runs: EngineRun[] = [];
    for (const name of available) {
      const started = performance.now();
      const { outputs } = await (await createEngine(name)).run(design, inputs);
      const wrong = expected
        .map((ports, cycle) => ({ cycle, port: Object.keys(ports).find((port) => outputs[cycle]?.[port] !== ports[port]) }))
        .filter((entry) => entry.port !== undefined);
      const first = wrong[0];
      runs.push({
        engine: name,
        mismatchedCycles: wrong.length,
        ...(first ? { firstMismatch: `cycle ${first.cycle}: ${first.port} = ${outputs[first.cycle]?.[first.port!]}, golden ${expected[first.cycle]?.[first.port!]}` } : {}),
        seconds: (performance.now() - started) / 1000,
      });
    }
    const shown = new ShownNumbers('regression');
    const mmas = stimulus.filter((cycle) => cycle.start).length;
    const rows = runs.map((run) => [
      `${escapeHtml(design.top)} vs golden decoder`,
      run.engine,
      shown.show(`decoder.${run.engine}.mmas`, mmas, 'integer'),
      shown.show(`decoder.${run.engine}.cycles`, stimulus.length, 'integer'),
      `<span class="${run.mismatchedCycles === 0 ? 'pass' : 'fail'}">${shown.show(`decoder.${run.engine}.failures`, run.mismatchedCycles, 'integer')}</span>${run.firstMismatch ? ` <small>${escapeHtml(run.firstMismatch)}</small>` : ''}`,
      shown.show(`decoder.${run.engine}.seconds`, run.seconds, { digits: 2 }),
    ]);
    const failures = runs.filter((run) => run.mismatchedCycles > 0);
    const html = [
      `<p>One seeded stream (seed ${SEED}) of BitmapDecoder MMAs — back to back, with idle gaps, a restart and resets — on every engine installed here; ` +
        `each engine's outputs (${shown.show('portsPerCycle', Object.keys(expected[0] ?? {}).length, 'integer')} ports per cycle) equal the golden decoder's bit for bit in every cycle, so the engines also equal each other. ` +
        `${missing.length > 0 ? `Not installed, so not run: ${escapeHtml(missing.map((entry) => `${entry.engine} (${entry.program})`).join(', '))}. ` : ''}` +
        '<em>Built-in set: the randomized suites of <code>gen regress</code> replace it when that command is available.</em></p>',
      tableHtml(['suite', 'engine', 'MMAs', 'cycles', 'failing cycles', 'seconds'], rows, 'numeric'),
    ].join('\n');
    return {
      numbers: shown.values,
      html,
      headline: `${runs.length} engines (${runs.map((run) => run.engine).join(', ')}), ${mmas} decoder MMAs each, ${failures.length === 0 ? 'all equal to golden' : `${failures.length} failing`}`,
      ...(failures.length > 0 ? { failed: `the decoder differs from golden on ${failures.map((run) => run.engine).join(', ')}` } : {}),
    };
  },
};
