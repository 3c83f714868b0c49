import { readFileSync } from 'node:fs';
import { isAbsolute, resolve, dirname } from 'node:path';
import { captureSourceLocation, type SourceLocation } from './sourceLocation.ts';
import { defineModule, type ModuleBuilder, type ModuleDefinition } from './module.ts';
import type { IoOf, PortTree } from './ports.ts';
import { InvalidParameterError } from './errors.ts';
import type { Signal } from './signal.ts';

/**
 * Black boxes: an existing Verilog module used as it is. Its ports are declared in TypeScript (as
 * for any module); its Verilog file is what the Verilog engines, Yosys and `gen verilog` get in
 * place of generated text. An optional behavioural model, written with the DSL like any `build`,
 * is what the in-process engine runs; without one the ts engine refuses the design.
 */
export const BLACK_BOX: unique symbol = Symbol.for('coruscant-hdl.blackBox');

export interface BlackBoxInfo {
  /** The Verilog file, as resolved (relative paths are relative to the declaring file). */
  readonly file: string;
  /** Whether a behavioural model stands in for it on the in-process engine. */
  readonly model: boolean;
  /** The clocked interface: `clk` and `reset` ports first, as every clocked module of the framework. */
  readonly clocked: boolean;
  readonly location: SourceLocation;
  /** The file's text (read on first use; an unreadable file or a missing `module <name>` is an HdlError). */
  verilog(): string;
}

export interface BlackBoxSpec<T extends PortTree> {
  /** The Verilog module's name (the module in `file` with this name is instantiated). */
  readonly name: string;
  readonly description?: string;
  /** The Verilog file holding the module: absolute, or relative to the file calling defineBlackBox. */
  readonly file: string;
  readonly ports: () => T;
  /**
   * Whether the module has the implicit `clk` and `reset` inputs (default: whatever the model
   * needs; true when there is no model and `clocked` is not given is never assumed).
   */
  readonly clocked?: boolean;
  /** The behavioural model for the in-process engine, in the DSL (as a module's `build`). */
  readonly model?: (m: ModuleBuilder, io: IoOf<T>) => void;
}

/** Whether a module definition is a black box, and its facts. */
export function blackBoxOf(definition: ModuleDefinition): BlackBoxInfo | undefined {
  return (definition as unknown as Record<symbol, BlackBoxInfo | undefined>)[BLACK_BOX];
}

/** Declares a black box: an existing Verilog module with TypeScript ports and an optional model. */
export function defineBlackBox<T extends PortTree>(spec: BlackBoxSpec<T>): ModuleDefinition<Record<string, never>, T> {
  const location = captureSourceLocation();
  const file = isAbsolute(spec.file) ? spec.file : resolve(dirname(location.file), spec.file);
  let text: string | undefined;
  const info: BlackBoxInfo = {
    file,
    model: spec.model !== undefined,
    clocked: spec.clocked ?? false,
    location,
    verilog() {
      if (text === undefined) {
        let read: string;
        try {
          read = readFileSync(file, 'utf8');
        } catch (error) {
          throw new InvalidParameterError(
            location,
            `black box ${spec.name}: cannot read its Verilog file ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
          );
        }
        if (!new RegExp(`\\bmodule\\s+${spec.name}\\b`).test(read))
          throw new InvalidParameterError(location, `black box ${spec.name}: ${file} has no 'module ${spec.name}'`);
        text = read;
      }
      return text;
    },
  };
  const definition = defineModule({
    name: spec.name,
    ...(spec.description === undefined ? {} : { description: spec.description }),
    defaults: {},
    ports: spec.ports,
    build(m, io) {
      if (spec.model) {
        spec.model(m, io);
        return;
      }
      // No model: a placeholder body so the ports lower like any module's (never simulated, never
      // emitted: the ts engine refuses the design, the Verilog engines get the file).
      const walk = (node: unknown): void => {
        if (node !== null && typeof node === 'object' && 'kind' in node && 'set' in node) {
          const signal = node as Signal;
          if (signal.kind === 'output') signal.set(m.lit(0, signal.width));
        } else if (node !== null && typeof node === 'object') Object.values(node).forEach(walk);
      };
      walk(io);
      if (spec.clocked) m.reg('_blackbox_clock', 1).set(m.lit(0, 1));
    },
  });
  return Object.assign(definition, { [BLACK_BOX]: info, location });
}
