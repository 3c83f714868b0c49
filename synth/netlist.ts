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

/** Parses Yosys JSON text; anything that is not a netlist is a Yosys bug, reported as such. */
export function parseNetlist(text: string): Netlist {
  const parsed = JSON.parse(text) as Partial<Netlist>;
  if (typeof parsed !== 'object' || parsed === null || typeof parsed.modules !== 'object') {
    throw new ToolError('yosys', 'write_json produced no modules');
  }
  return parsed as Netlist;
}

/** The module named `name`, or a ToolError (the flow asked Yosys for it, so it must exist). */
export function moduleOf(netlist: Netlist, name: string): NetlistModule {
  const found = netlist.modules[name];
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
  return Object.entries(module.ports).map(([name, port]) => ({ name, direction: port.direction, width: port.bits.length }));
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
  const walk = (module: string, path: readonly string[]): void => {
    found.push({ path, module });
    const cells = moduleOf(netlist, module).cells;
    for (const name of Object.keys(cells).sort()) {
      const type = cells[name]?.type;
      if (type !== undefined && netlist.modules[type]) walk(type, [...path, name]);
    }
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
      if (!netlist.modules[cell.type]) owners.set(flatCellName(instance.path, name), instance);
    }
  }
  return owners;
}
