/**
 * Golden models of the stream library, cycle by cycle and port by port: the same phases as the
 * engines (outputs from this cycle's inputs, then the edge). Port names are the flattened ones
 * (`in_valid`, `out_0_ready`). Data outputs are given only while their `valid` is 1 (an idle
 * stream's data is unspecified); everything else every cycle.
 */
export type Ports = Record<string, bigint>;

export interface StreamModel {
  /** The outputs of this cycle, given its inputs (no state change). */
  outputs(inputs: Ports): Ports;
  /** The clock edge with these inputs. */
  step(inputs: Ports): void;
}

const bit = (value: boolean): bigint => (value ? 1n : 0n);
const on = (inputs: Ports, name: string): boolean => (inputs[name] ?? 0n) === 1n;

export class FifoModel implements StreamModel {
  private readonly words: bigint[] = [];
  constructor(readonly depth: number) {}

  get inReady(): boolean {
    return this.words.length < this.depth;
  }

  outputs(inputs: Ports): Ports {
    void inputs;
    const valid = this.words.length > 0;
    return {
      in_ready: bit(this.inReady),
      out_valid: bit(valid),
      ...(valid ? { out_data: this.words[0]! } : {}),
      count: BigInt(this.words.length),
    };
  }

  step(inputs: Ports): void {
    const push = on(inputs, 'in_valid') && this.inReady;
    if (this.words.length > 0 && on(inputs, 'out_ready')) this.words.shift();
    if (push) this.words.push(inputs.in_data ?? 0n);
  }
}

export class SkidModel implements StreamModel {
  private main: bigint | undefined;
  private skid: bigint | undefined;

  get inReady(): boolean {
    return this.skid === undefined;
  }

  outputs(inputs: Ports): Ports {
    void inputs;
    return {
      in_ready: bit(this.inReady),
      out_valid: bit(this.main !== undefined),
      ...(this.main === undefined ? {} : { out_data: this.main }),
    };
  }

  step(inputs: Ports): void {
    const accepted = on(inputs, 'in_valid') && this.inReady ? (inputs.in_data ?? 0n) : undefined;
    if (this.main === undefined || on(inputs, 'out_ready')) {
      this.main = this.skid ?? accepted;
      this.skid = undefined;
    } else if (accepted !== undefined) this.skid = accepted;
  }
}

export class ArbiterModel implements StreamModel {
  private last: number;
  private locked: number | undefined;
  constructor(readonly inputs: number) {
    this.last = inputs - 1;
  }

  private chosen(inputs: Ports): number | undefined {
    if (this.locked !== undefined) return this.locked;
    for (let offset = 1; offset <= this.inputs; offset++) {
      const candidate = (this.last + offset) % this.inputs;
      if (on(inputs, `in_${candidate}_valid`)) return candidate;
    }
    return undefined;
  }

  outputs(inputs: Ports): Ports {
    const chosen = this.chosen(inputs);
    const result: Ports = { out_valid: bit(chosen !== undefined) };
    if (chosen !== undefined) {
      result.out_data = inputs[`in_${chosen}_data`] ?? 0n;
      result.grant = BigInt(chosen);
    }
    for (let index = 0; index < this.inputs; index++)
      result[`in_${index}_ready`] = bit(chosen === index && on(inputs, 'out_ready'));
    return result;
  }

  step(inputs: Ports): void {
    const chosen = this.chosen(inputs);
    if (chosen === undefined) return;
    if (on(inputs, 'out_ready')) {
      this.last = chosen;
      this.locked = undefined;
    } else this.locked = chosen;
  }
}

export class ForkModel implements StreamModel {
  private readonly done: boolean[];
  constructor(readonly outputCount: number) {
    this.done = Array.from({ length: outputCount }, () => false);
  }

  outputs(inputs: Ports): Ports {
    const valid = on(inputs, 'in_valid');
    const result: Ports = {
      in_ready: bit(this.done.every((done, index) => done || on(inputs, `out_${index}_ready`))),
    };
    this.done.forEach((done, index) => {
      result[`out_${index}_valid`] = bit(valid && !done);
      if (valid && !done) result[`out_${index}_data`] = inputs.in_data ?? 0n;
    });
    return result;
  }

  step(inputs: Ports): void {
    const accepted = on(inputs, 'in_valid') && this.outputs(inputs).in_ready === 1n;
    this.done.forEach((done, index) => {
      this.done[index] = !accepted && (done || (on(inputs, 'in_valid') && on(inputs, `out_${index}_ready`)));
    });
  }
}

export class JoinModel implements StreamModel {
  constructor(
    readonly inputCount: number,
    readonly width: number,
  ) {}

  outputs(inputs: Ports): Ports {
    const valid = Array.from({ length: this.inputCount }, (_, index) => on(inputs, `in_${index}_valid`)).every(Boolean);
    const result: Ports = { out_valid: bit(valid) };
    if (valid) {
      let data = 0n;
      for (let index = this.inputCount - 1; index >= 0; index--)
        data = (data << BigInt(this.width)) | (inputs[`in_${index}_data`] ?? 0n);
      result.out_data = data;
    }
    for (let index = 0; index < this.inputCount; index++)
      result[`in_${index}_ready`] = bit(valid && on(inputs, 'out_ready'));
    return result;
  }

  step(): void {}
}

/**
 * A chain of FIFOs and skid buffers, first to last (`in` of the first is the chain's `in`, `out`
 * of the last its `out`): each stage's `in_ready` depends on its state only, so the chain's
 * outputs follow from the stages' in turn.
 */
export class ChainModel implements StreamModel {
  constructor(readonly stages: readonly (FifoModel | SkidModel)[]) {}

  private stageInputs(inputs: Ports): Ports[] {
    const result: Ports[] = [];
    let valid = inputs.in_valid ?? 0n;
    let data = inputs.in_data ?? 0n;
    this.stages.forEach((stage, index) => {
      const next = this.stages[index + 1];
      const ready = next === undefined ? (inputs.out_ready ?? 0n) : bit(next.inReady);
      const own: Ports = { in_valid: valid, in_data: data, out_ready: ready };
      result.push(own);
      const out = stage.outputs(own);
      valid = out.out_valid!;
      data = out.out_data ?? 0n;
    });
    return result;
  }

  outputs(inputs: Ports): Ports {
    const own = this.stageInputs(inputs);
    const first = this.stages[0]!.outputs(own[0]!);
    const last = this.stages[this.stages.length - 1]!.outputs(own[own.length - 1]!);
    return {
      in_ready: first.in_ready!,
      out_valid: last.out_valid!,
      ...(last.out_data === undefined ? {} : { out_data: last.out_data }),
    };
  }

  step(inputs: Ports): void {
    const own = this.stageInputs(inputs);
    this.stages.forEach((stage, index) => stage.step(own[index]!));
  }
}
