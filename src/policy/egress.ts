/**
 * The egress allowlist: nothing leaves the machine unless `egress.enabled` is true and the exact
 * `host:port` of the destination is listed in `net.connect` (SPEC 3). src/egress/http.ts demands the
 * positive decision as proof before it connects.
 */

/**
 * The two settings the decision reads; `Pick<JscrConfig, 'egress' | 'net'>` satisfies it. Declared here
 * rather than imported so policy does not depend on config (config reads files through policy).
 */
export interface EgressSettings {
  egress: { enabled: boolean };
  net: { connect: readonly string[] };
}

/** A permission to reach exactly `hostPort`. */
export interface EgressAllowed {
  allowed: true;
  /** Lowercase `host:port`, IPv6 hosts in brackets. */
  hostPort: string;
}

/** A refusal, with the reason in words a user can act on. */
interface EgressRefused {
  allowed: false;
  reason: string;
}

export type EgressDecision = EgressAllowed | EgressRefused;

/** The `host:port` a URL connects to (default port from the scheme), or an error text. */
export function hostPortOf(url: string): { hostPort: string } | { error: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { error: 'not a valid URL' };
  }
  const defaultPort = parsed.protocol === 'https:' ? '443' : parsed.protocol === 'http:' ? '80' : null;
  if (defaultPort === null) return { error: `scheme ${parsed.protocol} is not http or https` };
  if (parsed.hostname === '') return { error: 'the URL has no host' };
  // URL drops a port equal to the scheme's default, so an empty port means the default.
  const port = parsed.port === '' ? defaultPort : parsed.port;
  return { hostPort: `${parsed.hostname.toLowerCase()}:${port}` };
}

/** May jscr connect to `url`? Only if egress is enabled and net.connect lists its exact host:port. */
export function egressDecision(config: EgressSettings, url: string): EgressDecision {
  const target = hostPortOf(url);
  if ('error' in target) return { allowed: false, reason: `cannot connect to ${redactUrl(url)}: ${target.error}` };
  if (!config.egress.enabled) {
    return { allowed: false, reason: `network access is off (egress.enabled = false); ${target.hostPort} was not contacted` };
  }
  const listed = config.net.connect.some((entry) => entry.toLowerCase() === target.hostPort);
  if (!listed) return { allowed: false, reason: `${target.hostPort} is not listed in net.connect` };
  return { allowed: true, hostPort: target.hostPort };
}

/** A URL safe to show: scheme, host, port and path; never credentials or the query (keys sometimes live there). */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}
