/*
 * Which memories synthesis keeps as SRAM macros, and how the netlists name them (the figures are
 * in sramMacro.ts). No imports: the cell loops (area.ts) and the Yosys flow (mapToCells.ts) use it.
 */

/** Memories of at least this many bits become SRAM macros by default (1 Kib). */
export const DEFAULT_SRAM_THRESHOLD_BITS = 1024;

/** The Yosys cell type a macro keeps through mapping (the netlists hold it; area and power read it from the table). */
export const SRAM_MACRO_TYPE = '$mem_v2';

/** A placeholder type while Yosys maps the rest (memory_map leaves it alone); renamed back after mapping. */
export const SRAM_HOLD_TYPE = '$__gen_sram';

/** Whether a netlist cell is an SRAM macro (no library cell: the table costs it). */
export function isSramMacro(type: string): boolean {
  return type === SRAM_MACRO_TYPE;
}

/** A memory array declared in Verilog (`reg [W-1:0] name [0:D-1];`), by module. */
export interface MemoryDeclaration {
  readonly module: string;
  readonly memory: string;
  readonly words: number;
  readonly width: number;
}

const MODULE_LINE = /^\s*module\s+([A-Za-z_][A-Za-z0-9_$]*)/;
const MEMORY_LINE = /^\s*reg\s+(?:\[(\d+):(\d+)\]\s*)?([A-Za-z_][A-Za-z0-9_$]*)\s*\[(\d+):(\d+)\]\s*;/;

/**
 * The memory arrays of Verilog text in the form the Verilog backend writes them (and any file
 * declaring `reg [hi:lo] name [a:b];` alike), each with its module.
 */
export function memoryDeclarations(verilogFiles: Readonly<Record<string, string>>): MemoryDeclaration[] {
  const found: MemoryDeclaration[] = [];
  for (const text of Object.values(verilogFiles)) {
    let module: string | undefined;
    for (const line of text.split('\n')) {
      const opened = MODULE_LINE.exec(line);
      if (opened) module = opened[1];
      const memory = MEMORY_LINE.exec(line);
      if (!memory || module === undefined) continue;
      const width = memory[1] === undefined ? 1 : Math.abs(Number(memory[1]) - Number(memory[2])) + 1;
      const words = Math.abs(Number(memory[5]) - Number(memory[4])) + 1;
      found.push({ module, memory: memory[3]!, words, width });
    }
  }
  return found;
}

/** The declared memories of at least `thresholdBits` bits: the ones synthesis keeps as macros. */
export function macroMemories(
  verilogFiles: Readonly<Record<string, string>>,
  thresholdBits: number,
): MemoryDeclaration[] {
  return memoryDeclarations(verilogFiles).filter((memory) => memory.words * memory.width >= thresholdBits);
}
