import { ToolError } from '../common/errors.ts';
import { runTool, tail, withWorkspace } from './runTool.ts';
import { findYosys } from './toolchain.ts';
import { runEmbeddedYosys } from './yosys.ts';

/** Verilog files by name (`Module.v` → text), as the emitter returns them. */
export type VerilogFiles = ReadonlyMap<string, string>;

/** Runs `use` with the files written to a fresh temporary folder, removed afterwards. */
function withFiles<T>(files: VerilogFiles, use: (dir: string, names: string[]) => Promise<T>): Promise<T> {
  return withWorkspace('lint', Object.fromEntries(files), (dir) => use(dir, [...files.keys()].sort()));
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

/**
 * The Yosys script of the structural check: every module found, processes lowered, no obvious problems.
 * SYNTHESIS is defined, as a synthesis flow reads the files: the simulators' check lines are left out.
 */
const checkScript = (names: readonly string[], top: string): string =>
  `read_verilog -DSYNTHESIS ${names.join(' ')}; hierarchy -check -top ${top}; proc; check -assert`;

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
  if (findYosys(options.system ? 'system' : 'yowasp') === 'system') {
    return withFiles(files, async (dir) => {
      const { stdout, stderr, exitCode } = await runTool('yosys', ['-p', checkScript(names, top)], {
        cwd: dir,
        timeout: 5 * 60_000,
        acceptExitCodes: [1],
      });
      return yosysWarnings(`${stdout}\n${stderr}`, exitCode !== 0);
    });
  }
  const { output, failed } = await runEmbeddedYosys(['-p', checkScript(names, top)], Object.fromEntries(files));
  return yosysWarnings(output, failed);
}
