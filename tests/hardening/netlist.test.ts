import { describe, expect, it } from 'vitest';
import { ToolError } from '../../common/errors.ts';
import { instanceTree, leafCellOwners, parseNetlist } from '../../synth/netlist.ts';

/** A netlist text with the given modules (each: cells name → type). */
function netlistText(modules: Record<string, Record<string, string>>): string {
  const module = (cells: Record<string, string>) => ({
    ports: { a: { direction: 'input', bits: [2] } },
    cells: Object.fromEntries(Object.entries(cells).map(([name, type]) => [name, { type, connections: { A: [2] } }])),
    netnames: { a: { bits: [2] } },
  });
  return JSON.stringify({
    modules: Object.fromEntries(Object.entries(modules).map(([name, cells]) => [name, module(cells)])),
  });
}

describe('Yosys netlist reader on malformed output', () => {
  it('reports bad JSON as a Yosys failure, not a SyntaxError', () => {
    expect(() => parseNetlist('{"modules": ')).toThrow(ToolError);
    expect(() => parseNetlist('{"modules": ')).toThrow(/^yosys: write_json produced invalid JSON/);
  });

  it('names the module and the part that is malformed', () => {
    const text = JSON.stringify({
      modules: { top: { ports: { a: { direction: 'input', bits: 'nope' } }, cells: {}, netnames: {} } },
    });
    expect(() => parseNetlist(text)).toThrow(/module top has a malformed port a/);
    expect(() => parseNetlist('{"modules": {"top": {}}}')).toThrow(/module top lacks ports, cells or netnames/);
  });

  it('treats a cell type named like an Object property as a leaf cell', () => {
    const netlist = parseNetlist(netlistText({ top: { c0: 'constructor', c1: '__proto__', c2: 'toString' } }));
    expect(instanceTree(netlist, 'top')).toEqual([{ path: [], module: 'top' }]);
    expect([...leafCellOwners(netlist, instanceTree(netlist, 'top')).keys()].sort()).toEqual(['c0', 'c1', 'c2']);
  });

  it('refuses a module that instantiates itself instead of recursing forever', () => {
    const netlist = parseNetlist(netlistText({ top: { u: 'a' }, a: { v: 'b' }, b: { w: 'a' } }));
    expect(() => instanceTree(netlist, 'top')).toThrow(/module a instantiates itself \(via u\.v\.w\)/);
  });

  it('still walks a real hierarchy where one module is used twice', () => {
    const netlist = parseNetlist(netlistText({ top: { u0: 'sub', u1: 'sub', g: '$_AND_' }, sub: { g: '$_NOT_' } }));
    expect(instanceTree(netlist, 'top').map((instance) => instance.path.join('.'))).toEqual(['', 'u0', 'u1']);
    expect([...leafCellOwners(netlist, instanceTree(netlist, 'top')).keys()].sort()).toEqual(['g', 'u0.g', 'u1.g']);
  });
});
