// Fake credentials for tests, assembled at run time so no token-shaped literal sits in the source
// (push protection and secret scanners read this repository too). None of these is a real key.

/** A deterministic mixed-case alphanumeric body of `length` characters. */
export function body(length: number, seed = 7): string {
  const alphabet = 'aB3cD4eF5gH6iJ7kL8mN9oP2qR3sT4uV5wX6yZ7';
  let out = '';
  let state = seed;
  for (let i = 0; i < length; i += 1) {
    state = (state * 1103515245 + 12345) % 2147483648;
    out += alphabet[state % alphabet.length];
  }
  return out;
}

const join = (...parts: string[]): string => parts.join('');

export const fakes = {
  awsKeyId: join('AK', 'IA', 'Q3ZR7WXN2M4KD6PB'),
  awsSessionKeyId: join('AS', 'IA', 'Q3ZR7WXN2M4KD6PB'),
  awsSecret: join('wJalrXUtnF', 'EMI/K7MDENG/bPxRfiCY', 'Q9zT4k7LmN'),
  githubClassic: join('gh', 'p_', body(36, 1)),
  githubOauth: join('gh', 'o_', body(36, 2)),
  githubUser: join('gh', 'u_', body(36, 3)),
  githubServer: join('gh', 's_', body(36, 4)),
  githubRefresh: join('gh', 'r_', body(36, 5)),
  githubFineGrained: join('github', '_pat_', body(22, 6), '_', body(59, 7)),
  gitlab: join('gl', 'pat-', body(20, 8)),
  slackBot: join('xo', 'xb-', '2481632641', '-', '1234567890123', '-', body(24, 9)),
  slackWebhookPath: join('T0', '1ABCDEF2', '/B0', '1GHIJKL3', '/', body(24, 10)),
  stripeLive: join('sk', '_live_', body(24, 11)),
  stripeRestricted: join('rk', '_live_', body(24, 12)),
  googleApiKey: join('AI', 'za', 'Sy', body(33, 13)),
  azureAccountKey: join(body(86, 14), '=='),
  azureClientSecret: join('abc', '8Q~', body(31, 15)),
  npm: join('np', 'm_', body(36, 16)),
  pypi: join('py', 'pi-', 'AgEIcHlwaS5vcmc', body(60, 17)),
  openaiLegacy: join('s', 'k-', body(48, 18)),
  openaiProject: join('s', 'k-', 'proj-', body(64, 19)),
  anthropic: join('s', 'k-', 'ant-', 'api03-', body(80, 20)),
  jwt: join('ey', 'JhbGciOiJIUzI1NiJ9', '.', 'ey', 'JzdWIiOiIxMjM0NTY3ODkwIn0', '.', body(43, 21)),
  pemBody: [body(64, 22), body(64, 23), body(40, 24)],
};

/** A PEM private key block with the given body lines. */
export function pem(kind: string, lines: string[]): string {
  return [`-----BEGIN ${kind}PRIVATE KEY-----`, ...lines, `-----END ${kind}PRIVATE KEY-----`].join('\n');
}
