import type { SourceLocation } from './sourceLocation.ts';

/**
 * A named clock domain (Amaranth's ClockDomain, Chisel's withClockAndReset): its own clock and
 * reset inputs, `clk_<name>` and `rst_<name>`, on the module that declares it (and on each parent,
 * which passes them down). Registers and memories made in it (`m.withDomain`, or a `domain`
 * option) are clocked by it; its reset is synchronous or asynchronous (acts while high, without
 * waiting for the clock).
 */
export class ClockDomain {
  constructor(
    readonly name: string,
    readonly resetKind: 'sync' | 'async',
    readonly location: SourceLocation,
  ) {}
  /** The clock input's name. */
  get clock(): string {
    return `clk_${this.name}`;
  }
  /** The reset input's name (active high). */
  get reset(): string {
    return `rst_${this.name}`;
  }
}
