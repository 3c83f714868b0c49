import type { CellLibrary, CellSpec, InputPin, OutputPin, Provenance } from './cellTypes.ts';

/*
 * The project's 45 nm standard-cell library, as data. Area, leakage, internal energy and delay come
 * from docs/reference/facts.md §4 (NanGate FreePDK45 Open Cell Library, typical corner, 25 °C, 1.1 V):
 * energy per output is the mean of the arcs facts.md lists (the midpoint where it gives only a
 * range), delay is the worst arc it lists. facts.md has no pin capacitances, no setup times and no
 * delays for some multi-input cells: those are plausible NanGate-like values, marked 'assumed'.
 */

const mean = (...values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;

/** An input pin whose capacitance is assumed (facts.md lists none). */
const input = (name: string, capacitanceFf: number, energyFj?: number): InputPin =>
  energyFj === undefined
    ? { name, capacitanceFf, capacitanceSource: 'assumed' }
    : { name, capacitanceFf, capacitanceSource: 'assumed', energyFj };

const output = (
  name: string,
  fn: string,
  energyFj: number,
  delayPs: number,
  delaySource: Provenance = 'facts',
): OutputPin => ({
  name,
  function: fn,
  energyFj,
  delayPs,
  delaySource,
});

const cells: CellSpec[] = [
  {
    name: 'INV_X1',
    area: 0.532,
    leakageNw: 14.35,
    inputs: [input('A', 1.7)],
    outputs: [output('ZN', '!A', 0.948, 17.8)],
  },
  {
    name: 'BUF_X1',
    area: 0.798,
    leakageNw: 21.44,
    inputs: [input('A', 0.97)],
    outputs: [output('Z', 'A', 2.353, 32.7)],
  },
  {
    name: 'NAND2_X1',
    area: 0.798,
    leakageNw: 17.39,
    inputs: [input('A1', 1.6), input('A2', 1.66)],
    outputs: [output('ZN', '!(A1 & A2)', mean(1.179, 1.505), 23.1)],
  },
  {
    name: 'NAND3_X1',
    area: 1.064,
    leakageNw: 18.1,
    inputs: [input('A1', 1.59), input('A2', 1.62), input('A3', 1.65)],
    outputs: [output('ZN', '!(A1 & A2 & A3)', mean(1.47, 2.11), 30, 'assumed')],
  },
  {
    name: 'NAND4_X1',
    area: 1.33,
    leakageNw: 18.13,
    inputs: [input('A1', 1.52), input('A2', 1.57), input('A3', 1.6), input('A4', 1.64)],
    outputs: [output('ZN', '!(A1 & A2 & A3 & A4)', mean(1.85, 2.79), 36, 'assumed')],
  },
  {
    name: 'NOR2_X1',
    area: 0.798,
    leakageNw: 21.2,
    inputs: [input('A1', 1.71), input('A2', 1.65)],
    outputs: [output('ZN', '!(A1 | A2)', mean(1.137, 1.569), 21.8)],
  },
  {
    name: 'NOR3_X1',
    area: 1.064,
    leakageNw: 26.83,
    inputs: [input('A1', 1.62), input('A2', 1.61), input('A3', 1.6)],
    outputs: [output('ZN', '!(A1 | A2 | A3)', mean(1.25, 2.16), 38, 'assumed')],
  },
  {
    name: 'AND2_X1',
    area: 1.064,
    leakageNw: 25.07,
    inputs: [input('A1', 0.92), input('A2', 0.98)],
    outputs: [output('ZN', '(A1 & A2)', mean(2.502, 2.667), 39.4)],
  },
  {
    name: 'AND3_X1',
    area: 1.33,
    leakageNw: 26.48,
    inputs: [input('A1', 0.88), input('A2', 0.93), input('A3', 0.97)],
    outputs: [output('ZN', '(A1 & A2 & A3)', mean(2.7, 3.0), 45, 'assumed')],
  },
  {
    name: 'AND4_X1',
    area: 1.596,
    leakageNw: 27.02,
    inputs: [input('A1', 0.86), input('A2', 0.9), input('A3', 0.93), input('A4', 0.96)],
    outputs: [output('ZN', '(A1 & A2 & A3 & A4)', mean(2.89, 3.34), 50, 'assumed')],
  },
  {
    name: 'OR2_X1',
    area: 1.064,
    leakageNw: 22.69,
    inputs: [input('A1', 0.95), input('A2', 0.9)],
    outputs: [output('ZN', '(A1 | A2)', mean(2.346, 2.641), 45.6)],
  },
  {
    name: 'OR3_X1',
    area: 1.33,
    leakageNw: 24.41,
    inputs: [input('A1', 0.91), input('A2', 0.9), input('A3', 0.88)],
    outputs: [output('ZN', '(A1 | A2 | A3)', mean(2.51, 3.07), 55, 'assumed')],
  },
  {
    name: 'XOR2_X1',
    area: 1.596,
    leakageNw: 36.16,
    inputs: [input('A', 2.23), input('B', 2.36)],
    outputs: [output('Z', '(A ^ B)', mean(2.845, 3.05), 52.3)],
  },
  {
    name: 'XNOR2_X1',
    area: 1.596,
    leakageNw: 36.44,
    inputs: [input('A', 2.22), input('B', 2.57)],
    outputs: [output('ZN', '!(A ^ B)', mean(2.823, 2.953), 41.4)],
  },
  {
    name: 'AOI21_X1',
    area: 1.064,
    leakageNw: 27.86,
    inputs: [input('A', 1.63), input('B1', 1.65), input('B2', 1.68)],
    outputs: [output('ZN', '!(A | (B1 & B2))', mean(2.385, 1.363, 1.715), 28.1)],
  },
  {
    name: 'OAI21_X1',
    area: 1.064,
    leakageNw: 22.62,
    inputs: [input('A', 1.67), input('B1', 1.67), input('B2', 1.55)],
    outputs: [output('ZN', '!(A & (B1 | B2))', mean(2.152, 1.379, 1.93), 26.6)],
  },
  {
    name: 'AOI22_X1',
    area: 1.33,
    leakageNw: 32.61,
    inputs: [input('A1', 1.68), input('A2', 1.7), input('B1', 1.59), input('B2', 1.68)],
    outputs: [output('ZN', '!((A1 & A2) | (B1 & B2))', mean(1.49, 2.92), 35, 'assumed')],
  },
  {
    name: 'OAI22_X1',
    area: 1.33,
    leakageNw: 34.03,
    inputs: [input('A1', 1.6), input('A2', 1.6), input('B1', 1.56), input('B2', 1.62)],
    outputs: [output('ZN', '!((A1 | A2) & (B1 | B2))', mean(1.55, 2.83), 38, 'assumed')],
  },
  {
    name: 'MUX2_X1',
    area: 1.862,
    leakageNw: 35.93,
    inputs: [input('A', 0.95), input('B', 1.0), input('S', 1.92)],
    outputs: [output('Z', '((A & !S) | (B & S))', mean(3.015, 2.984, 3.794), 62)],
    note: 'S = 1 selects B, as in NanGate.',
  },
  {
    name: 'HA_X1',
    area: 2.66,
    leakageNw: 61.23,
    inputs: [input('A', 3.19), input('B', 3.4)],
    outputs: [output('CO', '(A & B)', mean(2.05, 2.31), 39), output('S', '(A ^ B)', mean(3.19, 3.27), 53)],
    note: 'Multi-output: ABC maps to single-output cells only, so synthesis never picks it; kept for completeness.',
  },
  {
    name: 'FA_X1',
    area: 4.256,
    leakageNw: 75.76,
    inputs: [input('A', 3.75), input('B', 3.61), input('CI', 2.66)],
    outputs: [
      output('CO', '((A & B) | (CI & (A | B)))', mean(3.56, 3.73), 110),
      output('S', '(A ^ B ^ CI)', mean(3.43, 3.59), 110),
    ],
    note: 'Multi-output: ABC never picks it (see HA_X1). facts.md gives 61–110 ps without the arc; both use 110.',
  },
  {
    name: 'DFF_X1',
    area: 4.522,
    leakageNw: 79.11,
    inputs: [input('D', 1.14, 1.832), input('CK', 0.95, 3.601)],
    outputs: [output('Q', 'IQ', 4.198, 93), output('QN', 'IQN', 4.218, 93)],
    flipFlop: { clock: 'CK', data: 'D', setupPs: 40, setupSource: 'assumed' },
  },
  {
    name: 'DFFR_X1',
    area: 5.32,
    leakageNw: 86.21,
    inputs: [input('D', 1.14, 1.895), input('RN', 1.41), input('CK', 0.95, 4.804)],
    outputs: [output('Q', 'IQ', 4.776, 104), output('QN', 'IQN', 4.776, 104)],
    flipFlop: { clock: 'CK', data: 'D', clearLow: 'RN', setupPs: 40, setupSource: 'assumed' },
    note: 'facts.md has no CK→QN energy for DFFR_X1; QN reuses CK→Q.',
  },
];

/** The NanGate FreePDK45 typical-corner subset the project synthesizes to. */
export const nangate45: CellLibrary = {
  name: 'coruscant_nangate45_typ',
  voltage: 1.1,
  temperatureC: 25,
  // NanGate's 5K_hvratio_1_1 wire-load model puts ≈0.2–0.3 fF of wire on each fanout at this
  // size; 0.25 fF per driven pin is our stated estimate.
  wireCapPerFanoutFf: 0.25,
  cells,
};
