import { UserError } from '../common/errors.ts';

/*
 * Technology scaling after Stillmaker & Baas, "Scaling equations for the accurate prediction of
 * CMOS device performance from 180 nm to 7 nm", Integration 58 (2017) 74–81, as implemented by
 * nodeScale.py (github.com/wromaszkan/nodeScale, commit 0676b74). Coefficients and the area table
 * are copied from docs/reference/facts.md §2, which lists only the rows below (no LP14/LP10 there).
 */

export type Flavor = 'HP' | 'LP';
export type Node = 45 | 14 | 10 | 7;

interface Coefficients {
  /** delay(V) = a3·V³ + a2·V² + a1·V + a0 */
  readonly delay: readonly [number, number, number, number];
  /** energy(V) = b2·V² + b1·V + b0 */
  readonly energy: readonly [number, number, number];
  /** power(V) = c2·V² + c1·V + c0 */
  readonly power: readonly [number, number, number];
}

const coefficients: Readonly<Record<string, Coefficients>> = {
  HP45: { delay: [-501.6, 1567, -1619, 566.1], energy: [1.018, -0.3107, 0.1539], power: [5462, -1760, 522.4] },
  LP45: { delay: [-285.7, 1239, -1795, 898.8], energy: [1.103, -0.362, 0.2767], power: [6297, -3009, 1124] },
  HP14: { delay: [-40.66, 109.2, -100.6, 35.92], energy: [0.2363, -0.09675, 0.02239], power: [1675, -711, 159] },
  HP10: { delay: [-34.95, 93.65, -85.99, 30.4], energy: [0.2068, -0.09311, 0.02375], power: [1456, -621.6, 143.8] },
  HP7: { delay: [-28.58, 76.6, -70.26, 24.69], energy: [0.1776, -0.09097, 0.02447], power: [1179, -515.7, 123.4] },
  LP7: { delay: [-61.79, 196.1, -210.3, 79.55], energy: [0.09365, -0.03409, 0.02043], power: [815.2, -307.3, 87.54] },
};

/** nodeScale `areaDict` row for 45 nm: area at the target node = area at 45 nm × this. */
const areaFrom45: Readonly<Record<Node, number>> = { 45: 1, 14: 0.17, 10: 0.1, 7: 0.059 };

/** Nominal supply per node (PTM values quoted in facts.md §2). */
export const nominalVdd: Readonly<Record<Node, number>> = { 45: 1.0, 14: 0.8, 10: 0.75, 7: 0.7 };

/** A technology point: node, device flavour and supply voltage. */
export interface TechPoint {
  readonly node: Node;
  readonly flavor: Flavor;
  readonly vdd: number;
}

/** Multiply a value at the source point by these to get it at the target point. */
export interface ScalingFactors {
  readonly area: number;
  readonly delay: number;
  readonly energy: number;
  readonly power: number;
}

/**
 * Default scaling: our library is NanGate45 characterized at 1.1 V, so the source is HP45 at
 * 1.1 V (not Stillmaker's 1.0 V nominal, which would mis-state the energies we measured), and the
 * target is HP7 at its nominal 0.7 V. Which flavour and supply the paper used is not known.
 */
export const defaultSource: TechPoint = { node: 45, flavor: 'HP', vdd: 1.1 };
export const defaultTarget: TechPoint = { node: 7, flavor: 'HP', vdd: 0.7 };

export const supportedNodes: readonly Node[] = [45, 14, 10, 7];

function coefficientsOf(point: TechPoint): Coefficients {
  const found = coefficients[`${point.flavor}${point.node}`];
  if (!found)
    throw new UserError(
      `no Stillmaker coefficients for ${point.flavor}${point.node} (facts.md §2 lists HP45, LP45, HP14, HP10, HP7, LP7)`,
    );
  return found;
}

const polynomial = (terms: readonly number[], v: number): number => terms.reduce((sum, term) => sum * v + term, 0);

/** Stillmaker delay, energy and power curves at one point (arbitrary units; only ratios mean anything). */
export function rawFactors(point: TechPoint): { delay: number; energy: number; power: number } {
  const c = coefficientsOf(point);
  return {
    delay: polynomial(c.delay, point.vdd),
    energy: polynomial(c.energy, point.vdd),
    power: polynomial(c.power, point.vdd),
  };
}

/** Factors from `source` to `target`; area uses the 45 nm row of the area table, so one end must be 45 nm. */
export function scalingFactors(source: TechPoint = defaultSource, target: TechPoint = defaultTarget): ScalingFactors {
  if (source.node !== 45) throw new UserError(`scaling starts from 45 nm (the library's node), not ${source.node} nm`);
  const from = rawFactors(source);
  const to = rawFactors(target);
  return {
    area: areaFrom45[target.node],
    delay: to.delay / from.delay,
    energy: to.energy / from.energy,
    power: to.power / from.power,
  };
}
