import { FileFormatError } from '../../common/errors.ts';

/** Toggle counts per dumped signal, by full hierarchical name (`tb.dut.cell.ZN`), one count per bit (index 0 = LSB). */
export type ToggleCounts = ReadonlyMap<string, readonly number[]>;

interface Variable {
  readonly names: string[];
  readonly width: number;
  /** Last value, MSB first, one of 0/1/x/z per bit; undefined before the first value. */
  last?: string;
  readonly toggles: number[];
}

/** IEEE 1364 §18.2: a shorter vector value is extended on the left with 0, or with x/z if it starts with one. */
function extend(value: string, width: number): string {
  if (value.length >= width) return value.slice(value.length - width);
  const head = value[0] === 'x' || value[0] === 'z' ? value[0] : '0';
  return head.repeat(width - value.length) + value;
}

function record(variable: Variable, raw: string): void {
  const value = extend(raw.toLowerCase(), variable.width);
  const last = variable.last;
  if (last !== undefined) {
    for (let index = 0; index < variable.width; index++) {
      const before = last[index];
      const after = value[index];
      // Only a known-to-known change is a transition that costs energy; X resolution is not.
      if (before !== after && (before === '0' || before === '1') && (after === '0' || after === '1')) {
        const bit = variable.width - 1 - index;
        variable.toggles[bit] = (variable.toggles[bit] ?? 0) + 1;
      }
    }
  }
  variable.last = value;
}

/**
 * Counts 0↔1 transitions of every variable in a VCD (value changes only; the first value of a
 * variable is its initial state, not a toggle). Minimal by design: enough for the activity
 * dumps of the gate-level power simulation.
 */
export function countVcdToggles(text: string, file = 'activity.vcd'): ToggleCounts {
  const variables = new Map<string, Variable>();
  const scopes: string[] = [];
  const tokens = text.split(/\s+/).filter((token) => token.length > 0);
  let index = 0;
  const take = (): string => {
    const token = tokens[index++];
    if (token === undefined) throw new FileFormatError(file, 'ends inside a declaration');
    return token;
  };
  const skipToEnd = (): void => {
    while (take() !== '$end');
  };
  // Header: declarations up to $enddefinitions.
  while (index < tokens.length) {
    const token = take();
    if (token === '$enddefinitions') {
      skipToEnd();
      break;
    }
    if (token === '$scope') {
      take();
      scopes.push(take());
      skipToEnd();
    } else if (token === '$upscope') {
      scopes.pop();
      skipToEnd();
    } else if (token === '$var') {
      take();
      const width = Number(take());
      const code = take();
      const name = [...scopes, take()].join('.');
      skipToEnd();
      if (!Number.isInteger(width) || width < 1) throw new FileFormatError(file, `variable ${name} has width ${width}`);
      const existing = variables.get(code);
      if (existing) existing.names.push(name);
      else variables.set(code, { names: [name], width, toggles: new Array<number>(width).fill(0) });
    } else if (token.startsWith('$')) {
      skipToEnd();
    }
  }
  // Body: timestamps, value changes, and $dumpvars/$end brackets around initial values.
  while (index < tokens.length) {
    const token = take();
    const head = token[0];
    if (token === '$comment') skipToEnd();
    if (head === '#' || head === '$') continue;
    if (head === 'b' || head === 'B') {
      const variable = variables.get(take());
      if (variable) record(variable, token.slice(1));
    } else if (head === 'r' || head === 'R') {
      take();
    } else if (head !== undefined && '01xzXZ'.includes(head)) {
      const variable = variables.get(token.slice(1));
      if (variable) record(variable, head);
    } else {
      throw new FileFormatError(file, `unexpected token "${token}" in value changes`);
    }
  }
  const counts = new Map<string, readonly number[]>();
  for (const variable of variables.values()) for (const name of variable.names) counts.set(name, variable.toggles);
  return counts;
}
