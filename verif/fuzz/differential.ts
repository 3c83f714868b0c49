import fc from 'fast-check';
import { join } from 'node:path';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { topModule, clockPortsOf, type IrDesign } from '../../hw/ir/ir.ts';
import { emitVerilog } from '../../hw/verilog/emit.ts';
import { writeFileAtomic } from '../../common/atomicWrite.ts';
import type { Engine, PortValues, RunOptions } from '../../hw/contract/engine.ts';
import { formatVectorValue } from '../../engines/vectors.ts';
import { runLockstep, type LockstepDifference } from '../../engines/lockstep.ts';
import {
  buildDesignBatch,
  buildRandomDesign,
  checkedFuzzDesignArbitrary,
  fuzzDesignArbitrary,
  type FuzzDesign,
} from './randomDesign.ts';

/** One fuzz case: a random design and the noise its per-cycle inputs are drawn from. */
export type FuzzCase = [FuzzDesign, bigint[]];

export const FUZZ_CYCLES = 12;

const noiseArbitrary = fc.array(fc.bigInt({ min: 0n, max: (1n << 80n) - 1n }), {
  minLength: 8 * FUZZ_CYCLES,
  maxLength: 8 * FUZZ_CYCLES,
});

/** Random designs with their stimulus noise; `fc.sample` and `fc.assert` draw the same cases for one seed. */
export const fuzzCaseArbitrary: fc.Arbitrary<FuzzCase> = fc.tuple(fuzzDesignArbitrary, noiseArbitrary);

/** The same with checks in the designs (the differential fuzz: every engine must report them alike). */
export const checkedFuzzCaseArbitrary: fc.Arbitrary<FuzzCase> = fc.tuple(checkedFuzzDesignArbitrary, noiseArbitrary);

/** Per-cycle inputs of one case: reset held in cycle 0, then every input from the noise. */
export function caseStimulus(spec: FuzzDesign, noise: readonly bigint[], prefix = ''): PortValues[] {
  return Array.from({ length: FUZZ_CYCLES }, (_, cycle) => {
    const inputs: PortValues = { reset: cycle === 0 ? 1n : 0n };
    spec.inputs.forEach(
      (width, index) =>
        (inputs[`${prefix}i${index}`] = noise[(cycle * 8 + index) % noise.length]! & ((1n << BigInt(width)) - 1n)),
    );
    return inputs;
  });
}

/** Keeps only the inputs the design has (a combinational design has no reset). */
function restrictTo(design: IrDesign, stimulus: readonly PortValues[]): PortValues[] {
  const inputs = new Set(
    topModule(design)
      .ports.filter((port) => port.direction === 'input' && !clockPortsOf(topModule(design)).includes(port.name))
      .map((port) => port.name),
  );
  return stimulus.map((cycle) => Object.fromEntries(Object.entries(cycle).filter(([name]) => inputs.has(name))));
}

/** A disagreement between engines on one output of one cycle (runLockstep's first difference). */
export type Disagreement = LockstepDifference;

/**
 * Which member of a batch (batchDesign, twoClockDesign) a disagreement is in: from its port
 * (`f<k>_…`) or, for a check, its instance (`assert member<k>.…`, `cover member<k>.…`).
 */
export function disagreeingMember(disagreement: Disagreement): number | undefined {
  const match = /^f(\d+)_/.exec(disagreement.port) ?? /^(?:assert|cover) member(\d+)\./.exec(disagreement.port);
  return match ? Number(match[1]) : undefined;
}

/**
 * Runs the same stimulus through every engine in lockstep (engines/lockstep.ts), the stimulus
 * restricted to the inputs the design has; returns the first disagreement, if any.
 */
export async function compareEngines(
  design: IrDesign,
  stimulus: readonly PortValues[],
  engines: readonly Engine[],
  options: Pick<RunOptions, 'clocks'> = {},
): Promise<Disagreement | undefined> {
  return (await runLockstep(engines, design, restrictTo(design, stimulus), options)).difference;
}

/** A batch of cases under one top, so one Verilator build checks them all. */
export function batchDesign(cases: readonly FuzzCase[], name: string): { design: IrDesign; stimulus: PortValues[] } {
  const design = elaborate(
    buildDesignBatch(
      cases.map(([spec]) => spec),
      name,
    ),
  );
  const perCase = cases.map(([spec, noise], member) => caseStimulus(spec, noise, `f${member}_`));
  const stimulus = Array.from(
    { length: FUZZ_CYCLES },
    (_, cycle) =>
      Object.assign({ reset: cycle === 0 ? 1n : 0n }, ...perCase.map((streams) => streams[cycle]!)) as PortValues,
  );
  return { design, stimulus };
}

/** The design of one case on its own. */
export function caseDesign([spec]: FuzzCase, name = 'Fuzz'): IrDesign {
  return elaborate(buildRandomDesign(spec, name));
}

/** A fuzz case as JSON (BigInts as `0x…` strings, an absent child as null), for failure folders and the corpus. */
export function serializeFuzzCase(fuzzCase: FuzzCase): string {
  return `${JSON.stringify(fuzzCase, (_, value: unknown) => (typeof value === 'bigint' ? `0x${value.toString(16)}` : value === undefined ? null : value))}\n`;
}

/** The inverse of serializeFuzzCase. */
export function parseFuzzCase(text: string): FuzzCase {
  return JSON.parse(text, (_, value: unknown) =>
    typeof value === 'string' && value.startsWith('0x') ? BigInt(value) : value === null ? undefined : value,
  ) as FuzzCase;
}

/**
 * Saves what a failing case needs to be looked at and replayed outside the test: its Verilog,
 * its vectors in `gen sim` form, the case itself (`case.json`: copy it into the corpus,
 * tests/verif/fuzz/corpus/, to keep it as a regression), the disagreement, and the replay command.
 */
export function saveFailure(directory: string, fuzzCase: FuzzCase, disagreement: Disagreement, replay: string): string {
  const design = caseDesign(fuzzCase);
  for (const [file, text] of emitVerilog(design)) writeFileAtomic(join(directory, file), text);
  const vectors = restrictTo(design, caseStimulus(fuzzCase[0], fuzzCase[1]))
    .map((cycle) =>
      JSON.stringify({
        in: Object.fromEntries(Object.entries(cycle).map(([name, value]) => [name, formatVectorValue(value)])),
      }),
    )
    .join('\n');
  writeFileAtomic(join(directory, 'vectors.jsonl'), `${vectors}\n`);
  writeFileAtomic(join(directory, 'case.json'), serializeFuzzCase(fuzzCase));
  const values = Object.entries(disagreement.values)
    .map(([engine, value]) => `${engine}=${value === undefined ? 'missing' : formatVectorValue(value)}`)
    .join(' ');
  writeFileAtomic(
    join(directory, 'README.txt'),
    `cycle ${disagreement.cycle}, output ${disagreement.port}: ${values}\nreplay: ${replay}\n`,
  );
  return directory;
}
