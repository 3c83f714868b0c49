/** A reported quantity to about three significant figures, without exponent noise for the magnitudes we report. */
export function figure(value: number): string {
  if (!Number.isFinite(value)) return '–';
  const magnitude = Math.abs(value);
  return magnitude >= 100
    ? value.toFixed(1)
    : magnitude >= 1
      ? value.toFixed(2)
      : magnitude === 0
        ? '0'
        : value.toPrecision(3);
}
