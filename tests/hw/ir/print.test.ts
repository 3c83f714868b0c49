import { describe, expect, it } from 'vitest';
import { defineModule, input, output } from '../../../hw/core/index.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { topModule } from '../../../hw/ir/ir.ts';
import { printDesign, printModule } from '../../../hw/ir/print.ts';
import { registry } from '../../support/registry.ts';
import { Delay, Instances } from './designs.ts';

/** The printer itself: what it shows beyond the netlist, and that it is stable. */
describe('printed IR', () => {
  it('shows the description and every parameter, sorted by key, strings quoted', () => {
    const Described = defineModule({
      name: 'Described',
      description: 'adds "one"',
      defaults: { width: 2, label: 'x y', signed: false },
      ports: (p) => ({ a: input(p.width), o: output(p.width) }),
      build(_m, io) {
        io.o.set(io.a.add(1));
      },
    });
    expect(printModule(topModule(elaborate(Described, { label: 'z' }))))
      .toBe(`module Described_label_z definition=Described
  description "adds \\"one\\""
  parameters label="z" signed=false width=2
  port input a: 2 = a
  port output o: 2 = o
  net 0 input a: 2
  cell 2 _n0: 2 = const 0x1
  cell 3 _n1: 2 = add a, _n0
  cell 1 output o: 2 = buf _n1
`);
  });

  it('adds source lines on request, relative to the working directory', () => {
    const text = printModule(topModule(elaborate(Delay)), { locations: true });
    expect(text.split('\n').slice(0, 2)).toEqual([
      expect.stringMatching(/^module Delay definition=Delay clocked @ tests\/hw\/ir\/designs\.ts:\d+$/),
      '  parameters width=4',
    ]);
    expect(text).toMatch(/^ {2}register r: 4 <= d reset=0x0 @ tests\/hw\/ir\/designs\.ts:\d+$/m);
    expect(text).not.toContain(process.cwd());
  });

  it('is the same text for two elaborations of every registered top (no ids of objects, no order of maps)', () => {
    for (const top of registry.slice(0, 8))
      expect(printDesign(elaborate(top.definition))).toBe(printDesign(elaborate(top.definition)));
  });

  it('lists instance connections by port name', () => {
    const text = printDesign(elaborate(Instances));
    expect(text).toContain(`  instance delay: Delay_width_8
    input clk <- clk
    input d <- delay_d
    input reset <- reset
    output q -> delay_q
`);
  });
});
