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

/** The environment variable naming the further hosts (`host:port`, comma or space separated) a model key may go to. */
export const KEY_HOSTS_VARIABLE = 'JSCR_MODEL_KEY_HOSTS';

/** Loopback by definition (127.0.0.0/8, ::1, localhost): this machine, which a repository cannot listen on. */
function isLoopback(hostPort: string): boolean {
  const host = hostPort.slice(0, hostPort.lastIndexOf(':'));
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * May an API key go to `hostPort`? The configuration that names the host is usually the reviewed
 * repository's own file, so a hostile one could name its own server and any variable of the user's
 * environment (docs/adr/0075-model-key-destinations.md). A key goes only to the provider's own API
 * host, to this machine, or to a host the environment, which the repository cannot write, lists.
 * Null when it may; otherwise the reason, in words a user can act on.
 */
export function keyDestinationRefusal(hostPort: string, providerHostPort: string, env: NodeJS.ProcessEnv): string | null {
  if (hostPort === providerHostPort || isLoopback(hostPort)) return null;
  const listed = (env[KEY_HOSTS_VARIABLE] ?? '').split(/[\s,]+/).some((entry) => entry.toLowerCase() === hostPort);
  if (listed) return null;
  return `an API key goes only to the provider's own host or to this machine unless the environment allows its host: ${hostPort} is named by the configuration file, which the repository can write; set ${KEY_HOSTS_VARIABLE}=${hostPort} to send the key there`;
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
