import type fc from 'fast-check';
import type { IrDesign } from '../../hw/ir/ir.ts';
import type { InputName, OutputName, PortTypes, PortValuesOf } from '../../hw/core/ports.ts';
import type { CoverageSpec } from './coverage/spec.ts';

/**
 * What one case of a suite asks of an engine: per-cycle inputs, and per cycle the outputs the
 * golden model predicts. A port absent from `expected[t]` is not checked in cycle t (pipeline
 * fill, don't-care cycles).
 */
export interface CaseVectors<P extends PortTypes = PortTypes> {
  readonly stimulus: readonly PortValuesOf<InputName<P>>[];
  readonly expected: readonly PortValuesOf<OutputName<P>>[];
}

/**
 * One randomized equivalence property, as data: "the RTL of `design` on engine E, driven by
 * `vectors(c).stimulus`, produces `vectors(c).expected`" for every case `c` drawn from `arbitrary`.
 * Cases must be plain data so fast-check can shrink them and they can be saved as JSON.
 */
export interface RegressSuite<Case = unknown, P extends PortTypes = PortTypes> {
  /** Unique name, used on the command line and in folder names. */
  readonly name: string;
  /** The `--suite` groups it belongs to besides its own name (e.g. 'fp', 'decoder'). */
  readonly groups: readonly string[];
  readonly description: string;
  readonly arbitrary: fc.Arbitrary<Case>;
  /**
   * The design the case runs on. Suites over one block return the same (memoized) object for
   * every case, so external engines build once and run every case of a batch in one process.
   */
  design(testCase: Case): IrDesign<P>;
  /** The case's stimulus and expected outputs, by the design's port names (tsc checks them). */
  vectors(testCase: Case): CaseVectors<P>;
  /** How many cases one external-engine process runs (default 200). */
  readonly batchSize?: number;
  /**
   * A case costs seconds in process and an external build minutes (the 32-lane MmaUnit bench):
   * smoke runs (tests, `gen report`) should give it one case, or only the in-process engine.
   */
  readonly heavy?: boolean;
  /**
   * A design that uses this block unchanged, with the inputs it really gets (e.g. the adder chain
   * inside a thread slice, fed by the lane detector). Mutation scoring proves a survivor equal
   * inside it when the block-level miter finds a difference only on inputs no caller gives.
   */
  readonly mutationContext?: () => IrDesign;
  /** Coverage goals: value bins of signals or of the case (verif/regress/coverage/spec.ts, docs/regressions.md). */
  readonly coverage?: CoverageSpec<Case>;
}

/** What defineSuite is given: a suite whose groups (default none) and description (default its name) may be left out. */
export type SuiteSpec<Case, P extends PortTypes = PortTypes> = Omit<RegressSuite<Case, P>, 'groups' | 'description'> &
  Partial<Pick<RegressSuite<Case, P>, 'groups' | 'description'>>;

/** Erases a suite's case type so suites of different cases sit in one table; fills the defaults. */
export function defineSuite<Case, P extends PortTypes = PortTypes>(suite: SuiteSpec<Case, P>): RegressSuite {
  // RegressSuite's functions are methods, whose parameters TypeScript checks bivariantly: a suite
  // of any case type is a RegressSuite. Its vectors name ports the design has (optional keys in
  // the types, absent keys at run time), which the erased table reads as any port's values.
  const filled: RegressSuite<Case, P> = {
    ...suite,
    groups: suite.groups ?? [],
    description: suite.description ?? suite.name,
  };
  return filled as RegressSuite;
}

/** A function computed once, on first use (elaboration is not free and most runs use few suites). */
export function once<T>(make: () => T): () => T {
  let value: { readonly it: T } | undefined;
  return () => (value ??= { it: make() }).it;
}
