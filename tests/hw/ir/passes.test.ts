import { describe, expect, it } from 'vitest';
import {
  CombinationalLoopError,
  MultipleDriverError,
  UndrivenSignalError,
  WidthMismatchError,
  type ModuleDefinition,
  type Params,
  type PortTree,
} from '../../../hw/core/index.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { topModule, type IrDesign, type IrModule } from '../../../hw/ir/ir.ts';
import { printDesign, printModule } from '../../../hw/ir/print.ts';
import {
  CHECKS,
  PASSES,
  PassPipeline,
  checkDesign,
  insertPass,
  runPasses,
  type Pass,
  type PassContext,
} from '../../../hw/ir/passes/index.ts';
import { checkWidths } from '../../../hw/ir/passes/checkWidths.ts';
import { checkDrivers } from '../../../hw/ir/passes/checkDrivers.ts';
import { checkCombinationalLoops } from '../../../hw/ir/passes/checkCombinationalLoops.ts';
import { foldConstants } from '../../../hw/ir/passes/foldConstants.ts';
import { removeDeadCode } from '../../../hw/ir/passes/removeDeadCode.ts';
import { assignNames } from '../../../hw/ir/passes/assignNames.ts';
import { registry } from '../../support/registry.ts';
import * as designs from './designs.ts';

/**
 * One group per pass of hw/ir/passes/: each transform shown on a lowered module as the whole
 * printed IR before and after, the checks shown accepting and refusing hand-edited IR, and the
 * IR checks re-run on every transformed result.
 */

/** The top module as lowered, before any pass. */
function lowered<P extends Params, T extends PortTree>(definition: ModuleDefinition<P, T>): IrModule {
  return topModule(elaborate(definition, {}, { passes: [] }));
}

/** A context for single-module designs: no children. */
const NO_CHILDREN: PassContext = new PassPipeline([]);

/** The checks, run on one module that has no instances. */
function checkAlone(module: IrModule): void {
  checkDesign({ top: module.name, modules: [module] });
}

describe('checkWidths', () => {
  it('accepts every lowered rule design', () => {
    for (const definition of Object.values(designs))
      if (!['WireLoop', 'InstanceLoop'].includes(definition.name))
        for (const module of elaborate(definition as ModuleDefinition, {}, { passes: [] }).modules) checkWidths(module);
  });

  it('refuses a cell whose output width breaks its operator rule', () => {
    const module = lowered(designs.Constants);
    const narrowed = { ...module, nets: module.nets.map((net) => (net.id === 5 ? { ...net, width: 3 } : net)) };
    expect(() => checkWidths(narrowed)).toThrow(WidthMismatchError);
    expect(() => checkWidths(narrowed)).toThrow(/'and' with 4, 4-bit operands cannot drive the 3-bit '_n5'$/);
  });

  it('refuses a constant that does not fit its net', () => {
    const module = lowered(designs.Constants);
    const wide = {
      ...module,
      cells: module.cells.map((cell) => (cell.op === 'const' ? { ...cell, constant: 0x1cn } : cell)),
    };
    expect(() => checkWidths(wide)).toThrow(/'const' with -bit operands cannot drive the 4-bit '_n3'$/);
  });

  it('refuses a register fed a value of another width', () => {
    const module = lowered(designs.Registers);
    const en = module.nets.find((net) => net.name === 'en')!.id;
    const miswired = {
      ...module,
      registers: module.registers.map((register, index) => (index === 0 ? { ...register, d: en } : register)),
    };
    expect(() => checkWidths(miswired)).toThrow(/register 'plain' is fed a value of another width$/);
  });
});

describe('checkDrivers', () => {
  it('refuses a net nothing drives', () => {
    const module = lowered(designs.Constants);
    const undriven = { ...module, cells: module.cells.filter((cell) => module.nets[cell.output]!.name !== 'five') };
    expect(() => checkDrivers(undriven)).toThrow(UndrivenSignalError);
    expect(() => checkDrivers(undriven)).toThrow(/'five' in Constants has no driver$/);
  });

  it('refuses a net with two drivers', () => {
    const module = lowered(designs.Constants);
    const doubled = { ...module, cells: [...module.cells, module.cells[module.cells.length - 1]!] };
    expect(() => checkDrivers(doubled)).toThrow(MultipleDriverError);
    expect(() => checkDrivers(doubled)).toThrow(/'masked' in Constants has 2 drivers$/);
  });
});

describe('checkCombinationalLoops', () => {
  it('reports a loop through wires with every named signal on it', () => {
    expect(() => elaborate(designs.WireLoop)).toThrow(CombinationalLoopError);
    expect(() => elaborate(designs.WireLoop)).toThrow(
      /combinational loop in WireLoop: v \(tests\/hw\/ir\/designs\.ts:\d+\) -> w \(tests\/hw\/ir\/designs\.ts:\d+\) -> v \(/,
    );
  });

  it("reports a loop through a child's combinational path", () => {
    expect(() => elaborate(designs.InstanceLoop)).toThrow(
      /combinational loop in InstanceLoop: half_s \(.*\) -> half_a \(.*\) -> half_s \(/,
    );
  });

  it('accepts feedback through a register of a child', () => {
    expect(printDesign(elaborate(designs.RegisteredFeedback))).toBe(`design RegisteredFeedback

module Delay definition=Delay clocked
  parameters width=4
  port input clk: 1 = clk
  port input reset: 1 = reset
  port input d: 4 = d
  port output q: 4 = q
  net 0 input clk: 1
  net 1 input reset: 1
  net 2 input d: 4
  net 4 reg r: 4
  cell 3 output q: 4 = buf r
  register r: 4 <= d reset=0x0

module RegisteredFeedback definition=RegisteredFeedback clocked
  port input clk: 1 = clk
  port input reset: 1 = reset
  port output o: 4 = o
  net 0 input clk: 1
  net 1 input reset: 1
  net 4 wire delay_q: 4
  cell 5 _n0: 4 = const 0x1
  cell 6 _n1: 4 = add delay_q, _n0
  cell 2 output o: 4 = buf delay_q
  cell 3 wire delay_d: 4 = buf _n1
  instance delay: Delay
    input clk <- clk
    input d <- delay_d
    input reset <- reset
    output q -> delay_q
`);
  });

  it('asks the context, not a hidden table, about children', () => {
    const parent = topModule(elaborate(designs.InstanceLoop, {}, { passes: [] }));
    expect(() => checkCombinationalLoops(parent, NO_CHILDREN)).toThrow(
      /internal: module Half has not been through the passes yet/,
    );
    // A context that says the child has no combinational path makes the same module loop-free.
    const noPaths: PassContext = { child: NO_CHILDREN.child, combinationalPaths: () => new Map() };
    expect(() => checkCombinationalLoops(parent, noPaths)).not.toThrow();
  });
});

describe('foldConstants', () => {
  it('folds constant subexpressions and constant-select muxes; named nets keep their cells', () => {
    const before = lowered(designs.Foldable);
    const text = printModule(before);
    expect(text).toBe(`module Foldable definition=Foldable
  port input a: 4 = a
  port input b: 4 = b
  port output o: 4 = o
  port output p: 4 = p
  net 0 input a: 4
  net 1 input b: 4
  cell 5 _n5: 4 = const 0x2
  cell 6 _n6: 4 = const 0x1
  cell 7 _n7: 4 = add _n6, _n5
  cell 8 _n8: 4 = add a, _n7
  cell 9 _n9: 4 = const 0x3
  cell 10 _n10: 4 = const 0x6
  cell 11 _n11: 4 = xor _n10, _n9
  cell 12 _n12: 4 = and a, _n11
  cell 13 _n13: 1 = const 0x1
  cell 14 _n14: 4 = mux _n13, b, _n12
  cell 15 _n15: 4 = const 0x2
  cell 16 _n16: 4 = const 0x2
  cell 17 _n17: 4 = add _n16, _n15
  cell 2 output o: 4 = buf _n8
  cell 3 output p: 4 = buf _n14
  cell 4 wire kept: 4 = buf _n17
`);
    const after = foldConstants(before);
    expect(printModule(after)).toBe(`module Foldable definition=Foldable
  port input a: 4 = a
  port input b: 4 = b
  port output o: 4 = o
  port output p: 4 = p
  net 0 input a: 4
  net 1 input b: 4
  cell 5 _n5: 4 = const 0x2
  cell 6 _n6: 4 = const 0x1
  cell 7 _n7: 4 = const 0x3
  cell 8 _n8: 4 = add a, _n7
  cell 9 _n9: 4 = const 0x3
  cell 10 _n10: 4 = const 0x6
  cell 11 _n11: 4 = const 0x5
  cell 12 _n12: 4 = and a, _n11
  cell 13 _n13: 1 = const 0x1
  cell 14 _n14: 4 = buf b
  cell 15 _n15: 4 = const 0x2
  cell 16 _n16: 4 = const 0x2
  cell 17 _n17: 4 = const 0x4
  cell 2 output o: 4 = buf _n8
  cell 3 output p: 4 = buf _n14
  cell 4 wire kept: 4 = buf _n17
`);
    expect(printModule(before), 'the input module is not changed').toBe(text);
    checkAlone(after);
  });

  it('returns the module itself when nothing folds', () => {
    const module = lowered(designs.Shared);
    expect(foldConstants(module)).toBe(module);
  });
});

describe('removeDeadCode', () => {
  it('removes unread nodes (the negated when condition), keeps named wires, renumbers nets densely', () => {
    const before = lowered(designs.Dead);
    const text = printModule(before);
    expect(text).toBe(`module Dead definition=Dead
  port input a: 1 = a
  port input x: 4 = x
  port input y: 4 = y
  port output o: 4 = o
  net 0 input a: 1
  net 1 input x: 4
  net 2 input y: 4
  cell 5 _n5: 4 = const 0x1
  cell 6 _n6: 4 = sub x, _n5
  cell 7 _n7: 1 = not a
  cell 8 _n8: 4 = mux a, x, y
  cell 3 output o: 4 = buf _n8
  cell 4 wire debug: 4 = buf _n6
`);
    const after = removeDeadCode(before);
    expect(printModule(after)).toBe(`module Dead definition=Dead
  port input a: 1 = a
  port input x: 4 = x
  port input y: 4 = y
  port output o: 4 = o
  net 0 input a: 1
  net 1 input x: 4
  net 2 input y: 4
  cell 5 _n5: 4 = const 0x1
  cell 6 _n6: 4 = sub x, _n5
  cell 7 _n8: 4 = mux a, x, y
  cell 3 output o: 4 = buf _n8
  cell 4 wire debug: 4 = buf _n6
`);
    expect(printModule(before), 'the input module is not changed').toBe(text);
    checkAlone(after);
  });

  it('removes the constants folding left unread', () => {
    const after = removeDeadCode(foldConstants(lowered(designs.Foldable)));
    expect(printModule(after)).toBe(`module Foldable definition=Foldable
  port input a: 4 = a
  port input b: 4 = b
  port output o: 4 = o
  port output p: 4 = p
  net 0 input a: 4
  net 1 input b: 4
  cell 5 _n7: 4 = const 0x3
  cell 6 _n8: 4 = add a, _n7
  cell 7 _n14: 4 = buf b
  cell 8 _n17: 4 = const 0x4
  cell 2 output o: 4 = buf _n8
  cell 3 output p: 4 = buf _n14
  cell 4 wire kept: 4 = buf _n17
`);
    checkAlone(after);
  });

  it('returns the module itself when nothing is dead', () => {
    const module = lowered(designs.Shared);
    expect(removeDeadCode(module)).toBe(module);
  });
});

describe('assignNames', () => {
  it('names nodes _n<k> in net order, skipping names users took', () => {
    const before = lowered(designs.NameClash);
    const text = printModule(before);
    expect(text, 'before naming, node 5 and the wire _n5 are told apart by id')
      .toBe(`module NameClash definition=NameClash
  port input a: 4 = a
  port output o: 4 = o
  net 0 input a: 4
  cell 4 _n4: 4 = const 0x1
  cell 5 _n5#5: 4 = add a, _n4
  cell 6 _n6: 4 = xor _n0, a
  cell 7 _n7: 4 = const 0x2
  cell 8 _n8: 4 = not _n5#3
  cell 9 _n9: 4 = add _n8, _n7
  cell 1 output o: 4 = buf _n9
  cell 2 wire _n0: 4 = buf _n5#5
  cell 3 wire _n5#3: 4 = buf _n6
`);
    const after = assignNames(before);
    expect(printModule(after)).toBe(`module NameClash definition=NameClash
  port input a: 4 = a
  port output o: 4 = o
  net 0 input a: 4
  cell 4 _n1: 4 = const 0x1
  cell 5 _n2: 4 = add a, _n1
  cell 6 _n3: 4 = xor _n0, a
  cell 7 _n4: 4 = const 0x2
  cell 8 _n6: 4 = not _n5
  cell 9 _n7: 4 = add _n6, _n4
  cell 1 output o: 4 = buf _n7
  cell 2 wire _n0: 4 = buf _n2
  cell 3 wire _n5: 4 = buf _n3
`);
    expect(printModule(before), 'the input module is not changed').toBe(text);
    checkAlone(after);
  });
});

describe('the pass list', () => {
  it('is checks first, then the transforms, naming last', () => {
    expect(PASSES.map((pass) => `${pass.kind} ${pass.name}`)).toEqual([
      'check checkWidths',
      'check checkDrivers',
      'check checkCombinationalLoops',
      'transform foldConstants',
      'transform removeDeadCode',
      'transform assignNames',
    ]);
    expect(CHECKS.map((pass) => pass.name)).toEqual(['checkWidths', 'checkDrivers', 'checkCombinationalLoops']);
  });

  it('takes a user pass before or after a named one, without changing the list it was given', () => {
    const mine: Pass = { kind: 'check', name: 'mine', run: () => {} };
    expect(insertPass(PASSES, mine, { before: 'foldConstants' }).map((pass) => pass.name)).toEqual([
      'checkWidths',
      'checkDrivers',
      'checkCombinationalLoops',
      'mine',
      'foldConstants',
      'removeDeadCode',
      'assignNames',
    ]);
    expect(
      insertPass(PASSES, mine, { after: 'assignNames' })
        .map((pass) => pass.name)
        .at(-1),
    ).toBe('mine');
    expect(PASSES).toHaveLength(6);
    expect(() => insertPass(PASSES, mine, { after: 'nope' })).toThrow(/no pass named 'nope' to insert 'mine' next to/);
    expect(() => insertPass(PASSES, { ...mine, name: 'checkWidths' }, { after: 'assignNames' })).toThrow(
      /a pass named 'checkWidths' is already in the list/,
    );
  });

  it('runs a user transform and a user check through elaborate, children first', () => {
    // and x, x → buf x (a user peephole transform, before naming).
    const andSelf: Pass = {
      kind: 'transform',
      name: 'andSelf',
      run: (module) => ({
        ...module,
        cells: module.cells.map((cell) =>
          cell.op === 'and' && cell.inputs[0] === cell.inputs[1]
            ? { op: 'buf', output: cell.output, inputs: [cell.inputs[0]!], location: cell.location }
            : cell,
        ),
      }),
    };
    const seen: string[] = [];
    const record: Pass = { kind: 'check', name: 'record', run: (module) => void seen.push(module.name) };
    const passes = insertPass(insertPass(PASSES, andSelf, { before: 'assignNames' }), record, { after: 'assignNames' });
    expect(printModule(topModule(elaborate(designs.Shared, {}, { passes })))).toBe(
      `module Shared definition=Shared
  port input a: 4 = a
  port input b: 4 = b
  port output x: 4 = x
  port output y: 4 = y
  net 0 input a: 4
  net 1 input b: 4
  cell 4 _n0: 4 = add a, b
  cell 5 _n1: 4 = and _n0, _n0
  cell 2 output x: 4 = buf _n1
  cell 3 output y: 4 = buf _n0
`.replace('and _n0, _n0', 'buf _n0'),
    );
    elaborate(designs.Instances, {}, { passes });
    expect(seen).toEqual(['Shared', 'Half', 'Delay_width_8', 'Instances']);
  });

  it('never writes to the IR it is given (the lowered modules are frozen)', () => {
    for (const definition of [
      designs.Instances,
      designs.Foldable,
      designs.Dead,
      designs.Memories,
      designs.WhenNested,
    ]) {
      const design = elaborate(definition as ModuleDefinition, {}, { passes: [] });
      const pipeline = new PassPipeline();
      const processed: IrDesign = {
        top: design.top,
        modules: design.modules.map((module) => pipeline.run(deepFreeze(module))),
      };
      expect(printDesign(processed)).toBe(printDesign(elaborate(definition as ModuleDefinition)));
    }
  });

  it('keeps nothing between designs: the same module name in two designs is judged on its own', () => {
    const context = new PassPipeline();
    context.run(lowered(designs.Half));
    expect(() => context.child('Delay')).toThrow(/internal: module Delay has not been through the passes yet/);
    // Two elaborations of one design give the same text, and a failing one leaves nothing behind.
    expect(() => elaborate(designs.InstanceLoop)).toThrow(CombinationalLoopError);
    expect(printDesign(elaborate(designs.Instances))).toBe(printDesign(elaborate(designs.Instances)));
  });

  it('leaves IR that still passes every check, for every registered top', () => {
    for (const top of registry) checkDesign(elaborate(top.definition));
    const module = lowered(designs.Memories);
    expect(runPasses(module, NO_CHILDREN, CHECKS)).toBe(module);
  });
});

/** Freezes an IR module and everything in it (Maps are left as they are). */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !(value instanceof Map) && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
