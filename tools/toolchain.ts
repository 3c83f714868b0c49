import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { UserError } from '../common/errors.ts';

/**
 * The one place that says where each external program is. Each tool has a name (what messages
 * call it), the program looked up on PATH, an environment variable that overrides it with another
 * program or a full path, and the Debian package that installs it.
 */
export interface ToolSpec {
  /** The program looked up on PATH when the variable is not set. */
  readonly program: string;
  /** Environment variable naming another program or path to run instead. */
  readonly env: string;
  readonly debianPackage: string;
}

export const TOOLS = {
  verilator: { program: 'verilator', env: 'GEN_VERILATOR', debianPackage: 'verilator' },
  iverilog: { program: 'iverilog', env: 'GEN_IVERILOG', debianPackage: 'iverilog' },
  vvp: { program: 'vvp', env: 'GEN_VVP', debianPackage: 'iverilog' },
  yosys: { program: 'yosys', env: 'GEN_YOSYS', debianPackage: 'yosys' },
  'yosys-abc': { program: 'yosys-abc', env: 'GEN_YOSYS_ABC', debianPackage: 'yosys' },
  sta: { program: 'sta', env: 'GEN_STA', debianPackage: 'opensta' },
  'g++': { program: 'g++', env: 'CXX', debianPackage: 'g++' },
  make: { program: 'make', env: 'GEN_MAKE', debianPackage: 'make' },
} as const satisfies Readonly<Record<string, ToolSpec>>;

export type ToolName = keyof typeof TOOLS;

export function isToolName(name: string): name is ToolName {
  return Object.hasOwn(TOOLS, name);
}

/** The program to run for a tool: its environment override when set, else its usual name (found on PATH). */
export function findTool(name: ToolName): string {
  const override = process.env[TOOLS[name].env];
  return override !== undefined && override !== '' ? override : TOOLS[name].program;
}

/** Whether a program is an executable path, or the name of one on PATH (no process is started). */
export function onPath(program: string): boolean {
  const executable = (path: string): boolean => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (isAbsolute(program) || program.includes('/')) return executable(program);
  return (process.env['PATH'] ?? '')
    .split(delimiter)
    .some((folder) => folder !== '' && executable(join(folder, program)));
}

/** Whether a tool can be run here (its override or its program is found). */
export function hasTool(name: ToolName): boolean {
  return onPath(findTool(name));
}

/**
 * Which Yosys runs a script: `yowasp` is the WebAssembly build from npm (@yowasp/yosys, a
 * dependency: always there, slower to start), `system` the installed binary (`yosys`, or
 * GEN_YOSYS). Amaranth calls these the built-in and the system Yosys.
 */
export type YosysEngine = 'yowasp' | 'system';

export const yosysEngines: readonly YosysEngine[] = ['yowasp', 'system'];

/** Environment variable that forces the Yosys of callers that leave the choice open. */
export const YOSYS_CHOICE_ENV = 'GEN_USE_YOSYS';

/**
 * The one way to choose a Yosys. An explicit `yowasp` or `system` (a user's option) is kept;
 * `fastest` (callers that run many scripts) takes GEN_USE_YOSYS when set, else the system Yosys
 * when installed (a native start takes milliseconds, the WebAssembly build seconds), else the
 * WebAssembly build.
 */
export function findYosys(choice: YosysEngine | 'fastest' = 'fastest'): YosysEngine {
  if (choice !== 'fastest') return choice;
  const forced = process.env[YOSYS_CHOICE_ENV];
  if (forced === 'yowasp' || forced === 'system') return forced;
  if (forced !== undefined && forced !== '')
    throw new UserError(`${YOSYS_CHOICE_ENV}=${forced.slice(0, 40)}: expected yowasp or system`);
  return hasTool('yosys') ? 'system' : 'yowasp';
}
