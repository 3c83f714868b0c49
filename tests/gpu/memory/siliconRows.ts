import { expect, it } from 'vitest';
import { modelValue, type SiliconRow } from '../h200Silicon.ts';

/**
 * One test per row: the model within 10 % of silicon, or, for a known miss (with its reason), within
 * the bound it achieves and still outside 10 % (a row the model has come to meet loses its hold).
 */
export function checkSiliconRows(rows: readonly SiliconRow[]): void {
  it.each(rows.map((row) => ({ ...row, label: row.name })))(
    '$label',
    (row) => {
      const model = modelValue(row);
      const error = model / row.silicon - 1;
      const tolerance = row.knownMiss?.tolerance ?? 0.1;
      expect(
        Math.abs(error),
        `model ${model.toFixed(1)} ${row.unit}, silicon ${row.silicon} ${row.unit}${row.knownMiss ? ` (known miss: ${row.knownMiss.reason})` : ''}`,
      ).toBeLessThan(tolerance);
      if (row.knownMiss)
        expect(
          Math.abs(error),
          `model ${model.toFixed(1)} ${row.unit}: within 10 % now, drop its known miss`,
        ).toBeGreaterThanOrEqual(0.1);
    },
    // A safety net, not a check: a 1 GiB sector row is ≈ 12 s of CPU, minutes of wall on a loaded machine.
    600_000,
  );
}
