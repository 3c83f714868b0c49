import { describe, expect, it } from 'vitest';
import { defaultSource, defaultTarget, rawFactors, scalingFactors, type TechPoint } from '../../synth/scaling.ts';

const point = (flavor: 'HP' | 'LP', node: 45 | 7, vdd: number): TechPoint => ({ flavor, node, vdd });

/** docs/reference/facts.md §2, "Computed 45 nm → 7 nm factors". */
const factsTable: { from: TechPoint; to: TechPoint; area: number; delay: number; energy: number; power: number }[] = [
  { from: point('HP', 45, 1.0), to: point('HP', 7, 0.7), area: 0.0588, delay: 0.2591, energy: 0.0555, power: 0.0805 },
  { from: point('HP', 45, 1.1), to: point('HP', 7, 0.7), area: 0.0588, delay: 0.2375, energy: 0.0458, power: 0.0655 },
  { from: point('LP', 45, 1.0), to: point('LP', 7, 0.7), area: 0.0588, delay: 0.1267, energy: 0.0417, power: 0.0616 },
  { from: point('LP', 45, 1.1), to: point('LP', 7, 0.7), area: 0.0588, delay: 0.1674, energy: 0.035, power: 0.05 },
  { from: point('HP', 45, 1.0), to: point('LP', 7, 0.7), area: 0.0588, delay: 0.5788, energy: 0.0493, power: 0.0644 },
];

/** Equal to the printed digits: the relative error stays within half a unit of the last printed digit. */
function expectPrinted(actual: number, printed: number, digits: number): void {
  expect(Number(actual.toPrecision(digits))).toBeCloseTo(printed, 6);
}

describe('Stillmaker & Baas scaling', () => {
  it.each(factsTable)(
    'reproduces facts.md §2: $from.flavor$from.node@$from.vdd → $to.flavor$to.node@$to.vdd',
    (row) => {
      const factors = scalingFactors(row.from, row.to);
      // facts.md prints the area factor as 0.0588 (= 1/17); nodeScale's table holds 0.059.
      expect(factors.area).toBeCloseTo(row.area, 3);
      expectPrinted(factors.delay, row.delay, 4);
      expectPrinted(factors.energy, row.energy, 3);
      expectPrinted(factors.power, row.power, 3);
    },
  );

  it('reproduces the raw curve values facts.md prints', () => {
    expect(rawFactors(point('HP', 45, 1.0)).delay).toBeCloseTo(12.5, 3);
    expect(rawFactors(point('HP', 7, 0.7)).delay).toBeCloseTo(3.239, 3);
    expect(rawFactors(point('HP', 45, 1.0)).energy).toBeCloseTo(0.8612, 4);
    expect(rawFactors(point('HP', 7, 0.7)).energy).toBeCloseTo(0.0478, 4);
    expect(rawFactors(point('HP', 45, 1.0)).power).toBeCloseTo(4224.4, 1);
    expect(rawFactors(point('HP', 7, 0.7)).power).toBeCloseTo(340.1, 1);
  });

  it('defaults to HP45 at the library voltage (1.1 V) → HP7 at 0.7 V', () => {
    expect(defaultSource).toEqual(point('HP', 45, 1.1));
    expect(defaultTarget).toEqual(point('HP', 7, 0.7));
    expect(scalingFactors().delay).toBeCloseTo(0.2375, 4);
  });

  it('is the identity from a point to itself, and refuses rows facts.md does not list', () => {
    const same = scalingFactors(point('HP', 45, 1.1), point('HP', 45, 1.1));
    expect(same).toEqual({ area: 1, delay: 1, energy: 1, power: 1 });
    expect(() => scalingFactors(point('HP', 45, 1.1), { node: 14, flavor: 'LP', vdd: 0.8 })).toThrow(
      /no Stillmaker coefficients for LP14/,
    );
  });
});
