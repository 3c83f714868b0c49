import { describe, expect, it } from 'vitest';
import { basename } from 'node:path';
import {
  defineModule,
  input,
  output,
  HdlError,
  WidthMismatchError,
  UndrivenSignalError,
  MultipleDriverError,
  CombinationalLoopError,
  SliceRangeError,
  DuplicateNameError,
  InvalidParameterError,
  type ModuleDefinition,
} from '../../../hw/core/index.ts';
import { fileURLToPath } from 'node:url';
import { caughtHdlError, markerLines } from '../../support/hdlErrors.ts';

/** The line of this file that ends in `// <marker>`: where the error must point. */
const lineOf = markerLines(import.meta.url);

function expectHdlError(
  definition: ModuleDefinition,
  kind: new (...args: never[]) => HdlError,
  marker: string,
): HdlError {
  const error = caughtHdlError(definition);
  expect(error).toBeInstanceOf(kind);
  expect(basename(error.location.file)).toBe(basename(fileURLToPath(import.meta.url)));
  expect(error.location.line).toBe(lineOf(marker));
  expect(error.message.startsWith(`tests/hw/core/errors.test.ts:${lineOf(marker)}:`)).toBe(true);
  return error;
}

const module = (build: ModuleDefinition['build']) =>
  defineModule({
    name: 'Faulty',
    defaults: {},
    ports: () => ({ a: input(4), b: input(8), y: output(4) }),
    build,
  });

describe('user mistakes raise HdlError at the user line', () => {
  it('width mismatch in an operator', () => {
    const error = expectHdlError(
      module((_m, io) => {
        const ports = io as unknown as { a: { add(x: unknown): unknown }; b: unknown; y: { set(x: unknown): void } };
        ports.y.set(ports.a.add(ports.b)); // MARK-width-op
      }),
      WidthMismatchError,
      'MARK-width-op',
    );
    expect(error.message).toMatch(/4 and 8 bits/);
  });

  it('width mismatch in an assignment', () => {
    expectHdlError(
      module((_m, io) => {
        const ports = io as unknown as { b: unknown; y: { set(x: unknown): void } };
        ports.y.set(ports.b); // MARK-width-assign
      }),
      WidthMismatchError,
      'MARK-width-assign',
    );
  });

  it('undriven output (at its declaration: the module definition)', () => {
    const Undriven = defineModule({ name: 'Undriven', defaults: {}, ports: () => ({ y: output(4) }), build() {} }); // MARK-undriven
    expectHdlError(Undriven, UndrivenSignalError, 'MARK-undriven');
  });

  it('wire driven on only some paths of a when', () => {
    const error = expectHdlError(
      module((m, io) => {
        const ports = io as unknown as {
          a: import('../../../hw/core/index.ts').Value;
          y: import('../../../hw/core/index.ts').Signal;
        };
        const partial = m.wire('partial', 4);
        // The when that leaves it undriven is the mistake (not the declaration).
        m.when(ports.a.bit(0), () => partial.set(ports.a)); // MARK-partial
        ports.y.set(partial);
      }),
      UndrivenSignalError,
      'MARK-partial',
    );
    expect(error.message).toMatch(/not driven on every path/);
  });

  it('two unconditional drivers', () => {
    expectHdlError(
      module((_m, io) => {
        const ports = io as unknown as {
          a: import('../../../hw/core/index.ts').Value;
          y: import('../../../hw/core/index.ts').Signal;
        };
        ports.y.set(ports.a);
        ports.y.set(ports.a.not()); // MARK-multiple
      }),
      MultipleDriverError,
      'MARK-multiple',
    );
  });

  it('driving an input', () => {
    expectHdlError(
      module((_m, io) => {
        const ports = io as unknown as {
          a: import('../../../hw/core/index.ts').Signal;
          y: import('../../../hw/core/index.ts').Signal;
        };
        ports.a.set(0); // MARK-drive-input
        ports.y.set(ports.a);
      }),
      MultipleDriverError,
      'MARK-drive-input',
    );
  });

  it('combinational loop, with the path of signals', () => {
    const error = expectHdlError(
      module((m, io) => {
        const ports = io as unknown as {
          a: import('../../../hw/core/index.ts').Value;
          y: import('../../../hw/core/index.ts').Signal;
        };
        const first = m.wire('loop_first', 4);
        const second = m.wire('loop_second', 4);
        // The assignment that closes the loop is named (not the m.wire declarations).
        first.set(second.xor(ports.a)); // MARK-loop
        second.set(first);
        ports.y.set(second);
      }),
      CombinationalLoopError,
      'MARK-loop',
    ) as CombinationalLoopError;
    expect(error.path.map((step) => step.name).sort()).toEqual(['loop_first', 'loop_second']);
    expect(error.message).toMatch(/loop_first \(tests\/hw\/core\/errors\.test\.ts:\d+\) -> loop_second/);
  });

  it('out-of-range slice', () => {
    expectHdlError(
      module((_m, io) => {
        const ports = io as unknown as {
          a: import('../../../hw/core/index.ts').Value;
          y: import('../../../hw/core/index.ts').Signal;
        };
        ports.y.set(ports.a.bits(5, 2)); // MARK-slice
      }),
      SliceRangeError,
      'MARK-slice',
    );
  });

  it('duplicate name', () => {
    expectHdlError(
      module((m, io) => {
        const ports = io as unknown as {
          a: import('../../../hw/core/index.ts').Value;
          y: import('../../../hw/core/index.ts').Signal;
        };
        m.wire('twice', 4).set(ports.a);
        m.wire('twice', 4); // MARK-duplicate
        ports.y.set(ports.a);
      }),
      DuplicateNameError,
      'MARK-duplicate',
    );
  });

  it('literal that does not fit', () => {
    expectHdlError(
      module((_m, io) => {
        const ports = io as unknown as {
          a: import('../../../hw/core/index.ts').Value;
          y: import('../../../hw/core/index.ts').Signal;
        };
        ports.y.set(ports.a.add(16)); // MARK-literal
      }),
      WidthMismatchError,
      'MARK-literal',
    );
  });

  it('width beyond the supported maximum', () => {
    expectHdlError(
      module((m, io) => {
        const ports = io as unknown as {
          a: import('../../../hw/core/index.ts').Value;
          y: import('../../../hw/core/index.ts').Signal;
        };
        m.wire('huge', 1 << 20); // MARK-huge
        ports.y.set(ports.a);
      }),
      InvalidParameterError,
      'MARK-huge',
    );
  });
});
