import { ToolError } from '../common/errors.ts';

/*
 * The parts of Yosys's `write_json` netlist format this flow reads. A "bit" is a net id (a
 * number) or a constant ('0', '1', 'x', 'z').
 */

export type NetBit = number | '0' | '1' | 'x' | 'z';

export interface NetlistPort {
  readonly direction: 'input' | 'output' | 'inout';
  readonly bits: readonly NetBit[];
}

export interface NetlistCell {
  readonly type: string;
  readonly connections: Readonly<Record<string, readonly NetBit[]>>;
}

export interface NetlistModule {
  readonly attributes?: Readonly<Record<string, string>>;
  readonly ports: Readonly<Record<string, NetlistPort>>;
  readonly cells: Readonly<Record<string, NetlistCell>>;
  readonly netnames: Readonly<Record<string, { readonly bits: readonly NetBit[] }>>;
}

export interface Netlist {
  readonly modules: Readonly<Record<string, NetlistModule>>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isBitList = (value: unknown): boolean =>
  Array.isArray(value) &&
  value.every((bit) => typeof bit === 'number' || bit === '0' || bit === '1' || bit === 'x' || bit === 'z');
const DIRECTIONS: ReadonlySet<unknown> = new Set(['input', 'output', 'inout']);

/** What is wrong with one module's ports, cells and netnames (the parts the flow walks), if anything. */
function moduleProblem(module: unknown): string | undefined {
  if (!isRecord(module) || !isRecord(module['ports']) || !isRecord(module['cells']) || !isRecord(module['netnames']))
    return 'lacks ports, cells or netnames';
  for (const [name, port] of Object.entries(module['ports'])) {
    if (!isRecord(port) || !DIRECTIONS.has(port['direction']) || !isBitList(port['bits']))
      return `has a malformed port ${name}`;
  }
  for (const [name, cell] of Object.entries(module['cells'])) {
    if (!isRecord(cell) || typeof cell['type'] !== 'string' || !isRecord(cell['connections']))
      return `has a malformed cell ${name}`;
    if (!Object.values(cell['connections']).every(isBitList)) return `cell ${name} has a malformed connection`;
  }
  for (const [name, net] of Object.entries(module['netnames']))
    if (!isRecord(net) || !isBitList(net['bits'])) return `has a malformed netname ${name}`;
  return undefined;
}

/**
 * Parses Yosys JSON text; anything that is not a netlist (bad JSON, missing or malformed ports,
 * cells, netnames) is a Yosys failure, reported as a ToolError rather than a crash further on.
 */
export function parseNetlist(text: string): Netlist {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ToolError('yosys', `write_json produced invalid JSON (${(error as Error).message})`);
  }
  assertNetlist(parsed);
  return parsed;
}

/** Throws a ToolError unless `parsed` has the shape of a Yosys netlist, checked module by module. */
function assertNetlist(parsed: unknown): asserts parsed is Netlist {
  if (!isRecord(parsed) || !isRecord(parsed['modules'])) throw new ToolError('yosys', 'write_json produced no modules');
  for (const [name, module] of Object.entries(parsed['modules'])) {
    const problem = moduleProblem(module);
    if (problem) throw new ToolError('yosys', `write_json module ${name} ${problem}`);
  }
}

/** Whether `name` is a module of the netlist (own keys only: a cell type `constructor` is not one). */
function isModule(netlist: Netlist, name: string): boolean {
  return Object.hasOwn(netlist.modules, name);
}

/** The module named `name`, or a ToolError (the flow asked Yosys for it, so it must exist). */
export function moduleOf(netlist: Netlist, name: string): NetlistModule {
  const found = isModule(netlist, name) ? netlist.modules[name] : undefined;
  if (!found) throw new ToolError('yosys', `netlist has no module ${name}`);
  return found;
}

/** A scalar port of the design's top: name, direction and width in bits. */
export interface PortInfo {
  readonly name: string;
  readonly direction: 'input' | 'output' | 'inout';
  readonly width: number;
}

/** Top-level ports in declaration order (Yosys keeps it). */
export function portsOf(module: NetlistModule): PortInfo[] {
  return Object.entries(module.ports).map(([name, port]) => ({
    name,
    direction: port.direction,
    width: port.bits.length,
  }));
}

/** One instance of a user module inside the hierarchy, named by its path from the top. */
export interface ModuleInstance {
  /** Instance names from the top down; empty for the top itself. */
  readonly path: readonly string[];
  readonly module: string;
}

/**
 * Every module instance below (and including) `top` in a hierarchical netlist. A cell whose type
 * is a module of the netlist is a submodule instance; any other cell is a leaf (library) cell.
 */
export function instanceTree(netlist: Netlist, top: string): ModuleInstance[] {
  const found: ModuleInstance[] = [];
  const open = new Set<string>();
  const walk = (module: string, path: readonly string[]): void => {
    // Yosys never writes a module that contains itself; a cycle would otherwise recurse forever.
    if (open.has(module))
      throw new ToolError('yosys', `netlist module ${module} instantiates itself (via ${path.join('.')})`);
    open.add(module);
    found.push({ path, module });
    const cells = moduleOf(netlist, module).cells;
    for (const name of Object.keys(cells).sort()) {
      const type = cells[name]?.type;
      if (type !== undefined && isModule(netlist, type)) walk(type, [...path, name]);
    }
    open.delete(module);
  };
  walk(top, []);
  return found;
}

/** Yosys `flatten` names a leaf cell by its instance path and its own name, joined by dots. */
function flatCellName(path: readonly string[], cell: string): string {
  return [...path, cell].join('.');
}

/** For every leaf cell of the flattened design (by its flat name), the instance that holds it. */
export function leafCellOwners(netlist: Netlist, instances: readonly ModuleInstance[]): Map<string, ModuleInstance> {
  const owners = new Map<string, ModuleInstance>();
  for (const instance of instances) {
    for (const [name, cell] of Object.entries(moduleOf(netlist, instance.module).cells)) {
      if (!isModule(netlist, cell.type)) owners.set(flatCellName(instance.path, name), instance);
    }
  }
  return owners;
}

/**
 * The cells of `module` split into library cells and instances of other modules of the netlist
 * (in a flat netlist, the blackboxed instances of composed modules).
 */
export function splitCells(
  netlist: Netlist,
  module: NetlistModule,
): { leaves: [string, NetlistCell][]; instances: [string, NetlistCell][] } {
  const leaves: [string, NetlistCell][] = [];
  const instances: [string, NetlistCell][] = [];
  for (const entry of Object.entries(module.cells)) (isModule(netlist, entry[1].type) ? instances : leaves).push(entry);
  return { leaves, instances };
}
