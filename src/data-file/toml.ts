/**
 * TOML text to data with @iarna/toml, the one parser of every data file. A syntax error comes back as
 * a value with its 1-based line and column and the parser's reason without its code frame.
 */
import TOML from '@iarna/toml';

export type TomlParse = { ok: true; data: unknown } | { ok: false; line: number | null; column: number | null; reason: string };

export function parseToml(text: string): TomlParse {
  try {
    return { ok: true, data: TOML.parse(text) };
  } catch (error) {
    if (!(error instanceof Error)) return { ok: false, line: null, column: null, reason: 'syntax error' };
    const located = error as Error & { line?: unknown; col?: unknown };
    // @iarna/toml reports 0-based line and column; its message repeats them with a code frame we drop.
    const reason = error.message.split('\n')[0]?.replace(/ at row \d+, col \d+, pos \d+:?$/, '') ?? 'syntax error';
    if (typeof located.line === 'number' && typeof located.col === 'number') {
      return { ok: false, line: located.line + 1, column: located.col + 1, reason };
    }
    return { ok: false, line: lineOfUnlocatedError(text, error.message), column: null, reason };
  }
}

/**
 * Some @iarna/toml errors (an impossible date such as 2025-13-01) carry no position. A prefix of the
 * text fails with that same bare error exactly when it holds the line at fault (a parser stops at the
 * first error, and a cut before that line fails differently or not at all), so a binary search over
 * prefixes finds the line in a few parses, however long a hostile file is.
 */
function lineOfUnlocatedError(text: string, message: string): number | null {
  const lines = text.split('\n');
  const failsHere = (count: number): boolean => {
    try {
      TOML.parse(lines.slice(0, count).join('\n'));
      return false;
    } catch (error) {
      return error instanceof Error && error.message === message && (error as { line?: unknown }).line === undefined;
    }
  };
  if (!failsHere(lines.length)) return null;
  let low = 1;
  let high = lines.length;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (failsHere(middle)) high = middle;
    else low = middle + 1;
  }
  return low;
}
