import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolError, UserError } from '../../../common/errors.ts';
import { writeFileAtomic } from '../../../common/atomicWrite.ts';
import { startProgress } from '../../../common/progress.ts';
import { emitVerilog } from '../../../hw/verilog/emit.ts';
import { IcarusEngine } from '../../../engines/icarus/icarusEngine.ts';
import { caseSeed, shardCases, WHOLE } from '../cases.ts';
import { drawCase, runCases } from '../runCases.ts';
import type { RegressSuite } from '../suite.ts';
import { MutantEngine } from './mutantEngine.ts';
import type { IrDesign } from '../../../hw/ir/ir.ts';
import {
  makeMutants,
  proveEquivalent,
  type MiterDesign,
  type Mutant,
  type ProofResult,
  type ProofVerdict,
} from './yosysMutants.ts';

/** What became of one mutant: killed by the suite, survived it, proved equal to the original, or not simulable. */
export type MutantStatus = 'killed' | 'survived' | 'equivalent' | 'equivalent-bounded' | 'invalid';

export interface MutantResult {
  readonly id: number;
  readonly command: string;
  readonly status: MutantStatus;
  readonly detail?: string;
}

/**
 * A block's mutation score, per parameter set (one elaborated top): killed / (mutants − equivalent
 * − invalid), or undefined where no mutant is left to score (an invalid mutant is never a kill).
 */
export interface MutationScore {
  readonly suite: string;
  readonly top: string;
  /** The cases of the run that drew this parameter set. */
  readonly cases: number;
  readonly mutants: number;
  readonly counts: Readonly<Record<MutantStatus, number>>;
  readonly score: number | undefined;
  readonly results: readonly MutantResult[];
}

export interface MutationOptions {
  readonly runs: number;
  readonly seed: number;
  readonly mutants: number;
}

const STATUS_OF_PROOF: Readonly<Record<ProofVerdict, MutantStatus>> = {
  proved: 'equivalent',
  bounded: 'equivalent-bounded',
  different: 'survived',
  undecided: 'survived',
};

/** Why a survivor survived: the miter's distinguishing inputs (a gap in the stimulus), or no decision. */
function survivorDetail(proof: ProofResult, top: string): string | undefined {
  if (proof.verdict === 'different')
    return `not equivalent as ${top}; the miter tells them apart with ${proof.counterexample || 'inputs it did not print'}`;
  return proof.verdict === 'undecided'
    ? 'undecided: the miter found neither proof nor counterexample in its time limit'
    : undefined;
}

interface ScoredDesign extends MiterDesign {
  readonly sequential: boolean;
  readonly ir: IrDesign;
}

/** Whether module `name` or one under it holds state (an unknown name counts as stateful: the sequential check covers both). */
function hasState(design: IrDesign, name: string): boolean {
  const module = design.modules.find((candidate) => candidate.name === name);
  return (
    !module ||
    module.registers.length > 0 ||
    module.memories.length > 0 ||
    module.instances.some((instance) => hasState(design, instance.module))
  );
}

const miterDesign = (design: IrDesign): ScoredDesign => ({
  files: emitVerilog(design),
  top: design.top,
  sequential: hasState(design, design.top),
  ir: design,
});

/**
 * Proves a survivor equal where it is cheapest and most general first: the mutated module alone
 * (equal there means equal in every use), then the block, then the suite's context design (equal
 * on the inputs the block really gets). Returns the first proof, or the block's own verdict.
 */
async function proveSurvivor(
  block: ScoredDesign,
  mutant: Mutant,
  context: ScoredDesign | undefined,
): Promise<{ readonly proof: ProofResult; readonly detail?: string }> {
  const mutated = /-module (\S+)/.exec(mutant.command)?.[1];
  const levels = [
    ...(mutated !== undefined && mutated !== block.top
      ? [
          {
            design: { ...block, top: mutated, sequential: hasState(block.ir, mutated) },
            detail: `proved equal as module ${mutated} alone`,
          },
        ]
      : []),
    { design: block, detail: undefined },
    ...(context
      ? [
          {
            design: context,
            detail: `equal inside ${context.top}: the block alone differs only on inputs ${context.top} never gives it`,
          },
        ]
      : []),
  ];
  let reported: { proof: ProofResult; top: string } | undefined;
  for (const { design, detail } of levels) {
    const proof = await proveEquivalent(block, mutant, design.sequential, design);
    if (proof.verdict === 'proved' || proof.verdict === 'bounded') return { proof, ...(detail ? { detail } : {}) };
    // Report the block's own verdict unless it is undecided and a smaller miter found a difference.
    if (reported === undefined || (design === block && proof.verdict === 'different'))
      reported = { proof, top: design.top };
  }
  const detail = survivorDetail(reported!.proof, reported!.top);
  return { proof: reported!.proof, ...(detail ? { detail } : {}) };
}

/** Runs a parameter set's cases on one mutant; the first failing case kills it. */
async function judgeMutant(
  suite: RegressSuite,
  engine: MutantEngine,
  options: MutationOptions,
  indices: readonly number[],
): Promise<{ killed: boolean; detail?: string }> {
  const outcomes = await runCases(suite, engine, options.seed, indices);
  const killer = outcomes.find((outcome) => outcome.mismatch);
  return killer ? { killed: true, detail: `killed by case ${killer.index}` } : { killed: false };
}

/** One parameter set of a suite: an elaborated top and the cases of the run that draw it. */
export interface ParameterSet {
  readonly design: IrDesign;
  readonly indices: readonly number[];
}

/**
 * The run's cases grouped by the design they draw. A suite over one block has one set; a suite
 * whose design depends on the case (a CRC's bits per cycle) has one per top, and each is mutated
 * and judged on its own cases — a mutant of one top cannot stand in for another.
 */
export function parameterSets(suite: RegressSuite, options: Pick<MutationOptions, 'runs' | 'seed'>): ParameterSet[] {
  const byDesign = new Map<IrDesign, number[]>();
  for (const index of shardCases(options.runs, WHOLE)) {
    const design = suite.design(drawCase(suite, caseSeed(options.seed, index)));
    byDesign.set(design, [...(byDesign.get(design) ?? []), index]);
  }
  return [...byDesign].map(([design, indices]) => ({ design, indices }));
}

/**
 * Mutation score of one suite, per parameter set: Yosys mutants of the set's Verilog, each run
 * through the set's cases on Icarus; survivors go to a SAT miter, and those proved equal are not
 * counted against it.
 */
export async function scoreSuite(
  suite: RegressSuite,
  options: MutationOptions,
  onMutant: () => void = () => {},
): Promise<MutationScore[]> {
  const scores: MutationScore[] = [];
  for (const set of parameterSets(suite, options)) scores.push(await scoreParameterSet(suite, set, options, onMutant));
  return scores;
}

async function scoreParameterSet(
  suite: RegressSuite,
  { design, indices }: ParameterSet,
  options: MutationOptions,
  onMutant: () => void,
): Promise<MutationScore> {
  const block = miterDesign(design);
  const context = suite.mutationContext ? miterDesign(suite.mutationContext()) : undefined;
  // The block must pass its own suite, or no mutant's death means anything.
  const baseline = await runCases(suite, new IcarusEngine(), options.seed, indices);
  if (baseline.some((outcome) => outcome.mismatch))
    throw new UserError(`${suite.name} fails its own suite on Icarus (${design.top}); fix that before scoring mutants`);
  const mutants = await makeMutants(block.files, design.top, options.mutants, options.seed);
  const cacheRoot = mkdtempSync(join(tmpdir(), 'regress-mutants-'));
  const results: MutantResult[] = [];
  try {
    for (const mutant of mutants) {
      let result: MutantResult;
      try {
        const verdict = await judgeMutant(suite, new MutantEngine(mutant.verilog, cacheRoot), options, indices);
        if (verdict.killed)
          result = {
            id: mutant.id,
            command: mutant.command,
            status: 'killed',
            ...(verdict.detail ? { detail: verdict.detail } : {}),
          };
        else {
          const { proof, detail } = await proveSurvivor(block, mutant, context);
          result = {
            id: mutant.id,
            command: mutant.command,
            status: STATUS_OF_PROOF[proof.verdict],
            ...(detail ? { detail } : {}),
          };
        }
      } catch (error) {
        if (!(error instanceof ToolError)) throw error;
        result = { id: mutant.id, command: mutant.command, status: 'invalid', detail: error.message.split('\n')[0]! };
      }
      results.push(result);
      onMutant();
    }
  } finally {
    rmSync(cacheRoot, { recursive: true, force: true });
  }
  const counts: Record<MutantStatus, number> = {
    killed: 0,
    survived: 0,
    equivalent: 0,
    'equivalent-bounded': 0,
    invalid: 0,
  };
  for (const { status } of results) counts[status]++;
  const scored = results.length - counts.equivalent - counts['equivalent-bounded'] - counts.invalid;
  return {
    suite: suite.name,
    top: design.top,
    cases: indices.length,
    mutants: results.length,
    counts,
    score: scored === 0 ? undefined : counts.killed / scored,
    results,
  };
}

/** A score as printed: a percentage, or 'n/a' where no mutant was left to score. */
const percent = (score: number | undefined): string => (score === undefined ? 'n/a' : `${(score * 100).toFixed(1)} %`);

/**
 * Fails a mutation run, in one line, where some block's mutants were all invalid: its score
 * would say nothing about its suite, and a run that measured nothing must not pass.
 */
export function checkMutationScores(scores: readonly MutationScore[]): void {
  const blind = scores.filter((score) => score.mutants > 0 && score.counts.invalid === score.mutants);
  if (blind.length === 0) return;
  const first = blind[0]!;
  const why = first.results[0]?.detail;
  throw new UserError(
    `${blind.map((score) => score.top).join(', ')}: all ${first.mutants} mutants are invalid, so nothing was scored${why ? ` (first: ${why})` : ''}`,
  );
}

/** The per-block table printed by `gen regress --mutate`. */
export function mutationTable(scores: readonly MutationScore[]): string {
  const header = ['block', 'mutants', 'killed', 'survived', 'equivalent', 'invalid', 'score'];
  const rows = scores.map((score) =>
    [
      score.top,
      score.mutants,
      score.counts.killed,
      score.counts.survived,
      `${score.counts.equivalent}+${score.counts['equivalent-bounded']}b`,
      score.counts.invalid,
      percent(score.score),
    ].map(String),
  );
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const format = (row: readonly string[]): string =>
    row
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ');
  return [format(header), ...rows.map(format)].join('\n');
}

/** `gen regress --mutate`: scores every selected suite, prints the table and survivors, saves a JSON report. */
export async function runMutation(
  options: MutationOptions & { readonly suites: readonly RegressSuite[]; readonly out: string },
): Promise<MutationScore[]> {
  const sets = options.suites.map((suite) => ({ suite, sets: parameterSets(suite, options) }));
  const progress = startProgress('mutants', sets.reduce((sum, { sets: of }) => sum + of.length, 0) * options.mutants);
  const scores: MutationScore[] = [];
  try {
    for (const { suite, sets: ofSuite } of sets)
      for (const set of ofSuite) {
        const score = await scoreParameterSet(suite, set, options, () => progress.tick());
        scores.push(score);
        // A long scoring run shows each block as it finishes, not only the final table.
        process.stderr.write(
          `${score.top}: ${score.counts.killed}/${score.mutants} killed, score ${percent(score.score)}\n`,
        );
      }
  } finally {
    progress.stop();
  }
  process.stdout.write(
    `${mutationTable(scores)}\n(b: no difference within the bounded sequential check; invalid: did not compile)\n`,
  );
  for (const score of scores)
    for (const survivor of score.results.filter((result) => result.status === 'survived'))
      process.stdout.write(
        `survivor ${score.top} #${survivor.id}: ${survivor.command}${survivor.detail ? `\n  ${survivor.detail}` : ''}\n`,
      );
  const report = join(options.out, `mutation-${options.seed}-${scores.map((score) => score.top).join('-')}.json`);
  writeFileAtomic(report, `${JSON.stringify(scores, null, 2)}\n`);
  process.stdout.write(`report: ${report}\n`);
  checkMutationScores(scores);
  return scores;
}
