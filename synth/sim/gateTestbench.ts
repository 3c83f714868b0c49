import { UserError } from '../../common/errors.ts';
import type { PortInfo } from '../netlist.ts';
import type { InputVector, PortRoles } from './gateStimulus.ts';

/** A design instance in the testbench; its outputs appear as `<port>__<suffix>` wires. */
export interface DutInstance {
  readonly module: string;
  readonly instance: string;
  readonly suffix: string;
}

export interface TestbenchSpec {
  readonly roles: PortRoles;
  readonly vectors: readonly InputVector[];
  /** All instances get the same inputs; with `compare`, outputs of the first two are compared every cycle. */
  readonly duts: readonly DutInstance[];
  readonly compare: boolean;
  /** First cycle whose outputs are compared (default 0). */
  readonly compareFromCycle?: number;
  /** VCD of the given hierarchical references (relative to the testbench), from cycle `fromCycle` on. */
  readonly dump?: { readonly file: string; readonly fromCycle: number; readonly signals: readonly string[] };
}

export interface Testbench {
  readonly verilog: string;
  /** `$readmemh` file: one line per cycle, the driven inputs concatenated (first port most significant). */
  readonly stimulusHex: string;
  readonly stimulusFile: string;
  readonly moduleName: string;
}

/** Cycle timing (time units): inputs change at 0, outputs are checked at 4, the clock rises at 5 and falls at 10. */
const settleTime = 4;
const halfPeriod = 5;

const plainIdentifier = /^[A-Za-z_][A-Za-z0-9_$]*$/;

/** A Verilog reference to `name`, escaped when it is not a plain identifier (Yosys flat names have dots). */
export function verilogName(name: string): string {
  return plainIdentifier.test(name) ? name : `\\${name} `;
}

const range = (port: PortInfo): string => (port.width > 1 ? `[${port.width - 1}:0] ` : '');

function stimulusLines(roles: PortRoles, vectors: readonly InputVector[], width: number): string {
  const digits = Math.ceil(width / 4);
  return vectors
    .map((vector, cycle) => {
      let word = 0n;
      for (const port of roles.driven) {
        const value = vector[port.name];
        if (value === undefined) throw new UserError(`stimulus cycle ${cycle} has no value for input ${port.name}`);
        if (value < 0n || value >> BigInt(port.width) !== 0n)
          throw new UserError(`stimulus cycle ${cycle}: ${port.name} = ${value} does not fit in ${port.width} bits`);
        word = (word << BigInt(port.width)) | value;
      }
      return word.toString(16).padStart(digits, '0');
    })
    .join('\n');
}

/**
 * A self-contained Verilog-2005 testbench that replays `vectors` one per clock cycle into every
 * DUT, optionally compares their outputs (`MISMATCH …` lines, then `DONE cycles=N mismatches=M`)
 * and optionally dumps a VCD window for activity measurement.
 */
export function buildTestbench(spec: TestbenchSpec): Testbench {
  const { roles, vectors } = spec;
  for (const port of [...roles.driven, ...roles.outputs]) {
    if (!plainIdentifier.test(port.name))
      throw new UserError(`port ${port.name} of the top needs a plain identifier name for the testbench`);
  }
  const moduleName = 'coruscant_tb';
  const stimulusFile = 'stimulus.hex';
  const drivenWidth = roles.driven.reduce((sum, port) => sum + port.width, 0);
  const width = Math.max(1, drivenWidth);
  const count = Math.max(1, vectors.length);
  const lines = ['`timescale 1ns/1ps', `module ${moduleName};`];
  if (roles.clock) lines.push(`  reg ${roles.clock} = 1'b0;`);
  lines.push(`  reg [${width - 1}:0] tb_stimulus [0:${count - 1}];`);
  for (const port of roles.driven) lines.push(`  reg ${range(port)}${port.name};`);
  for (const dut of spec.duts)
    for (const port of roles.outputs) lines.push(`  wire ${range(port)}${port.name}__${dut.suffix};`);
  for (const dut of spec.duts) {
    const connections = [
      ...(roles.clock ? [roles.clock] : []).map((name) => `.${name}(${name})`),
      ...roles.driven.map((port) => `.${port.name}(${port.name})`),
      ...roles.outputs.map((port) => `.${port.name}(${port.name}__${dut.suffix})`),
    ];
    lines.push(`  ${verilogName(dut.module)} ${dut.instance} (${connections.join(', ')});`);
  }
  lines.push(
    '  integer tb_cycle;',
    '  integer tb_mismatches;',
    '  initial begin',
    '    tb_mismatches = 0;',
    `    $readmemh("${stimulusFile}", tb_stimulus);`,
  );
  lines.push(`    for (tb_cycle = 0; tb_cycle < ${vectors.length}; tb_cycle = tb_cycle + 1) begin`);
  if (spec.dump) {
    lines.push(`      if (tb_cycle == ${spec.dump.fromCycle}) begin`, `        $dumpfile("${spec.dump.file}");`);
    for (const signal of spec.dump.signals) lines.push(`        $dumpvars(0, ${signal});`);
    lines.push('      end');
  }
  if (drivenWidth > 0)
    lines.push(`      {${roles.driven.map((port) => port.name).join(', ')}} = tb_stimulus[tb_cycle];`);
  lines.push(`      #${settleTime};`);
  const [first, second] = spec.duts;
  if (spec.compare && first && second) {
    for (const port of roles.outputs) {
      const a = `${port.name}__${first.suffix}`;
      const b = `${port.name}__${second.suffix}`;
      lines.push(
        `      if (tb_cycle >= ${spec.compareFromCycle ?? 0} && ${a} !== ${b}) begin`,
        '        tb_mismatches = tb_mismatches + 1;',
        `        if (tb_mismatches <= 10) $display("MISMATCH cycle=%0d port=${port.name} ${first.suffix}=%h ${second.suffix}=%h", tb_cycle, ${a}, ${b});`,
        '      end',
      );
    }
  }
  lines.push(`      #${halfPeriod - settleTime};`);
  if (roles.clock) lines.push(`      ${roles.clock} = 1'b1;`);
  lines.push(`      #${halfPeriod};`);
  if (roles.clock) lines.push(`      ${roles.clock} = 1'b0;`);
  lines.push(
    '    end',
    `    $display("DONE cycles=%0d mismatches=%0d", tb_cycle, tb_mismatches);`,
    '    $finish;',
    '  end',
    'endmodule',
    '',
  );
  return {
    verilog: lines.join('\n'),
    stimulusHex: `${stimulusLines(roles, vectors, width)}\n`,
    stimulusFile,
    moduleName,
  };
}
