import fc from 'fast-check';
import { defineModule, output, type ModuleDefinition, type Signal } from '../../hw/core/index.ts';
import { elaborate } from '../../hw/ir/elaborate.ts';
import type { IrDesign } from '../../hw/ir/ir.ts';
import type { ClockTimings } from '../../hw/contract/clockSchedule.ts';
import type { PortValues } from '../../hw/contract/engine.ts';
import { buildRandomDesign, connectMember, fit, memberPorts } from './randomDesign.ts';
import { caseStimulus, checkedFuzzCaseArbitrary, FUZZ_CYCLES, type FuzzCase } from './differential.ts';

/**
 * Random designs under two clocks: members alternate between domains `a` (asynchronous reset)
 * and `b` (synchronous or asynchronous), each with a capture register in its domain (reset to a
 * random value) that folds in the member's first output and, through two synchronizing flops, the low bit
 * of the previous member's digest, which crosses from the other domain. The clocks get random
 * periods and phases; the resets are pulsed at random steps.
 */
export interface TwoClockCase {
  readonly members: readonly FuzzCase[];
  readonly asyncB: boolean;
  readonly captureResets: readonly bigint[];
  readonly timings: ClockTimings;
  /** Steps at which each reset is high (rst_a, rst_b), besides step 0. */
  readonly resets: readonly (readonly [boolean, boolean])[];
}

const timingArbitrary = fc
  .record({ half: fc.integer({ min: 1, max: 15 }), phase: fc.nat(40) })
  .map(({ half, phase }) => ({ period: 2 * half, phase: phase % (2 * half) }));

/** A two-clock case of `count` members. */
export function twoClockCaseArbitrary(count: number): fc.Arbitrary<TwoClockCase> {
  return fc.record({
    members: fc.array(checkedFuzzCaseArbitrary, { minLength: count, maxLength: count }),
    asyncB: fc.boolean(),
    captureResets: fc.array(fc.bigInt({ min: 0n, max: (1n << 16n) - 1n }), { minLength: count, maxLength: count }),
    timings: fc.record({ clk_a: timingArbitrary, clk_b: timingArbitrary }),
    resets: fc.array(
      fc.tuple(
        fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
        fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
      ),
      { minLength: FUZZ_CYCLES, maxLength: FUZZ_CYCLES },
    ),
  });
}

const CAPTURE_WIDTH = 16;

/** The top of a two-clock case: member k's ports prefixed `f<k>_`, plus its capture `f<k>_cap`. */
export function twoClockDesign(fuzzCase: TwoClockCase, name = 'TwoClockFuzz'): IrDesign {
  const members = fuzzCase.members.map(([design], index) => ({
    design,
    definition: buildRandomDesign(design, `${name}_f${index}`),
  }));
  const top: ModuleDefinition = defineModule({
    name,
    defaults: {},
    ports: () =>
      Object.fromEntries(
        members.flatMap(({ design }, member) => [
          ...memberPorts(design, member),
          [`f${member}_cap`, output(CAPTURE_WIDTH)] as const,
        ]),
      ),
    build(m, io) {
      const ports = io as Record<string, Signal>;
      const a = m.domain('a', { reset: 'async' });
      const b = m.domain('b', { reset: fuzzCase.asyncB ? 'async' : 'sync' });
      const digests: Signal[] = [];
      members.forEach(({ design, definition }, member) => {
        const domain = member % 2 === 0 ? a : b;
        const instance = m.withDomain(domain, () => m.instance(definition, { name: `member${member}` }));
        connectMember(design, member, instance, ports);
        digests.push(instance[`o${design.outputs.length}`]!);
        const capture = m.reg(`cap${member}`, CAPTURE_WIDTH, { reset: fuzzCase.captureResets[member]!, domain });
        let next = capture.xor(fit(instance['o0']!, CAPTURE_WIDTH));
        if (member > 0) {
          // Two flops in this domain behind a marked crossing (what hw/lib/cdc's Synchronizer does).
          const crossed = m.crossing(`cross${member}`, digests[member - 1]!.bit(0));
          const first = m.reg(`sync${member}_0`, 1, { reset: 0, domain });
          const second = m.reg(`sync${member}_1`, 1, { reset: 0, domain });
          first.set(crossed);
          second.set(first);
          next = next.xor(second.zext(CAPTURE_WIDTH));
        }
        capture.set(next);
        ports[`f${member}_cap`]!.set(capture);
      });
    },
  });
  return elaborate(top);
}

/** Its stimulus: both resets high in step 0 and at the drawn steps, each member's inputs from its noise. */
export function twoClockStimulus(fuzzCase: TwoClockCase): PortValues[] {
  const perMember = fuzzCase.members.map(([spec, noise], member) => caseStimulus(spec, noise, `f${member}_`));
  return Array.from({ length: FUZZ_CYCLES }, (_, step) => {
    const [resetA, resetB] = fuzzCase.resets[step]!;
    const inputs: PortValues = {
      rst_a: step === 0 || resetA ? 1n : 0n,
      rst_b: step === 0 || resetB ? 1n : 0n,
    };
    for (const streams of perMember) {
      const { reset: _reset, ...rest } = streams[step]!;
      void _reset;
      Object.assign(inputs, rest);
    }
    return inputs;
  });
}
