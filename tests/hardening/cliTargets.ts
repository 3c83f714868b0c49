/**
 * The `gen` CLI's option values as a fuzz target: hostile --shape, --sparsity, --seed, --bytes,
 * --stride, --requests and --param values go through the real yargs commands in-process; each run
 * must finish (or refuse with a UserError, the one-line message the CLI prints) within the case
 * time limit. Values are drawn so that accepted ones stay small (the fuzz is about parsing, not
 * about running big jobs) while refused ones include the huge and the malformed.
 */
import fc from 'fast-check';
import yargs from 'yargs';
import { expect, vi } from 'vitest';
import { UserError } from '../../common/errors.ts';
import { COMMANDS } from '../../gen/cli/commands/index.ts';
import type { Outcome } from './fuzzHarness.ts';

/** Runs `gen <argv>` the way gen/cli/main.ts does (strict, failures thrown), with stdout discarded. */
export async function runGenInProcess(argv: readonly string[]): Promise<void> {
  const parser = yargs([...argv])
    .scriptName('gen')
    .strict()
    .demandCommand(1)
    .help(false)
    .version(false)
    .fail((message, error) => {
      throw error ?? new UserError(message);
    });
  // As main.ts does: the requested command loaded, the others registered by name only.
  const requested = argv.find((arg) => !arg.startsWith('-'));
  for (const entry of COMMANDS) {
    if (entry.name === requested) parser.command({ ...(await entry.load()), describe: entry.describe });
    else parser.command({ command: entry.name, describe: entry.describe, handler: () => {} });
  }
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    await parser.parseAsync();
  } catch (error) {
    // As main.ts: yargs reports a failed option `coerce` check as a YError, a usage mistake.
    if (error instanceof Error && error.name === 'YError') throw new UserError(error.message);
    throw error;
  } finally {
    write.mockRestore();
  }
}

/** Numbers as users (and scripts gone wrong) type them. */
const numberText: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: -5, max: 300 }).map(String),
  fc.constantFrom(
    '0',
    '-0',
    '1e400',
    '1e-400',
    'NaN',
    'Infinity',
    '-Infinity',
    '0x10',
    '1.5',
    '9007199254740993',
    '4294967296',
    '',
    ' ',
    '1,2',
    '٣',
  ),
  fc.double().map(String),
  fc.string({ maxLength: 6 }),
);

const sparsityList = fc
  .array(fc.oneof(numberText, fc.double({ min: 0, max: 1 }).map(String)), { minLength: 1, maxLength: 4 })
  .map((parts) => parts.join(','));
const shape = fc.oneof(
  fc.tuple(fc.integer({ min: 0, max: 70_000 }), fc.integer({ min: 0, max: 70_000 })).map(([m, k]) => `${m}x${k}`),
  fc.tuple(numberText, numberText).map(([m, k]) => `${m}x${k}`),
  fc.string({ maxLength: 10 }),
);

const formatsCase = fc
  .record({ shape, sparsity: sparsityList, seed: numberText })
  .map(({ shape, sparsity, seed }) => [
    'formats',
    '--accounting',
    'paper',
    '--json',
    '--shape',
    shape,
    '--sparsity',
    sparsity,
    '--seed',
    seed,
  ]);

/** Small valid byte counts, or huge / malformed ones that must be refused (never a valid multi-GB one: that is a long run, not a parse). */
const byteCount = fc.oneof(
  fc.integer({ min: 1, max: 64 * 1024 }).map(String),
  fc.constantFrom(
    '4KiB',
    '1k',
    '64kb',
    '0',
    '-1',
    '1T',
    '999999G',
    '9007199254740993',
    '1e3',
    'lots',
    '',
    '1.5',
    'NaN',
    '0x10',
  ),
  fc.string({ maxLength: 6 }),
);
const memsimCase = fc
  .record({
    pattern: fc.constantFrom('stride', 'random', 'stream', 'zigzag'),
    bytes: byteCount,
    stride: fc.option(byteCount, { nil: undefined }),
    requests: fc.option(
      fc.oneof(fc.integer({ min: -2, max: 2000 }).map(String), fc.constantFrom('1e12', '9007199254740991', '0.5', 'x')),
      { nil: undefined },
    ),
  })
  .map(({ pattern, bytes, stride, requests }) => [
    'memsim',
    '--json',
    '--profile',
    'rtx4090',
    '--pattern',
    pattern,
    '--bytes',
    bytes,
    ...(stride === undefined ? [] : ['--stride', stride]),
    ...(requests === undefined ? [] : ['--requests', requests]),
  ]);

/** Tops whose parameters are widths or depths, with the parameter names they have (and one they lack). */
const PARAMETER_TOPS = [
  { top: 'Counter', names: ['width', 'depth'] },
  { top: 'Lfsr', names: ['width'] },
  { top: 'RegisterFile', names: ['depth', 'width'] },
  { top: 'LaneDetector', names: ['slots'] },
];
const parameterValue = fc.oneof(
  fc.integer({ min: -2, max: 70 }).map(String),
  fc.constantFrom('65536', '65537', '1073741824', '1e9', 'true', '', '8.5', '0x10'),
  numberText,
);

export function verilogCase(out: string): fc.Arbitrary<string[]> {
  return fc
    .tuple(
      fc.constantFrom(...PARAMETER_TOPS),
      fc.array(fc.tuple(fc.nat(3), parameterValue), { maxLength: 2 }),
      fc.string({ maxLength: 4 }),
    )
    .map(([{ top, names }, pairs, junk]) => [
      'verilog',
      '--top',
      top,
      '--out',
      out,
      ...pairs.flatMap(([which, value]) => [
        '--param',
        which === 3 ? `${junk}=${value}` : `${names[which % names.length]}=${value}`,
      ]),
    ]);
}

/**
 * Elaborating and writing a 65536-bit design is real work; a case may take this much CPU time (this
 * process's, where the case runs: a loaded machine stretches the wall clock, not the work). The wall
 * clock only guards a case that waits instead of working.
 */
const CLI_CASE_LIMIT_MS = 10_000;
const CLI_CASE_WALL_LIMIT_MS = 60_000;

/** Fuzz target: one `gen` invocation per case; `out` is a scratch directory for `gen verilog`. */
export function cliTarget(out: string): {
  name: string;
  inputs: fc.Arbitrary<string[]>;
  run: (argv: string[]) => Promise<Outcome>;
} {
  return {
    name: 'gen option values (formats, memsim, verilog --param)',
    inputs: fc.oneof(formatsCase, memsimCase, verilogCase(out)),
    run: async (argv) => {
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      let outcome: Outcome = 'parsed';
      try {
        await runGenInProcess(argv);
      } catch (error) {
        if (!(error instanceof UserError)) throw error;
        outcome = 'refused';
      }
      const cpu = process.cpuUsage(cpuBefore);
      expect((cpu.user + cpu.system) / 1000, `gen ${argv.join(' ')} worked too long`).toBeLessThan(CLI_CASE_LIMIT_MS);
      expect(performance.now() - started, `gen ${argv.join(' ')} took too long`).toBeLessThan(CLI_CASE_WALL_LIMIT_MS);
      return outcome;
    },
  };
}
