import { UserError } from '../../common/errors.ts';
import type { InputName, OutputName, PortTypes } from '../../hw/core/ports.ts';
import type { ReactiveTestbench } from '../testbench.ts';
import type { Process } from '../processes/scheduler.ts';
import { seededRandom } from './seededRandom.ts';

/*
 * A valid/ready agent for the reactive testbench, in the shape of cocotb-bus and cocotbext-axi's
 * source / sink / scoreboard: a driver that offers words and respects backpressure, a monitor that
 * drives `ready` and collects what the design hands over, a scoreboard that checks each output
 * against a golden model. Driver and monitor are processes; both decide from the edge samples
 * (`tb.rising()`), so whatever order they run in, a word counts as moved exactly at the edge
 * where `valid && ready` was sampled, as the hardware sees it.
 */

/** One word that moved: the cycle whose edge took it, and its data. */
export interface Transaction {
  readonly cycle: number;
  readonly data: bigint;
}

/** The ports of a stream the design consumes (its `flip(Stream(w))`): the driver drives valid and data. */
export interface DriverPorts<P extends PortTypes> {
  readonly valid: InputName<P>;
  readonly ready: OutputName<P>;
  readonly data: InputName<P>;
}

/** The ports of a stream the design produces (its `Stream(w)`): the monitor drives ready. */
export interface MonitorPorts<P extends PortTypes> {
  readonly valid: OutputName<P>;
  readonly ready: InputName<P>;
  readonly data: OutputName<P>;
}

/** How an agent process behaves: random idle cycles from a seeded source, its name, a callback per word. */
export interface AgentOptions {
  /** The chance, each cycle, that the driver idles before its next word or the monitor holds `ready` low (default 0). */
  readonly stall?: number;
  /** The seed of the stalls (default 1): the same seed gives the same cycles on every engine. */
  readonly seed?: number;
  /** The process's name in messages (default 'driver' / 'monitor'). */
  readonly name?: string;
  /** Called with every word as it moves (a scoreboard's `input` or `output`). */
  readonly onTransaction?: (transaction: Transaction) => void;
  /** The cycles one word may wait for `ready` (driver, default 1,000) before a ProcessTimeoutError. */
  readonly timeout?: number;
}

function stallChance(options: AgentOptions): number {
  const stall = options.stall ?? 0;
  if (!(stall >= 0 && stall < 1)) throw new UserError(`stall ${stall} must be a chance from 0 up to (not including) 1`);
  return stall;
}

/**
 * Forks a driver that offers `words` in order on a stream the design consumes: `valid` up with the
 * word until an edge samples `ready`, idle cycles between words with chance `stall`. Resolves with
 * the words as they were accepted.
 */
export function validReadyDriver<P extends PortTypes>(
  tb: ReactiveTestbench<P>,
  ports: DriverPorts<P>,
  words: Iterable<bigint | number>,
  options: AgentOptions = {},
): Process<Transaction[]> {
  const stall = stallChance(options);
  const random = seededRandom(options.seed ?? 1);
  return tb.fork(
    async () => {
      const accepted: Transaction[] = [];
      for (const word of words) {
        tb.poke(ports.valid, 0);
        while (random() < stall) await tb.rising();
        tb.poke(ports.valid, 1).poke(ports.data, word);
        await tb.untilEdge((sample) => sampled(sample, ports.ready) === 1n, { timeout: options.timeout });
        const transaction = { cycle: tb.cycle - 1, data: BigInt(word) };
        accepted.push(transaction);
        options.onTransaction?.(transaction);
      }
      tb.poke(ports.valid, 0);
      return accepted;
    },
    { name: options.name ?? 'driver' },
  );
}

/**
 * Forks a monitor of a stream the design produces: each cycle it drives `ready` (low with chance
 * `stall`: backpressure) and records the word of every edge that sampled `valid && ready`. It
 * runs until `count` words came (if given; then it resolves with them) or it is cancelled.
 */
export function validReadyMonitor<P extends PortTypes>(
  tb: ReactiveTestbench<P>,
  ports: MonitorPorts<P>,
  options: AgentOptions & { readonly count?: number } = {},
): Process<Transaction[]> {
  const stall = stallChance(options);
  const random = seededRandom(options.seed ?? 1);
  return tb.fork(
    async () => {
      const seen: Transaction[] = [];
      while (options.count === undefined || seen.length < options.count) {
        tb.poke(ports.ready, random() < stall ? 0 : 1);
        const sample = await tb.rising();
        if (sampled(sample, ports.valid) !== 1n || sampled(sample, ports.ready) !== 1n) continue;
        const transaction = { cycle: tb.cycle - 1, data: sampled(sample, ports.data) };
        seen.push(transaction);
        options.onTransaction?.(transaction);
      }
      return seen;
    },
    { name: options.name ?? 'monitor' },
  );
}

/** A sample's value by a port name the types already checked. */
function sampled(sample: object, name: string): bigint {
  return (sample as Readonly<Record<string, bigint>>)[name]!;
}

/** An output that differs from the golden model's, or one the model did not expect. */
export class ScoreboardMismatchError extends UserError {}

/**
 * Checks a design's outputs against a golden model, in order: `input(t)` for every word the
 * design accepted (the model's outputs for it are expected next), `output(t)` for every word it
 * produced (compared with the oldest expected; a ScoreboardMismatchError on a difference, thrown
 * in the calling process, so the failure names it and the cycle). `finish()` fails if outputs are
 * still owed. The model may keep state between words (an accumulator's running sum).
 */
export class Scoreboard {
  private readonly expected: { readonly data: bigint; readonly from: Transaction }[] = [];
  private outputs = 0;

  constructor(
    /** The golden model: the outputs one accepted input word gives (none, one or several). */
    private readonly model: (word: bigint) => bigint | readonly bigint[],
  ) {}

  /** Outputs checked so far. */
  get matched(): number {
    return this.outputs;
  }

  /** Outputs the model expects that have not come yet. */
  get outstanding(): number {
    return this.expected.length;
  }

  /** An input word the design accepted. */
  input(transaction: Transaction): void {
    const produced = this.model(transaction.data);
    for (const data of typeof produced === 'bigint' ? [produced] : produced)
      this.expected.push({ data, from: transaction });
  }

  /** An output word the design produced: it must be the oldest one expected. */
  output(transaction: Transaction): void {
    const index = this.outputs++;
    const expected = this.expected.shift();
    if (expected === undefined)
      throw new ScoreboardMismatchError(
        `scoreboard: output ${index} (0x${transaction.data.toString(16)} at cycle ${transaction.cycle}) was not expected by the model`,
      );
    if (expected.data !== transaction.data)
      throw new ScoreboardMismatchError(
        `scoreboard: output ${index} at cycle ${transaction.cycle} was 0x${transaction.data.toString(16)}, the model expected 0x${expected.data.toString(16)} (for the input accepted at cycle ${expected.from.cycle})`,
      );
  }

  /** Fails if the model still expects outputs. */
  finish(): void {
    const next = this.expected[0];
    if (next)
      throw new ScoreboardMismatchError(
        `scoreboard: ${this.expected.length} output(s) never came, the first 0x${next.data.toString(16)} (for the input accepted at cycle ${next.from.cycle})`,
      );
  }
}
