/**
 * Keeping the API key out of what a model call leaves behind: model-written text is scrubbed before
 * it reaches a report (review) or a run folder (fix), in case a server echoes the key back.
 */

/** Apply `scrub` to every string inside a plain JSON-like value; other values pass unchanged. */
export function scrubDeep<T>(value: T, scrub: (text: string) => string): T {
  if (typeof value === 'string') return scrub(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => scrubDeep(item, scrub)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubDeep(v, scrub)])) as T;
  }
  return value;
}
