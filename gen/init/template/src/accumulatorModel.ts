/** One cycle of the accumulator's inputs. */
export interface AccumulatorInputs {
  readonly reset: boolean;
  readonly enable: boolean;
  readonly value: bigint;
}

/**
 * The golden model: the `sum` output in each cycle (sampled before that cycle's clock edge, as
 * every engine samples outputs), written without any of the hardware's code.
 */
export function accumulatorSums(width: number, cycles: readonly AccumulatorInputs[]): bigint[] {
  const modulus = 1n << BigInt(width);
  let sum = 0n;
  return cycles.map((cycle) => {
    const shown = sum;
    if (cycle.reset) sum = 0n;
    else if (cycle.enable) sum = (sum + cycle.value) % modulus;
    return shown;
  });
}
