import { CLOCK_PORT, topModule, type IrDesign } from '../../hw/ir/ir.ts';
import type { PortValues } from '../../hw/contract/engine.ts';
import { caseDesign, caseStimulus, fuzzCaseArbitrary, type FuzzCase } from '../fuzz/differential.ts';
import { runReference } from '../fuzz/referenceSimulator.ts';
import { defineSuite, type RegressSuite } from '../regress/suite.ts';

/** Elaborated once per case value: `design` and `vectors` both need it. */
const designs = new WeakMap<FuzzCase, IrDesign>();
const designOf = (fuzzCase: FuzzCase): IrDesign => {
  if (!designs.has(fuzzCase)) designs.set(fuzzCase, caseDesign(fuzzCase));
  return designs.get(fuzzCase)!;
};

/** The case's stimulus restricted to the ports its design has (a combinational one has no reset). */
function stimulusOf(fuzzCase: FuzzCase): PortValues[] {
  const inputs = new Set(
    topModule(designOf(fuzzCase))
      .ports.filter((port) => port.direction === 'input' && port.name !== CLOCK_PORT)
      .map((port) => port.name),
  );
  return caseStimulus(fuzzCase[0], fuzzCase[1]).map((cycle) =>
    Object.fromEntries(Object.entries(cycle).filter(([name]) => inputs.has(name))),
  );
}

/**
 * The cross-engine property of the framework itself (verif/fuzz): a random design (every IR
 * operator, widths 1–80, registers, instances, when chains, memories) gives on the engine what
 * the plain netlist interpreter gives. Each case is its own design, hence its own build: heavy
 * on Verilator.
 */
export const fuzzSuites: readonly RegressSuite[] = [
  defineSuite({
    name: 'Fuzz',
    groups: ['fuzz'],
    description: 'random designs: engine = the reference netlist interpreter, every output every cycle',
    arbitrary: fuzzCaseArbitrary,
    design: designOf,
    vectors: (fuzzCase) => {
      const stimulus = stimulusOf(fuzzCase);
      return { stimulus, expected: runReference(designOf(fuzzCase), stimulus) };
    },
    heavy: true,
  }),
];
