import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { printDesign } from '../../../hw/ir/print.ts';
import { checkDesign } from '../../../hw/ir/passes/index.ts';
import { caseDesign, fuzzCaseArbitrary, parseFuzzCase } from '../../../verif/fuzz/differential.ts';
import {
  buildRandomDesign,
  type FuzzBundleField,
  type FuzzDesign,
  type FuzzWhenChain,
} from '../../../verif/fuzz/randomDesign.ts';
import { emitVerilog } from '../../../hw/verilog/emit.ts';
import { Simulator } from '../../../hw/sim/simulator.ts';
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
    expect(design.bundle).toBeUndefined();
    const withEmpty: FuzzDesign = { ...design, memories: [], conditional: undefined, bundle: undefined };
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

  it('cover interfaces: nested, flipped and vec-of-bundle fields in wires, registers and child ports, joined with connect', () => {
    const fieldsOf = (fields: readonly FuzzBundleField[]): FuzzBundleField[] =>
      fields.flatMap((field) => ['width' in field ? [] : fieldsOf(field.fields), [field]].flat());
    const designs = fc.sample(fuzzCaseArbitrary, { seed, numRuns: 200 }).map(([design]) => design);
    const fields = designs.flatMap((design) =>
      [design.bundle, design.child?.bundle].flatMap((bundle) => (bundle ? fieldsOf(bundle.fields) : [])),
    );
    expect(fields.some((field) => 'width' in field && field.flipped)).toBe(true);
    expect(fields.some((field) => !('width' in field) && 'flipped' in field && field.flipped)).toBe(true);
    expect(fields.some((field) => 'count' in field && field.count > 1)).toBe(true);
    expect(new Set(designs.flatMap((design) => (design.bundle ? [design.bundle.registered] : [])))).toEqual(
      new Set([true, false]),
    );
    const withChildBundle = designs.filter((design) => design.child?.bundle);
    expect(withChildBundle.length).toBeGreaterThan(10);
    // Child ports are flattened bundle names, a vec of bundles among them somewhere: `bi_f1_0_f0`.
    const childPorts = withChildBundle.slice(0, 30).flatMap((design, index) => {
      const ir = elaborate(buildRandomDesign(design, `Bundles${index}`));
      checkDesign(ir);
      return ir.modules.filter((module) => module.name.endsWith('_c')).flatMap((module) => module.ports);
    });
    expect(childPorts.some((port) => /^bi_f\d+$/.test(port.name))).toBe(true);
    expect(childPorts.some((port) => /^bo_f\d+(_\d+)?_f\d+/.test(port.name))).toBe(true);
    expect(new Set(childPorts.filter((port) => port.name.startsWith('bi_')).map((port) => port.direction))).toEqual(
      new Set(['input', 'output']),
    );
    const verilog = [...emitVerilog(elaborate(buildRandomDesign(withChildBundle[0]!, 'BundleText'))).values()].join('');
    expect(verilog).toMatch(/\.(bi|bo)_f\d\w*\(child0_(bi|bo)_f\d/);
  });

  it('carry values through an interface chain: forward a cycle late through the registers, backward the same way', () => {
    const design: FuzzDesign = {
      inputs: [8],
      registers: [],
      nodes: [{ op: 'const', a: 0, b: 0, c: 0, width: 1, k: 0, literal: 0n }],
      // Pool: i0, the node, then the chain's ends: bs_f1 (upstream backward), bk_f0 (downstream forward).
      outputs: [
        { value: 2, width: 4 },
        { value: 3, width: 8 },
      ],
      instances: 1,
      bundle: {
        fields: [
          { width: 8, flipped: false },
          { width: 4, flipped: true },
        ],
        registered: true,
        reset: true,
        forward: 0,
        backward: 1,
      },
    };
    const sim = new Simulator(elaborate(buildRandomDesign(design, 'Chain')));
    sim.reset();
    sim.poke('i0', 0xa7);
    expect(sim.peek('o1')).toBe(0n);
    expect(sim.peek('o0')).toBe(0n);
    sim.step();
    sim.poke('i0', 0x3c);
    expect(sim.peek('o1')).toBe(0xa7n);
    expect(sim.peek('o0')).toBe(0x7n);
    sim.step();
    expect(sim.peek('o1')).toBe(0x3cn);
    expect(sim.peek('o0')).toBe(0xcn);
  });

  it('shrink a failing case with a vec of bundles in a child port to a small one that still builds', () => {
    const hasVecPort = (design: FuzzDesign): boolean =>
      design.child?.bundle?.fields.some((field) => 'count' in field) === true;
    const result = fc.check(
      fc.property(fuzzCaseArbitrary, ([design]) => !hasVecPort(design)),
      { seed, numRuns: 200 },
    );
    expect(result.failed).toBe(true);
    const [smallest] = result.counterexample![0];
    expect(hasVecPort(smallest)).toBe(true);
    expect(smallest.child!.bundle!.fields.length).toBeLessThanOrEqual(2);
    expect(smallest.bundle).toBeUndefined();
    expect(smallest.nodes).toHaveLength(1);
    checkDesign(caseDesign(result.counterexample![0]));
  });
});
