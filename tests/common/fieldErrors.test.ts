/**
 * Library code names a bad value by its field in the library's words, never by a command-line
 * flag; `gen` turns the field into the flag the user typed through one table.
 */
import { describe, expect, it } from 'vitest';
import { FieldError, UserError } from '../../common/errors.ts';
import { parseShard } from '../../verif/regress/cases.ts';
import { clampWindow } from '../../waves/wavedrom.ts';
import { writeFilesStaged } from '../../hw/verilog/writeDesign.ts';
import { parseParams } from '../../gen/project/project.ts';
import { createEngine } from '../../engines/index.ts';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { Counter } from '../../hw/examples/counter.ts';
import { cliMessage, flagOfField } from '../../gen/cli/optionFlags.ts';

/** The error `action` throws (sync or async). */
async function thrown(action: () => unknown): Promise<Error> {
  try {
    await action();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

const counterTop = { name: 'Counter', definition: Counter, description: '', kind: 'example', file: 'gen.config.ts' };

describe('library errors speak in fields, not flags', () => {
  it.each([
    ['parseShard', () => parseShard('3/2'), 'shard'],
    ['clampWindow (first cycle)', () => clampWindow(10, 12, undefined), 'fromCycle'],
    ['clampWindow (last cycle)', () => clampWindow(10, 5, 2), 'toCycle'],
    ['parseParams', () => parseParams(counterTop, ['width']), 'param'],
    [
      'the ts engine asked for internal nets',
      async () => (await createEngine('ts')).run(elaborate(Counter), [{}], { vcd: '/dev/null', internal: true }),
      'internal',
    ],
  ] as const)('%s: a FieldError naming the field, with no flag in its message', async (_label, action, field) => {
    const error = await thrown(action);
    expect(error).toBeInstanceOf(FieldError);
    expect((error as FieldError).field).toBe(field);
    expect(error.message).not.toMatch(/--[a-z]/);
  });

  it('an output folder that holds the working directory is named by its path, not by a flag', async () => {
    const error = await thrown(() => writeFilesStaged('.', new Map([['a.v', '']])));
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toMatch(/^\. contains the current folder/);
  });
});

describe('gen maps fields to its flags in one table', () => {
  it('gives the flag the user typed, kebab-case unless the table says otherwise', () => {
    expect(flagOfField('fromCycle')).toBe('--from');
    expect(flagOfField('toCycle')).toBe('--to');
    expect(flagOfField('patterns')).toBe('--signals');
    expect(flagOfField('splitK')).toBe('--split-k');
    expect(flagOfField('shard')).toBe('--shard');
  });

  it('prints a FieldError with its flag and any other error as it is', async () => {
    expect(cliMessage(await thrown(() => parseShard('0/4')))).toBe(
      "--shard '0/4' must be i/n with 1 ≤ i ≤ n, e.g. 2/4",
    );
    expect(cliMessage(new UserError('plain'))).toBe('plain');
  });
});
