import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CombinationalLoopError,
  HdlError,
  UndrivenSignalError,
  UnknownPortError,
  defineModule,
  input,
  output,
  vec,
} from '../../../hw/core/index.ts';
import { caughtHdlError as caught, markerLines } from '../../support/hdlErrors.ts';

/**
 * Errors name the line that made the mistake (issue: errors at the exact line): the `when` that
 * leaves an output undriven, the assignments that close a combinational loop, the line that reads
 * a misspelled port — not the module definition or the declarations.
 */
const thisFile = fileURLToPath(import.meta.url);
const lineOf = markerLines(import.meta.url);

const at = (error: HdlError): [string, number] => [basename(error.location.file), error.location.line];

describe('errors at the exact line', () => {
  it('an output undriven on one branch: the when that leaves it undriven', () => {
    const OneBranch = defineModule({
      name: 'OneBranch',
      defaults: {},
      ports: () => ({ a: input(1), y: output(1) }),
      build(m, io) {
        m.when(io.a, () => io.y.set(io.a)); // MARK-branch
      },
    });
    const error = caught(OneBranch);
    expect(error).toBeInstanceOf(UndrivenSignalError);
    expect(at(error)).toEqual([basename(thisFile), lineOf('MARK-branch')]);
    expect(error.message).toMatch(/output 'y' is not driven on every path of the when/);
  });

  it('a combinational loop: the assignments that close it, not the m.wire lines', () => {
    const Loop = defineModule({
      name: 'Loop',
      defaults: {},
      ports: () => ({ a: input(4), y: output(4) }),
      build(m, io) {
        const first = m.wire('first', 4);
        const second = m.wire('second', 4);
        first.set(second.xor(io.a)); // MARK-close-1
        second.set(first); // MARK-close-2
        io.y.set(second);
      },
    });
    const error = caught(Loop) as CombinationalLoopError;
    expect(error).toBeInstanceOf(CombinationalLoopError);
    const assignments = [lineOf('MARK-close-1'), lineOf('MARK-close-2')];
    expect(assignments).toContain(error.location.line);
    expect(Object.fromEntries(error.path.map((step) => [step.name, step.location.line]))).toEqual({
      first: assignments[0],
      second: assignments[1],
    });
  });

  it('a misspelled port: an HdlError at the line that reads it, with the closest name', () => {
    const Misspelled = defineModule({
      name: 'Misspelled',
      defaults: {},
      ports: () => ({ in: { valid: input(1), data: input(4) }, y: output(4) }),
      build(_m, io) {
        const ports = io as unknown as { in: { vaild: unknown } };
        void ports.in.vaild; // MARK-typo
      },
    });
    const error = caught(Misspelled);
    expect(error).toBeInstanceOf(UnknownPortError);
    expect(at(error)).toEqual([basename(thisFile), lineOf('MARK-typo')]);
    expect(error.message).toMatch(/port group 'in' has no port or field 'vaild' \(did you mean 'valid'\?\)/);
  });

  it('a misspelled instance port and an index past a vec', () => {
    const Child = defineModule({
      name: 'Child',
      defaults: {},
      ports: () => ({ lanes: vec(2, input(1)), y: output(1) }),
      build(_m, io) {
        io.y.set(io.lanes[0]!.and(io.lanes[1]!));
      },
    });
    const Parent = (index: number) =>
      defineModule({
        name: 'Parent',
        defaults: {},
        ports: () => ({ y: output(1) }),
        build(m, io) {
          const child = m.instance(Child) as unknown as { lanes: unknown[]; z: unknown };
          if (index === 2)
            void child.lanes[index]; // MARK-index
          else void child.z; // MARK-instance
          io.y.set(m.lit(0, 1));
        },
      });
    const byIndex = caught(Parent(2));
    expect(at(byIndex)).toEqual([basename(thisFile), lineOf('MARK-index')]);
    expect(byIndex.message).toMatch(/has 2 elements; there is no element 2/);
    expect(at(caught(Parent(0)))).toEqual([basename(thisFile), lineOf('MARK-instance')]);
  });

  it('through gen (TypeScript loaded without type-checking): one line with the file and line, no stack', () => {
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    mkdirSync(join(root, 'out'), { recursive: true }); // a fresh checkout has no out/ yet
    const folder = mkdtempSync(join(root, 'out', 'typo-'));
    try {
      const design = join(folder, 'typo.ts');
      writeFileSync(
        design,
        [
          `import { defineModule, input, output } from '../../hw/core/index.ts';`,
          `export const Typo = defineModule({`,
          `  name: 'Typo', defaults: {},`,
          `  ports: () => ({ in_valid: input(1), y: output(1) }),`,
          `  build(_m, io) {`,
          `    io.y.set(io.in_vaild);`,
          `  },`,
          `});`,
          ``,
        ].join('\n'),
      );
      let stderr = '';
      let status = 0;
      try {
        execFileSync(
          'node',
          ['bin/gen.js', 'verilog', '--design', design, '--top', 'Typo', '--out', join(folder, 'v')],
          {
            cwd: root,
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
      } catch (error) {
        const failed = error as { status: number; stderr: Buffer };
        status = failed.status;
        stderr = failed.stderr.toString();
      }
      expect(status).not.toBe(0);
      expect(stderr.trim().split('\n')).toEqual([
        `gen: out/${basename(folder)}/typo.ts:6: the port list has no port or field 'in_vaild' (did you mean 'in_valid'?); it has: in_valid, y`,
      ]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
