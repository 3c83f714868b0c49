import { ToolError, UserError } from '../common/errors.ts';
import type { CellLibrary } from './library/cellTypes.ts';
import { libertyText } from './library/liberty.ts';
import { nangate45 } from './library/nangate45.ts';
import { parseNetlist, type Netlist } from './netlist.ts';
import { runYosysScript, type YosysEngine } from '../tools/yosys.ts';
import {
  DEFAULT_SRAM_THRESHOLD_BITS,
  SRAM_HOLD_TYPE,
  SRAM_MACRO_TYPE,
  macroMemories,
  type MemoryDeclaration,
} from './sramMemories.ts';

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
  /**
   * With `MapOptions.compose`: each composed module's own flat netlist, cut from the same mapped
   * cells (its top named `<module>__gate`), for measuring one instance of it on its own. In `flat`
   * those modules' instances then stay cells (blackboxes), the rest is flattened around them.
   */
  readonly composed?: Readonly<Record<string, MappedDesign>>;
}

export interface MapOptions {
  readonly engine?: YosysEngine;
  readonly library?: CellLibrary;
  /** Limit for the system Yosys (default 120 s). */
  readonly timeoutMs?: number;
  /**
   * Modules to keep out of the flat netlist: each is flattened on its own (`composed`), and the
   * top is flattened around their instances, which stay blackbox cells. Simulating 32 gate-level FP
   * lanes costs hours; one lane and the logic around the lanes cost minutes.
   */
  readonly compose?: readonly string[];
  /**
   * Memories of at least this many bits stay memories (SRAM macros, costed from the table in
   * sramMacro.ts) instead of flip-flops; default 1024. `Infinity`: every memory in flip-flops.
   */
  readonly sramThresholdBits?: number;
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
function flowScript(
  rtlFiles: readonly string[],
  top: string,
  compose: readonly string[],
  macros: readonly MemoryDeclaration[],
): string {
  // Flatten below `module` (composed modules already blackboxed) and write it as `<module>__gate`.
  const flatCopy = (module: string, prefix: string): string[] => [
    `hierarchy -top ${module}`,
    `flatten`,
    // Yosys ≥ 0.38 leaves $scopeinfo marker cells behind; they are not hardware.
    `delete t:$scopeinfo`,
    `rename ${module} ${gateName(module)}`,
    `write_json ${prefix}flat.json`,
    `write_verilog -noattr ${prefix}flat.v`,
  ];
  return [
    `read_verilog -sv ${rtlFiles.join(' ')}`,
    `hierarchy -check -top ${top}`,
    // SRAM macros: after the coarse steps made each memory one cell, a placeholder type keeps
    // memory_map from exploding it into flip-flops; it is a memory cell again once mapping is done.
    ...(macros.length === 0
      ? [`synth -top ${top}`]
      : [
          `synth -top ${top} -run begin:fine`,
          ...macros.map(
            (memory) => `chtype -set ${SRAM_HOLD_TYPE} ${memory.module}/${memory.memory} t:${SRAM_MACRO_TYPE} %i`,
          ),
          `synth -top ${top} -run fine:`,
        ]),
    `dfflibmap -liberty cells.lib`,
    `abc -liberty cells.lib`,
    `opt_clean`,
    ...(macros.length === 0 ? [] : [`chtype -map ${SRAM_HOLD_TYPE} ${SRAM_MACRO_TYPE}`]),
    `rename -enumerate`,
    `stat -liberty cells.lib -top ${top}`,
    `write_json mapped.json`,
    `write_verilog -noattr mapped.v`,
    ...(compose.length > 0
      ? [
          `design -save mapped`,
          ...compose.flatMap((module) => [
            `hierarchy -top ${module}`,
            `stat -liberty cells.lib -top ${module}`,
            ...flatCopy(module, composedPrefix(module)),
            `design -load mapped`,
          ]),
          `blackbox ${compose.join(' ')}`,
        ]
      : []),
    ...flatCopy(top, ''),
    ``,
  ].join('\n');
}

const gateName = (module: string): string => `${module}__gate`;
const composedPrefix = (module: string): string => `${module}.`;

/**
 * `Chip area for top module '\top': 122.094000`, what `stat -top` says of the design below `top`;
 * a design of one module gets only its module line, so the last line naming `top` is the total.
 */
function chipAreaFromLog(log: string, top: string): number {
  const last = [...log.matchAll(new RegExp(`Chip area for (?:top )?module '\\\\${top}': ([0-9.]+)`, 'g'))].at(-1)?.[1];
  return last === undefined ? Number.NaN : Number(last);
}

/**
 * Synthesizes Verilog to the project's 45 nm cell library: read, elaborate, generic synthesis,
 * flip-flop mapping (dfflibmap), combinational mapping (ABC), with hierarchy kept.
 */
export async function mapToCells(
  verilogFiles: Readonly<Record<string, string>>,
  top: string,
  options: MapOptions = {},
): Promise<MappedDesign> {
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
  const compose = [...new Set(options.compose ?? [])];
  for (const module of [top, ...compose])
    if (!plainIdentifier.test(module)) throw new UserError(`module name "${module}" is not a plain Verilog identifier`);
  if (compose.includes(top)) throw new UserError(`the top ${top} cannot be composed of itself; name its submodules`);
  const composedFiles = compose.flatMap((module) => [
    `${composedPrefix(module)}flat.json`,
    `${composedPrefix(module)}flat.v`,
  ]);
  const { files, log } = await runYosysScript(
    flowScript(
      names,
      top,
      compose,
      macroMemories(verilogFiles, options.sramThresholdBits ?? DEFAULT_SRAM_THRESHOLD_BITS),
    ),
    inputs,
    ['mapped.json', 'mapped.v', 'flat.json', 'flat.v', ...composedFiles],
    engine,
    options.timeoutMs,
  ).catch((error: unknown) => {
    // Show the user's own file names, not the sandbox copies.
    if (!(error instanceof ToolError)) throw error;
    const message = names.reduce(
      (text, name, index) => text.replaceAll(name, paths[index] ?? name),
      error.message.replace(/^yosys: /, ''),
    );
    throw new ToolError('yosys', message);
  });
  const hierarchical = parseNetlist(files['mapped.json'] ?? '');
  const design = (module: string, prefix: string): MappedDesign => ({
    top: module,
    gateTop: gateName(module),
    hierarchical,
    hierarchicalVerilog: files['mapped.v'] ?? '',
    flat: parseNetlist(files[`${prefix}flat.json`] ?? ''),
    flatVerilog: files[`${prefix}flat.v`] ?? '',
    liberty,
    library,
    log,
    yosysChipArea: chipAreaFromLog(log, module),
    engine,
  });
  const composed = Object.fromEntries(compose.map((module) => [module, design(module, composedPrefix(module))]));
  return { ...design(top, ''), ...(compose.length > 0 ? { composed } : {}) };
}
