import { HdlError } from './errors.ts';
import { captureSourceLocation } from './sourceLocation.ts';

/** A port, field or vec index that the interface does not have (`io.in_vaild`). */
export class UnknownPortError extends HdlError {}

/**
 * Names that libraries probe on any object (promises, JSON, test matchers, inspectors): reading
 * them gives undefined as on a plain object instead of an error.
 */
const PROBED = new Set([
  'then',
  'toJSON',
  'asymmetricMatch',
  'nodeType',
  'tagName',
  '$$typeof',
  '@@__IMMUTABLE_ITERABLE__@@',
  '@@__IMMUTABLE_RECORD__@@',
  '_isMockFunction',
  'inspect',
  'length',
]);

/** The closest of `names` to `wanted` (edit distance at most 2), for a "did you mean" hint. */
function closest(wanted: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const name of names) {
    const row = Array.from({ length: name.length + 1 }, (_, index) => index);
    for (let i = 1; i <= wanted.length; i++) {
      let diagonal = row[0]!;
      row[0] = i;
      for (let j = 1; j <= name.length; j++) {
        const above = row[j]!;
        row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (wanted[i - 1] === name[j - 1] ? 0 : 1));
        diagonal = above;
      }
    }
    if (row[name.length]! < bestDistance) {
      bestDistance = row[name.length]!;
      best = name;
    }
  }
  return best;
}

/**
 * A port group (a module's `io`, an instance's ports, a bundle of wires) that refuses names it
 * does not have: `gen` loads TypeScript without type-checking, so a misspelled `io.in_vaild`
 * would otherwise be `undefined` and fail later as a bare TypeError. The error names the user's
 * line that read the name. Arrays refuse indices outside their length the same way.
 */
export function strictGroup<T extends object>(group: T, what: string): T {
  return new Proxy(group, {
    get(target, key, receiver) {
      if (typeof key === 'symbol' || key in target || PROBED.has(key)) return Reflect.get(target, key, receiver);
      const location = captureSourceLocation();
      if (Array.isArray(target) && /^\d+$/.test(key))
        throw new UnknownPortError(location, `${what} has ${target.length} elements; there is no element ${key}`);
      const names = Object.keys(target);
      const hint = closest(key, names);
      throw new UnknownPortError(
        location,
        `${what} has no port or field '${key}'${hint === undefined ? '' : ` (did you mean '${hint}'?)`}; it has: ${names.join(', ') || 'none'}`,
      );
    },
  });
}
