import { UserError } from '../../../common/errors.ts';
import type { IrDesign } from '../../../hw/ir/ir.ts';
import type { EngineName, PortValues } from '../../../hw/contract/engine.ts';
import type { RegressSuite } from '../suite.ts';
import { mergeSuiteCoverage, sortKeys, type BinCounts, type SuiteCoverage } from './data.ts';
import { namedSignals, type StreamSample } from './sample.ts';
import {
  crossBins,
  goalName,
  inSignalBin,
  isSignalGoal,
  signalBinLabel,
  type BinGoal,
  type CrossGoal,
} from './spec.ts';
import { countStates, stateRegisterGoals, stateRegisters } from './fsmCoverage.ts';
import { countCross } from './crossCoverage.ts';

/** Accumulated toggles of one signal. */
interface Toggle {
  readonly width: number;
  rose: bigint;
  fell: bigint;
}

/** The running counts of one goal, and for the goals coverage makes itself, what they came from. */
interface Counts {
  bins: Record<string, number>;
  other: Record<string, number>;
  readonly made?: Pick<BinCounts, 'kind' | 'signal' | 'why'>;
}

/** Finds a goal's signal among a design's named signals: the DSL path below the top. */
function signalIndex(suite: string, design: IrDesign, signal: string): number {
  const paths = namedSignals(design).map((named) => named.path);
  const index = paths.indexOf(`${design.top}.${signal}`);
  if (index < 0) {
    const prefix = `${design.top}.`;
    const names = paths.map((path) => path.slice(prefix.length));
    throw new UserError(
      `suite ${suite}: coverage goal on '${signal}': no such signal in ${design.top} (it has ${names.slice(0, 6).join(', ')}${names.length > 6 ? ', …' : ''})`,
    );
  }
  return index;
}

/**
 * Gathers the coverage of one suite on one engine, case by case: toggles of every named signal
 * between consecutive cycles of a case, the design's cover hits, and the suite's declared bins.
 */
export class CoverageCollector {
  private readonly toggles = new Map<string, Toggle>();
  private readonly unobserved = new Set<string>();
  private readonly covers: Record<string, number> = {};
  private readonly counts = new Map<string, Counts>();
  private readonly caseIndices: number[] = [];
  private readonly goals: readonly BinGoal[];
  private readonly crosses: readonly CrossGoal[];
  /** What worker threads collected over their shares of the cases. */
  private readonly parts: SuiteCoverage[] = [];

  constructor(
    private readonly suite: RegressSuite,
    private readonly engine: EngineName,
  ) {
    this.goals = suite.coverage?.bins ?? [];
    for (const goal of this.goals)
      this.counts.set(goalName(goal), {
        bins: Object.fromEntries(
          (isSignalGoal(goal) ? goal.bins.map(signalBinLabel) : goal.bins).map((label) => [label, 0]),
        ),
        other: {},
      });
    this.crosses = suite.coverage?.crosses ?? [];
    for (const goal of this.crosses)
      this.counts.set(goal.name, {
        bins: Object.fromEntries(crossBins(goal).map((label) => [label, 0])),
        other: {},
        made: { kind: 'cross', ...(goal.why ? { why: goal.why } : {}) },
      });
  }

  /** Adds one to `label` of a goal: a declared bin, or `other`. */
  private hit(goal: string, label: string): void {
    const counts = this.counts.get(goal)!;
    const table = label in counts.bins ? counts.bins : counts.other;
    table[label] = (table[label] ?? 0) + 1;
  }

  /** Adds one case: its index, value, stimulus and what the engine sampled. */
  add(
    caseIndex: number,
    design: IrDesign,
    testCase: unknown,
    inputs: readonly PortValues[],
    sample: StreamSample,
  ): void {
    this.caseIndices.push(caseIndex);
    const signals = namedSignals(design);
    const hidden = new Set(sample.unobserved);
    signals.forEach((signal, index) => {
      if (hidden.has(index)) return void this.unobserved.add(signal.path);
      let toggle = this.toggles.get(signal.path);
      if (!toggle) this.toggles.set(signal.path, (toggle = { width: signal.width, rose: 0n, fell: 0n }));
      const values = sample.values[index]!;
      for (let cycle = 1; cycle < values.length; cycle++) {
        const before = values[cycle - 1];
        const now = values[cycle];
        if (before === undefined || now === undefined || before === now) continue;
        toggle.rose |= now & ~before;
        toggle.fell |= before & ~now;
      }
    });
    for (const [name, hits] of Object.entries(sample.covers ?? {})) this.covers[name] = (this.covers[name] ?? 0) + hits;
    const valuesOf = (signal: string): readonly (bigint | undefined)[] =>
      sample.values[signalIndex(this.suite.name, design, signal)]!;
    for (const register of stateRegisters(design)) {
      for (const [goal, counts] of Object.entries(stateRegisterGoals(register)))
        if (!this.counts.has(goal))
          this.counts.set(goal, {
            bins: { ...counts.bins },
            other: {},
            made: { kind: counts.kind!, signal: counts.signal! },
          });
      countStates(register, valuesOf(register.signal), inputs, (goal, label) => this.hit(goal, label));
    }
    for (const goal of this.crosses)
      countCross(
        goal,
        { valuesOf, sample: { testCase, inputs, outputs: sample.outputs }, covers: sample.covers ?? {} },
        inputs,
        (label) => this.hit(goal.name, label),
      );
    for (const goal of this.goals) {
      const hit = (label: string): void => this.hit(goalName(goal), label);
      if (isSignalGoal(goal)) {
        const values = sample.values[signalIndex(this.suite.name, design, goal.signal)]!;
        const gate =
          goal.when === undefined ? undefined : sample.values[signalIndex(this.suite.name, design, goal.when)]!;
        values.forEach((value, cycle) => {
          if (value === undefined || (gate !== undefined && gate[cycle] !== 1n)) return;
          const bin = goal.bins.find((candidate) => inSignalBin(candidate, value));
          hit(bin === undefined ? String(value) : signalBinLabel(bin));
        });
      } else {
        const labels = goal.of({ testCase, inputs, outputs: sample.outputs });
        for (const label of labels === undefined ? [] : typeof labels === 'string' ? [labels] : labels) hit(label);
      }
    }
  }

  /** Takes in the coverage a worker thread collected over other cases of the same suite and engine. */
  absorb(part: SuiteCoverage): void {
    this.parts.push(part);
  }

  /** The coverage so far (with the parts absorbed), as coverage.json holds it. */
  result(): SuiteCoverage {
    return this.parts.reduce(mergeSuiteCoverage, this.own());
  }

  private own(): SuiteCoverage {
    const hex = (value: bigint): string => `0x${value.toString(16)}`;
    const bins: Record<string, BinCounts> = {};
    for (const goal of this.goals) {
      const { bins: hits, other } = this.counts.get(goalName(goal))!;
      bins[goalName(goal)] = {
        bins: hits,
        other: sortKeys(other),
        ...(goal.why ? { why: goal.why } : {}),
        ...(isSignalGoal(goal) ? { signal: goal.signal } : {}),
      };
    }
    for (const [name, { bins: hits, other, made }] of this.counts)
      if (made) bins[name] = { bins: hits, other: sortKeys(other), ...made };
    return {
      suite: this.suite.name,
      engine: this.engine,
      caseIndices: [...this.caseIndices].sort((a, b) => a - b),
      toggles: sortKeys(
        Object.fromEntries(
          [...this.toggles].map(([path, toggle]) => [
            path,
            { width: toggle.width, rose: hex(toggle.rose), fell: hex(toggle.fell) },
          ]),
        ),
      ),
      unobserved: [...this.unobserved].filter((path) => !this.toggles.has(path)).sort(),
      covers: sortKeys(this.covers),
      bins: sortKeys(bins),
    };
  }
}
