/**
 * The shape of one standard cell in the project's 45 nm library. Everything the Liberty writer,
 * the behavioural Verilog models, the area/power/timing estimators need is here, so they all
 * read one table (`nangate45.ts`) and cannot disagree.
 */

/** Where a figure came from: read from docs/reference/facts.md §4, or a plausible value we assumed. */
export type Provenance = 'facts' | 'assumed';

export interface InputPin {
  readonly name: string;
  /** Input capacitance in fF. */
  readonly capacitanceFf: number;
  readonly capacitanceSource: Provenance;
  /** Internal energy per transition of this pin alone (flip-flop D/CK pins), fJ. */
  readonly energyFj?: number;
}

export interface OutputPin {
  readonly name: string;
  /**
   * Boolean function in Liberty syntax over the cell's inputs (`!`, `&`, `|`, `^`, parentheses);
   * for flip-flops, the state variable (`IQ`, `IQN`).
   */
  readonly function: string;
  /** Internal energy per output transition, fJ: the mean over the arcs that drive this pin. */
  readonly energyFj: number;
  /** Worst arc delay to this pin at the facts.md table index, ps. */
  readonly delayPs: number;
  readonly delaySource: Provenance;
}

/** Edge-triggered storage (rising edge): Liberty `ff (IQ, IQN)` group. */
export interface FlipFlop {
  readonly clock: string;
  readonly data: string;
  /** Active-low asynchronous clear pin, if the cell has one. */
  readonly clearLow?: string;
  /** Setup time of the data pin to the clock, ps. */
  readonly setupPs: number;
  readonly setupSource: Provenance;
}

export interface CellSpec {
  readonly name: string;
  /** µm² */
  readonly area: number;
  /** nW */
  readonly leakageNw: number;
  readonly inputs: readonly InputPin[];
  readonly outputs: readonly OutputPin[];
  readonly flipFlop?: FlipFlop;
  /** Why a figure is what it is, when that is not obvious from the table. */
  readonly note?: string;
}

/** A whole library: the cells plus the operating point they were characterized at. */
export interface CellLibrary {
  readonly name: string;
  readonly voltage: number;
  readonly temperatureC: number;
  /** Wire capacitance added per driven input pin when estimating net capacitance, fF. */
  readonly wireCapPerFanoutFf: number;
  readonly cells: readonly CellSpec[];
}
