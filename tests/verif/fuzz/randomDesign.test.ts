import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { printDesign } from '../../../hw/ir/print.ts';
import { checkDesign } from '../../../hw/ir/passes/index.ts';
import { caseDesign, fuzzCaseArbitrary, parseFuzzCase } from '../../../verif/fuzz/differential.ts';
import { buildRandomDesign, type FuzzDesign, type FuzzWhenChain } from '../../../verif/fuzz/randomDesign.ts';
import { fastCheckSeed } from '../../support/seed.ts';

/** The random design generator: what it covers, that old saved cases build as before, that it shrinks. */
const seed = fastCheckSeed('random-design');

const chainsOf = (design: FuzzDesign): FuzzWhenChain[] => {
  const all: FuzzWhenChain[] = [];
  const visit = (chain: FuzzWhenChain): void => {
    all.push(chain);
    for (const body of chain.bodies) if (body.nested) visit(body.nested);
  };
  for (const chain of design.conditional?.chains ?? []) visit(chain);
  return all;
};
const depthOf = (chain: FuzzWhenChain): number =>
  1 + Math.max(0, ...chain.bodies.map((body) => (body.nested ? depthOf(body.nested) : 0)));
const hasWriteInWhen = (design: FuzzDesign): boolean =>
  (design.memories ?? []).length > 0 && chainsOf(design).some((chain) => chain.bodies.some((body) => body.write));

describe('random designs for the differential fuzz', () => {
  it('cover nested when chains with otherwise and partial assignment, and memories with both read kinds and writes under a when', () => {
    const designs = fc.sample(fuzzCaseArbitrary, { seed, numRuns: 200 }).map(([design]) => design);
    const chains = designs.flatMap(chainsOf);
    expect(chains.some((chain) => chain.conditions.length >= 2 && chain.bodies.length > chain.conditions.length)).toBe(
      true,
    );
    expect(chains.some((chain) => chain.bodies.length === chain.conditions.length)).toBe(true);
    expect(Math.max(...chains.map(depthOf))).toBe(2);
    expect(chains.some((chain) => chain.bodies.some((body) => body.assigns.length === 0))).toBe(true);
    expect(
      designs.some((design) => design.conditional?.targets.some((t) => t.register && t.initial === undefined)),
    ).toBe(true);
    expect(designs.some((design) => design.conditional?.targets.some((t) => !t.register))).toBe(true);
    const reads = designs.flatMap((design) => (design.memories ?? []).flatMap((memory) => memory.reads));
    expect(new Set(reads.map((read) => read.sync))).toEqual(new Set([true, false]));
    expect(designs.some(hasWriteInWhen)).toBe(true);
    // And they build: legal designs whose IR passes the checks, with write ports and muxes in it.
    const texts = designs.slice(0, 60).map((design, index) => {
      const ir = elaborate(buildRandomDesign(design, `Cover${index}`));
      checkDesign(ir);
      return printDesign(ir);
    });
    expect(texts.some((text) => /^ {4}write mem\d\[/m.test(text))).toBe(true);
    expect(texts.some((text) => /= memread mem\d\[/.test(text))).toBe(true);
    expect(texts.some((text) => /^ {2}register mem\d_rdata: /m.test(text))).toBe(true);
    expect(texts.some((text) => /^ {2}register t\d: \d+ <= _n\d+/m.test(text))).toBe(true);
  });

  it('build a case saved before memories and when chains exactly as before (the corpus keeps its meaning)', () => {
    const [design] = parseFuzzCase(
      readFileSync(join(import.meta.dirname, 'corpus', 'verilator-5006-signed-compare.json'), 'utf8'),
    );
    expect(design.memories).toBeUndefined();
    expect(design.conditional).toBeUndefined();
    const withEmpty: FuzzDesign = { ...design, memories: [], conditional: undefined };
    expect(printDesign(elaborate(buildRandomDesign(withEmpty, 'Old')))).toBe(
      printDesign(elaborate(buildRandomDesign(design, 'Old'))),
    );
  });

  it('shrink a failing case with when chains and memories to a small one that still builds', () => {
    const result = fc.check(
      fc.property(fuzzCaseArbitrary, ([design]) => !hasWriteInWhen(design)),
      { seed, numRuns: 200 },
    );
    expect(result.failed).toBe(true);
    const [smallest] = result.counterexample![0];
    expect(smallest.nodes).toHaveLength(1);
    expect(smallest.memories).toHaveLength(1);
    expect(smallest.conditional!.chains).toHaveLength(1);
    expect(smallest.conditional!.targets).toHaveLength(1);
    const ir = caseDesign(result.counterexample![0]);
    checkDesign(ir);
    expect(printDesign(ir)).toMatch(/^ {4}write mem0\[.*\] <= .* when _n\d+$/m);
  });
});
