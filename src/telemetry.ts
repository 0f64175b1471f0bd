/**
 * Telemetry, deliberately empty: jscr never sends usage data, crash reports or anything else about
 * its users anywhere. The function exists so that a future "just add a metric" has an obvious home that
 * does nothing; making it send would need src/egress/http.ts, an explicit `net.connect` entry, and a
 * change to this comment.
 */

/** Does nothing, on purpose. */
export function recordEvent(): void {
  // jscr never sends usage data.
}
