/**
 * Byte-level mutation fuzzing of file readers: start from valid files, apply a few mutations
 * (bit flips, interesting bytes, deletions, duplications, inserted tokens, truncation), parse, and
 * demand that each input either parses or throws the reader's own documented error — never a
 * TypeError/RangeError/SyntaxError, never a slow case.
 *
 * Counts: `make test` runs FAST_RUNS per reader, `make soak` (SOAK=1) SOAK_RUNS.
 * Replay a failure: FC_SEED=<seed printed by the test> npx vitest run <file>.
 */
import fc from 'fast-check';
import { expect } from 'vitest';

export const SOAK = process.env['SOAK'] === '1';
export const FAST_RUNS = 1_000;
export const SOAK_RUNS = 100_000;
/** Runs per reader for this process: 10^3 in `make test`, 10^5 in `make soak`. */
export const RUNS = SOAK ? SOAK_RUNS : FAST_RUNS;
/** Wall time one input may take before it counts as a hang (generous: the machine is shared). */
export const CASE_LIMIT_MS = SOAK ? 2_000 : 1_000;

/** Bytes that mean something to at least one of our formats (delimiters, digits, value characters). */
const INTERESTING_BYTES = [
  0x00, 0x0a, 0x0d, 0x20, 0x22, 0x23, 0x24, 0x27, 0x28, 0x29, 0x2c, 0x2d, 0x30, 0x31, 0x39, 0x3a, 0x5b, 0x5d, 0x62,
  0x72, 0x78, 0x7a, 0x7b, 0x7d, 0x7f, 0x80, 0x93, 0xff,
];
/** Tokens that stress number parsing and structure. */
const INTERESTING_TOKENS = [
  '99999999999999999999999',
  '4294967296',
  '-1',
  '1e309',
  'NaN',
  'Infinity',
  '0x',
  '0x7fffffff',
  '1.5',
  '',
  'null',
  '[]',
  '{}',
  '"__proto__"',
  '$end',
  '$var wire 65536 ! big $end',
  '#18446744073709551616',
  'b',
  'r',
  's',
  '(',
  ')',
  ',',
  "'",
  '"',
  ':',
  '\n',
  '\u00ff',
].map((text) => Buffer.from(text, 'latin1'));

type Mutation =
  | { kind: 'flip'; at: number; bit: number }
  | { kind: 'set'; at: number; byte: number }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'duplicate'; at: number; length: number }
  | { kind: 'insert'; at: number; token: number }
  | { kind: 'truncate'; at: number };

const position = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });
const MUTATION: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: position, bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({
    kind: fc.constant('set' as const),
    at: position,
    byte: fc.oneof(fc.constantFrom(...INTERESTING_BYTES), fc.integer({ min: 0, max: 255 })),
  }),
  fc.record({ kind: fc.constant('delete' as const), at: position, length: fc.integer({ min: 1, max: 64 }) }),
  fc.record({ kind: fc.constant('duplicate' as const), at: position, length: fc.integer({ min: 1, max: 256 }) }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: position,
    token: fc.integer({ min: 0, max: INTERESTING_TOKENS.length - 1 }),
  }),
  fc.record({ kind: fc.constant('truncate' as const), at: position }),
);

function applyMutation(bytes: Buffer, mutation: Mutation): Buffer {
  const at = Math.floor(mutation.at * (bytes.length + 1));
  const index = Math.min(at, bytes.length - 1);
  switch (mutation.kind) {
    case 'flip': {
      if (bytes.length === 0) return bytes;
      const out = Buffer.from(bytes);
      out[index] = out[index]! ^ (1 << mutation.bit);
      return out;
    }
    case 'set': {
      if (bytes.length === 0) return bytes;
      const out = Buffer.from(bytes);
      out[index] = mutation.byte;
      return out;
    }
    case 'delete':
      return Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + mutation.length)]);
    case 'duplicate':
      return Buffer.concat([bytes.subarray(0, at + mutation.length), bytes.subarray(at)]);
    case 'insert':
      return Buffer.concat([bytes.subarray(0, at), INTERESTING_TOKENS[mutation.token]!, bytes.subarray(at)]);
    case 'truncate':
      return bytes.subarray(0, at);
  }
}

/** One of `seeds` with 1–4 random mutations applied (a fresh buffer; seeds are never modified). */
export function mutatedBytes(seeds: readonly Uint8Array[]): fc.Arbitrary<Buffer> {
  return fc
    .tuple(fc.integer({ min: 0, max: seeds.length - 1 }), fc.array(MUTATION, { minLength: 1, maxLength: 4 }))
    .map(([which, mutations]) => describedBuffer(mutations.reduce(applyMutation, Buffer.from(seeds[which]!))));
}

/** Counterexamples print as their (Latin-1) text, cut short, instead of a list of thousands of byte values. */
function describedBuffer(bytes: Buffer): Buffer {
  const text = JSON.stringify(bytes.toString('latin1'));
  Object.defineProperty(bytes, fc.toStringMethod, {
    value: () => `<${bytes.length} bytes: ${text.length > 600 ? `${text.slice(0, 600)}…` : text}>`,
  });
  return bytes;
}

/** How an input fared: parsed, or refused with the reader's own error. */
export type Outcome = 'parsed' | 'refused';

/**
 * Runs `parse` on one input and checks the contract: it returns, or throws an error `isOwnError`
 * accepts (anything else is rethrown so fast-check shrinks it), within CASE_LIMIT_MS.
 */
export function expectParsesOrRefuses(parse: () => void, isOwnError: (error: unknown) => boolean): Outcome {
  const started = performance.now();
  let outcome: Outcome = 'parsed';
  try {
    parse();
  } catch (error) {
    if (!isOwnError(error)) throw error;
    outcome = 'refused';
  }
  const elapsed = performance.now() - started;
  expect(elapsed, 'one input took too long (a hang or quadratic blow-up)').toBeLessThan(CASE_LIMIT_MS);
  return outcome;
}

/** The seed for this run (FC_SEED to replay), printed so a failure in CI can be reproduced. */
export function fuzzSeed(label: string): number {
  const seed = Number(process.env['FC_SEED'] ?? Date.now() % 2 ** 31);
  console.log(`${label}: FC_SEED=${seed} (${RUNS} runs)`);
  return seed;
}

/**
 * Fuzzes one reader with RUNS mutated inputs, and checks the corpus exercised both outcomes
 * (a fuzzer that only ever produces garbage, or only valid files, tests nothing).
 */
export function fuzzReader<T>(label: string, inputs: fc.Arbitrary<T>, run: (input: T) => Outcome, runs = RUNS): void {
  const seed = fuzzSeed(label);
  const counts: Record<Outcome, number> = { parsed: 0, refused: 0 };
  fc.assert(
    fc.property(inputs, (input) => {
      counts[run(input)] += 1;
    }),
    { seed, numRuns: runs },
  );
  expect(counts.refused, `${label}: no input was refused`).toBeGreaterThan(0);
  expect(counts.parsed, `${label}: no input parsed`).toBeGreaterThan(0);
}

/** fuzzReader for asynchronous targets (whole CLI invocations). */
export async function fuzzReaderAsync<T>(
  label: string,
  inputs: fc.Arbitrary<T>,
  run: (input: T) => Promise<Outcome>,
  runs = RUNS,
): Promise<void> {
  const seed = fuzzSeed(label);
  const counts: Record<Outcome, number> = { parsed: 0, refused: 0 };
  await fc.assert(
    fc.asyncProperty(inputs, async (input) => {
      counts[await run(input)] += 1;
    }),
    { seed, numRuns: runs },
  );
  expect(counts.refused, `${label}: no input was refused`).toBeGreaterThan(0);
  expect(counts.parsed, `${label}: no input parsed`).toBeGreaterThan(0);
}
