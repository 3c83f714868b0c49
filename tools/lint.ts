import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { runYosys } from '@yowasp/yosys';
import { ToolError } from '../common/errors.ts';
import { runTool, tail } from './runTool.ts';

/** Verilog files by name (`Module.v` → text), as the emitter returns them. */
export type VerilogFiles = ReadonlyMap<string, string>;

/** Runs `use` with the files written to a fresh temporary folder, removed afterwards. */
async function withFiles<T>(files: VerilogFiles, use: (dir: string, names: string[]) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'lint-'));
  try {
    const names = [...files.keys()].sort();
    for (const name of names) writeFileSync(join(dir, name), files.get(name)!);
    return await use(dir, names);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `verilator --lint-only -Wall`: the warnings, one per entry (empty when clean). Errors (a file
 * Verilator cannot parse) throw a ToolError instead, since there is nothing to lint. Without a
 * `top`, files of several designs are linted together (each module is its own top).
 */
export function lintWithVerilator(files: VerilogFiles, top?: string): Promise<string[]> {
  return withFiles(files, async (dir, names) => {
    const topOptions = top === undefined ? ['-Wno-MULTITOP'] : ['--top-module', top];
    const { stderr } = await runTool('verilator', ['--lint-only', '-Wall', '-Wno-fatal', ...topOptions, ...names], {
      cwd: dir,
      timeout: 5 * 60_000,
    });
    return stderr.split('\n').filter((line) => line.startsWith('%Warning'));
  });
}

/** The Yosys script of the structural check: every module found, processes lowered, no obvious problems. */
const checkScript = (names: readonly string[], top: string): string =>
  `read_verilog ${names.join(' ')}; hierarchy -check -top ${top}; proc; check -assert`;

/** Warnings in a Yosys log; a failed `check -assert` is reported as its warnings, not thrown. */
function yosysWarnings(log: string, failed: boolean): string[] {
  const warnings = log.split('\n').filter((line) => line.startsWith('Warning:'));
  if (failed && !/Found \d+ problems in 'check -assert'/.test(log)) throw new ToolError('yosys', tail(log));
  return warnings;
}

/**
 * Yosys `hierarchy -check; proc; check -assert` on the files: the warnings (empty when clean).
 * Uses the bundled WebAssembly Yosys by default; `system: true` runs the installed `yosys`.
 */
export async function checkWithYosys(
  files: VerilogFiles,
  top: string,
  options: { system?: boolean } = {},
): Promise<string[]> {
  const names = [...files.keys()].sort();
  if (options.system) {
    return withFiles(files, async (dir) => {
      const { stdout, stderr, exitCode } = await runTool('yosys', ['-p', checkScript(names, top)], {
        cwd: dir,
        timeout: 5 * 60_000,
        acceptExitCodes: [1],
      });
      return yosysWarnings(`${stdout}\n${stderr}`, exitCode !== 0);
    });
  }
  const decoder = new TextDecoder();
  const chunks: string[] = [];
  const collect = (bytes: Uint8Array | null): void =>
    void (bytes && chunks.push(decoder.decode(bytes, { stream: true })));
  let failed = false;
  try {
    await runYosys(['-p', checkScript(names, top)], Object.fromEntries(files), { stdout: collect, stderr: collect });
  } catch (error) {
    if (!(error instanceof Error && 'code' in error)) throw error;
    failed = true;
  }
  return yosysWarnings(chunks.join(''), failed);
}
