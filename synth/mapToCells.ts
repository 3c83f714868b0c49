import { ToolError, UserError } from '../common/errors.ts';
import type { CellLibrary } from './library/cellTypes.ts';
import { libertyText } from './library/liberty.ts';
import { nangate45 } from './library/nangate45.ts';
import { parseNetlist, type Netlist } from './netlist.ts';
import { runYosysScript, type YosysEngine } from './yosys.ts';

/** The result of technology mapping: the same design as a hierarchical and a flat cell netlist. */
export interface MappedDesign {
  readonly top: string;
  /** Name of the top module in the flat netlist: renamed so it can sit beside the RTL in one simulation. */
  readonly gateTop: string;
  /** Mapped netlist with the user's hierarchy kept: per-block area and the instance tree. */
  readonly hierarchical: Netlist;
  readonly hierarchicalVerilog: string;
  /** The same cells flattened (names `inst.sub.cell`): simulation, toggles, timing. */
  readonly flat: Netlist;
  readonly flatVerilog: string;
  /** Liberty text the mapping used. */
  readonly liberty: string;
  readonly library: CellLibrary;
  readonly log: string;
  /** Yosys `stat -liberty`: chip area of the whole design, µm² (a cross-check of our own sum). */
  readonly yosysChipArea: number;
  readonly engine: YosysEngine;
}

export interface MapOptions {
  readonly engine?: YosysEngine;
  readonly library?: CellLibrary;
  /** Limit for the system Yosys (default 120 s). */
  readonly timeoutMs?: number;
}

const plainIdentifier = /^[A-Za-z_][A-Za-z0-9_$]*$/;

/** Yosys only sees flat file names; keep the user's base name so its messages stay readable. */
function sandboxName(path: string, index: number): string {
  const base = path.split(/[\\/]/).pop() ?? 'design.v';
  return `rtl${index}_${base.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
}

/*
 * Hierarchy is kept through mapping (no `synth -flatten`) so area and cells can be reported per
 * block; `rename -enumerate` then gives every auto-named wire and cell one short stable name, so
 * the hierarchical netlist, the flattened one (`inst.cell`), the simulation scopes and the VCD
 * all agree on names. The flat copy is derived from the mapped hierarchy, so both hold exactly
 * the same cells.
 */
function flowScript(rtlFiles: readonly string[], top: string, gateTop: string): string {
  return [
    `read_verilog -sv ${rtlFiles.join(' ')}`,
    `hierarchy -check -top ${top}`,
    `synth -top ${top}`,
    `dfflibmap -liberty cells.lib`,
    `abc -liberty cells.lib`,
    `opt_clean`,
    `rename -enumerate`,
    `stat -liberty cells.lib`,
    `write_json mapped.json`,
    `write_verilog -noattr mapped.v`,
    `flatten`,
    // Yosys ≥ 0.38 leaves $scopeinfo marker cells behind; they are not hardware.
    `delete t:$scopeinfo`,
    `hierarchy -top ${top}`,
    `rename ${top} ${gateTop}`,
    `write_json flat.json`,
    `write_verilog -noattr flat.v`,
    ``,
  ].join('\n');
}

/** `Chip area for top module '\top': 122.094000` — the last such line is the whole design. */
function chipAreaFromLog(log: string): number {
  const matches = [...log.matchAll(/Chip area for (?:top )?module '[^']*': ([0-9.]+)/g)];
  const last = matches.at(-1)?.[1];
  return last === undefined ? Number.NaN : Number(last);
}

/**
 * Synthesizes Verilog to the project's 45 nm cell library: read, elaborate, generic synthesis,
 * flip-flop mapping (dfflibmap), combinational mapping (ABC), with hierarchy kept.
 */
export async function mapToCells(verilogFiles: Readonly<Record<string, string>>, top: string, options: MapOptions = {}): Promise<MappedDesign> {
  if (!plainIdentifier.test(top)) throw new UserError(`top module name "${top}" is not a plain Verilog identifier`);
  const paths = Object.keys(verilogFiles);
  if (paths.length === 0) throw new UserError('no Verilog files given');
  const library = options.library ?? nangate45;
  const engine = options.engine ?? 'yowasp';
  const liberty = libertyText(library);
  const inputs: Record<string, string> = { 'cells.lib': liberty };
  const names = paths.map((path, index) => {
    const name = sandboxName(path, index);
    inputs[name] = verilogFiles[path] ?? '';
    return name;
  });
  const gateTop = `${top}__gate`;
  const { files, log } = await runYosysScript(flowScript(names, top, gateTop), inputs, ['mapped.json', 'mapped.v', 'flat.json', 'flat.v'], engine, options.timeoutMs).catch(
    (error: unknown) => {
      // Show the user's own file names, not the sandbox copies.
      if (!(error instanceof ToolError)) throw error;
      const message = names.reduce((text, name, index) => text.replaceAll(name, paths[index] ?? name), error.message.replace(/^yosys: /, ''));
      throw new ToolError('yosys', message);
    },
  );
  return {
    top,
    gateTop,
    hierarchical: parseNetlist(files['mapped.json'] ?? ''),
    hierarchicalVerilog: files['mapped.v'] ?? '',
    flat: parseNetlist(files['flat.json'] ?? ''),
    flatVerilog: files['flat.v'] ?? '',
    liberty,
    library,
    log,
    yosysChipArea: chipAreaFromLog(log),
    engine,
  };
}
