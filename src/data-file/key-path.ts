/** A key's place in a parsed data file: table keys and array indexes, outermost first. */
export type KeyPath = readonly PropertyKey[];

/** `suppress[0].reason` from `['suppress', 0, 'reason']`. */
export function dottedPath(path: KeyPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out;
}
