import { ToolError, UserError } from '../../common/errors.ts';
import type { IrDesign } from '../../hw/ir/ir.ts';
import type { EngineName, EngineSession, PortValues } from '../../hw/contract/engine.ts';
import { PortFrames, stimulusFrames } from '../../hw/contract/portFrames.ts';
import { CheckFailedError, hasChecks, type CheckMode, type CheckResults } from '../../hw/contract/checks.ts';
import { CheckLogReader } from './checkLog.ts';
import { conditionHolds, outputCondition, waitByStepping, waitLimit } from '../outputCondition.ts';
import { hasPrints, type PrintedLine } from '../../hw/ir/prints.ts';
import { PrintLogReader } from './printLog.ts';
import { decodeOutputs, frameCommands, HarnessCommands, storeOutputs, type HarnessPorts } from './harnessStimulus.ts';
import { STEP_ACK, STEP_PEEK, STEP_SAMPLE } from '../../hw/contract/harnessProtocol.ts';
import { HarnessProcess, type HarnessLaunch } from './harnessProcess.ts';
import { outputWordsOf } from './batchFiles.ts';
import { clockSteps, type ClockStep, type ClockTimings } from '../../hw/contract/clockSchedule.ts';

/** A session on a running harness (ExternalEngine.open). */
export class ExternalSession implements EngineSession {
  private readonly commands: HarnessCommands;
  private readonly harness: HarnessProcess;
  private readonly waiters: {
    readonly kind: 'outputs' | 'ack' | 'frames';
    readonly resolve: (value: PortValues | number | PortFrames) => void;
    readonly reject: (error: unknown) => void;
  }[] = [];
  /** The outputs frames of a runFrames being filled as the harness answers, frame by frame. */
  private filling: { readonly frames: PortFrames; filled: number } | undefined;
  private readonly checkLog: CheckLogReader | undefined;
  private readonly printLog: PrintLogReader | undefined;
  private readonly inputs: Map<string, { index: number; width: number; value: bigint }>;
  private readonly outputNames: ReadonlySet<string>;
  private stepped = 0;
  private schedule: { next(): ClockStep } | undefined;
  private upcoming: ClockStep | undefined;
  private sampled: PortValues | undefined;
  private failure: Error | undefined;
  private finished: Promise<void> | undefined;
  private closing: Promise<{ checks?: CheckResults }> | undefined;
  /** Settles when the harness process has ended (rejects when it crashed). */
  readonly ended: Promise<void>;

  constructor(
    readonly engine: EngineName,
    private readonly design: IrDesign,
    private readonly ports: HarnessPorts,
    launch: HarnessLaunch,
    private readonly options: {
      readonly mode: CheckMode;
      readonly clocks: ClockTimings | undefined;
      readonly timeout: (cycles: number) => number;
    },
  ) {
    this.commands = new HarnessCommands(ports);
    this.checkLog = hasChecks(design) ? new CheckLogReader(design, engine) : undefined;
    this.printLog = hasPrints(design) ? new PrintLogReader(design, engine) : undefined;
    this.inputs = new Map(ports.inputs.map((port, index) => [port.name, { index, width: port.width, value: 0n }]));
    this.outputNames = new Set(ports.outputs.map((port) => port.name));
    this.harness = new HarnessProcess(
      launch,
      outputWordsOf(ports),
      {
        outputs: (bytes, offset, fourState) => {
          const filling = this.filling;
          if (filling) {
            storeOutputs(engine, filling.frames, filling.filled++, bytes, offset, fourState);
            if (filling.filled === filling.frames.cycles) {
              this.filling = undefined;
              this.next('frames').resolve(filling.frames);
            }
            return;
          }
          const waiter = this.next('outputs');
          try {
            waiter.resolve(decodeOutputs(engine, ports.outputs, bytes, offset, fourState));
          } catch (error) {
            waiter.reject(error);
          }
        },
        ack: (cycle) => this.next('ack').resolve(cycle),
        line: (text) => {
          this.checkLog?.line(text);
          this.printLog?.line(text);
        },
      },
      (error) =>
        this.fail(
          new ToolError(error.tool, `${error.message.slice(error.tool.length + 2)} (session in cycle ${this.stepped})`),
        ),
    );
    this.ended = this.harness.ended.catch((error: unknown) => {
      // A crash was reported to the waiters; a session that is being closed reports it from close.
      throw this.failure ?? error;
    });
    this.ended.catch(() => {});
    this.commands.stream();
    // An idle session keeps nothing alive: a script that forgets close() still ends (and its process with it).
    this.harness.unwatch();
  }

  /** The trace's completion (withEngineTrace around the whole session). */
  attach(finished: Promise<void>): void {
    this.finished = finished;
    finished.catch(() => {});
  }

  get cycle(): number {
    return this.stepped;
  }

  get printed(): readonly PrintedLine[] {
    return this.printLog?.printed ?? [];
  }

  /** The process group of the harness (tests check it ends). */
  get pid(): number {
    return this.harness.pid;
  }

  private next(kind: 'outputs' | 'ack' | 'frames'): (typeof this.waiters)[number] {
    const waiter = this.waiters.shift();
    if (!waiter || waiter.kind !== kind)
      throw new ToolError(this.engine, `harness answered with an unexpected ${kind} frame`);
    if (this.waiters.length === 0) this.harness.unwatch();
    return waiter;
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiter of this.waiters.splice(0)) waiter.reject(this.failure);
    this.harness.kill();
  }

  private live(): void {
    if (this.failure) throw this.failure;
    if (this.closing) throw new UserError(`the ${this.engine} session of ${this.ports.top} is closed`);
  }

  /** Sends the commands so far and waits for one answer, watched for `cycles` cycles of work. */
  private ask<T extends PortValues | number | PortFrames>(
    kind: 'outputs' | 'ack' | 'frames',
    cycles: number,
  ): Promise<T> {
    return this.askAll([kind], cycles)[0] as Promise<T>;
  }

  /**
   * Sends the commands so far and waits for their answers, in order, under one watchdog. Every
   * answer is marked handled: when an earlier one rejects, the caller never awaits the later ones.
   */
  private askAll(kinds: readonly ('outputs' | 'ack' | 'frames')[], cycles: number): Promise<unknown>[] {
    const answers = kinds.map((kind) => {
      const answer = new Promise<unknown>((resolve, reject) => this.waiters.push({ kind, resolve, reject }));
      answer.catch(() => {});
      return answer;
    });
    this.harness.watch(this.options.timeout(cycles));
    void this.harness.write(this.commands.take());
    return answers;
  }

  poke(name: string, value: bigint | number): void {
    this.live();
    const input = this.inputs.get(name);
    if (!input)
      throw new UserError(
        `${this.ports.top} has no input '${name}' (inputs: ${[...this.inputs.keys()].join(', ') || 'none'})`,
      );
    const big = typeof value === 'bigint' ? value : Number.isInteger(value) ? BigInt(value) : -1n;
    if (big < 0n || big >> BigInt(input.width) !== 0n)
      throw new UserError(`value ${value} does not fit the ${input.width}-bit input '${name}'`);
    if (big === input.value) return;
    input.value = big;
    this.sampled = undefined;
    this.commands.poke(input.index, big);
  }

  async peek(name: string): Promise<bigint> {
    if (!this.outputNames.has(name))
      throw new UserError(
        `${this.ports.top} has no output '${name}' (outputs: ${[...this.outputNames].join(', ') || 'none'})`,
      );
    return (await this.peekAll())[name]!;
  }

  async peekAll(): Promise<PortValues> {
    this.live();
    if (this.sampled) return { ...this.sampled };
    this.commands.peek();
    this.sampled = await this.ask<PortValues>('outputs', 1);
    return { ...this.sampled };
  }

  async step(cycles = 1): Promise<void> {
    this.live();
    if (!Number.isSafeInteger(cycles) || cycles < 0 || cycles > 0xffffffff)
      throw new UserError(`step: ${cycles} is not a count of cycles`);
    if (cycles === 0) return;
    this.sampled = undefined;
    if (this.ports.clocks) {
      // Several clocks: one step command per step of the clock schedule, acknowledged after the last.
      for (let index = 0; index < cycles; index++) this.clockStep(index === cycles - 1 ? STEP_ACK : 0);
    } else this.commands.step(cycles, STEP_ACK | (this.waitsInHarness ? STEP_PEEK : 0));
    // With STEP_PEEK the new cycle's outputs come with the ack: a peek after the step is answered here.
    const [ack, outputs] = this.askAll(this.waitsInHarness ? ['ack', 'outputs'] : ['ack'], cycles);
    this.stepped = (await ack) as number;
    // Outputs that cannot be read (X or Z on Icarus) fail the peek that asks for them, not the step.
    if (outputs) this.sampled = (await outputs.catch(() => undefined)) as PortValues | undefined;
    await this.stopAtFailure();
  }

  /**
   * The harness samples after a step and waits on output values by itself (STEP_PEEK, OP_WAIT):
   * one clock (several step through the clock schedule from here) and no checks, whose lines an
   * extra sample could add to and a stop-mode wait must stop at.
   */
  private get waitsInHarness(): boolean {
    return !this.ports.clocks && !this.ports.checked;
  }

  async waitFor(values: Readonly<Record<string, bigint | number>>, limit: number): Promise<number | undefined> {
    this.live();
    const condition = outputCondition(this.ports, values);
    const cycles = waitLimit(limit);
    if (!this.waitsInHarness) return waitByStepping(this, condition, cycles);
    if (this.sampled && conditionHolds(condition, this.sampled)) return 0;
    this.sampled = undefined;
    this.commands.wait(cycles, condition.value.words, condition.mask.words);
    const [outputs, ack] = this.askAll(['outputs', 'ack'], cycles);
    // The ack comes after the outputs: once it is here, the cycles stepped are known even when the
    // outputs could not be read (X or Z on Icarus).
    const stepped = (await ack) as number;
    const waited = stepped - this.stepped;
    this.stepped = stepped;
    const sampled = (await outputs) as PortValues;
    this.sampled = sampled;
    return conditionHolds(condition, sampled) ? waited : undefined;
  }

  async runFrames(inputs: PortFrames): Promise<PortFrames> {
    this.live();
    const frames = stimulusFrames(this.ports, inputs);
    if (frames.cycles === 0) return PortFrames.empty(this.ports.outputs, 0);
    this.sampled = undefined;
    // The inputs as the harness holds them, as words: a run pokes only the ones that change.
    const held = PortFrames.empty(this.ports.inputs, 1);
    for (const [name, input] of this.inputs) held.set(0, name, input.value);
    frameCommands(
      this.commands,
      this.ports,
      frames,
      held.words,
      this.ports.clocks ? () => this.clockStep(STEP_SAMPLE) : undefined,
    );
    for (const [name, input] of this.inputs) input.value = held.value(0, name);
    this.filling = { frames: PortFrames.empty(this.ports.outputs, frames.cycles), filled: 0 };
    const outputs = await this.ask<PortFrames>('frames', frames.cycles);
    this.stepped += frames.cycles;
    await this.stopAtFailure();
    return outputs;
  }

  /** One step of the clock schedule of a design with several clocks (engine.ts). */
  private clockStep(flags: number): void {
    this.schedule ??= clockSteps(this.ports.clocks!, this.options.clocks);
    this.upcoming ??= this.schedule.next();
    const step = this.upcoming;
    this.upcoming = this.schedule.next();
    this.commands.clockStep(step, this.upcoming.sample, flags);
  }

  /** In stop mode, the first failing check ends the session, as in a batch run (the waveform up to here kept). */
  private async stopAtFailure(): Promise<void> {
    const failure = this.options.mode === 'stop' ? this.checkLog?.failures[0] : undefined;
    if (failure) {
      await this.close();
      throw new CheckFailedError(failure, this.engine);
    }
  }

  async abort(): Promise<void> {
    if (this.closing) return;
    // The harness killed, the trace run fails: withEngineTrace removes its raw file and temporary.
    this.fail(new ToolError(this.engine, 'the session was aborted'));
    this.closing = Promise.resolve({});
    await (this.finished ?? this.ended).catch(() => {});
  }

  close(): Promise<{ checks?: CheckResults }> {
    this.closing ??= (async () => {
      if (!this.failure) {
        this.commands.end();
        await this.harness.write(this.commands.take());
        this.harness.closeInput();
        this.harness.watch(this.options.timeout(0));
      }
      try {
        await (this.finished ?? this.ended);
      } finally {
        this.harness.unwatch();
        this.harness.kill();
      }
      if (this.failure) throw this.failure;
      return this.checkLog ? { checks: this.checkLog.results(1)[0]! } : {};
    })();
    return this.closing;
  }
}
