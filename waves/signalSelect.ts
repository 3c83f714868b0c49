import { UserError } from '../common/errors.ts';
import type { VcdSignal } from './vcdReader.ts';

/**
 * Turns a glob over dotted hierarchical names into a RegExp: `*` matches within one name part,
 * `**` across parts (`tb.**.cnt`), `?` one character; everything else is literal.
 */
export function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] as string;
    if (char === '*' && pattern[index + 1] === '*') {
      source += '.*';
      index += 1;
    } else if (char === '*') {
      source += '[^.]*';
    } else if (char === '?') {
      source += '[^.]';
    } else {
      source += char.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`);
}

/**
 * The signals whose full names match any pattern, in header order, one per full name. A pattern
 * that matches nothing is a UserError, so a typo is not mistaken for an empty selection.
 */
export function selectSignals(signals: readonly VcdSignal[], patterns: readonly string[]): VcdSignal[] {
  const expressions = patterns.map((pattern) => ({ pattern, regexp: globToRegExp(pattern), used: false }));
  const selected = signals.filter((signal) => {
    let matched = false;
    for (const expression of expressions) {
      if (expression.regexp.test(signal.fullName)) {
        expression.used = true;
        matched = true;
      }
    }
    return matched;
  });
  const unused = expressions.filter((expression) => !expression.used).map((expression) => expression.pattern);
  if (unused.length > 0)
    throw new UserError(`no signal matches ${unused.join(', ')} (\`gen wave list\` shows the names)`);
  return selected;
}
