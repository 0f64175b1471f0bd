import { describe, expect, it } from 'vitest';
import { defaultConfig, parseConfigText } from '../../src/config/index.js';
import { egressDecision, redactUrl } from '../../src/policy/egress.js';

const on = (connect: string[]) => ({ egress: { enabled: true }, net: { connect } });

describe('egressDecision', () => {
  it('refuses everything while egress is disabled, even listed destinations', () => {
    const decision = egressDecision({ egress: { enabled: false }, net: { connect: ['api.openai.com:443'] } }, 'https://api.openai.com/v1/chat');
    expect(decision).toMatchObject({ allowed: false, reason: expect.stringContaining('egress.enabled = false') as unknown });
  });

  it('allows exactly the listed host:port, with the default port from the scheme', () => {
    expect(egressDecision(on(['api.openai.com:443']), 'https://api.openai.com/v1/chat')).toEqual({ allowed: true, hostPort: 'api.openai.com:443' });
    expect(egressDecision(on(['localhost:80']), 'http://localhost/v1')).toEqual({ allowed: true, hostPort: 'localhost:80' });
    expect(egressDecision(on(['127.0.0.1:8080']), 'http://127.0.0.1:8080/v1')).toEqual({ allowed: true, hostPort: '127.0.0.1:8080' });
  });

  it('treats an explicit default port like the implicit one', () => {
    expect(egressDecision(on(['api.example.com:443']), 'https://api.example.com:443/x')).toEqual({ allowed: true, hostPort: 'api.example.com:443' });
  });

  it('refuses another port, another host, a subdomain or a scheme switch', () => {
    const config = on(['api.example.com:443']);
    expect(egressDecision(config, 'https://api.example.com:8443/x').allowed).toBe(false);
    expect(egressDecision(config, 'http://api.example.com/x').allowed).toBe(false);
    expect(egressDecision(config, 'https://evil.api.example.com/x').allowed).toBe(false);
    expect(egressDecision(config, 'https://api.example.com.evil.test/x').allowed).toBe(false);
    expect(egressDecision(config, 'https://example.com/x')).toMatchObject({ allowed: false, reason: 'example.com:443 is not listed in net.connect' });
  });

  it('compares hosts case-insensitively', () => {
    expect(egressDecision(on(['API.Example.COM:443']), 'https://api.example.com/')).toMatchObject({ allowed: true });
    expect(egressDecision(on(['api.example.com:443']), 'https://API.EXAMPLE.com/')).toMatchObject({ allowed: true });
  });

  it('handles IPv6 hosts in brackets', () => {
    expect(egressDecision(on(['[::1]:8080']), 'http://[::1]:8080/v1')).toEqual({ allowed: true, hostPort: '[::1]:8080' });
    expect(egressDecision(on(['[::1]:8080']), 'http://[::2]:8080/v1').allowed).toBe(false);
  });

  it('refuses what is not an http(s) URL', () => {
    expect(egressDecision(on(['x:443']), 'not a url')).toMatchObject({ allowed: false });
    expect(egressDecision(on(['x:21']), 'ftp://x:21/file')).toMatchObject({ allowed: false, reason: expect.stringContaining('ftp:') as unknown });
    expect(egressDecision(on(['x:443']), 'file:///etc/passwd')).toMatchObject({ allowed: false });
  });

  it('never shows credentials or the query of a refused URL', () => {
    expect(redactUrl('https://user:pw@api.example.com/v1?key=SECRET')).toBe('https://api.example.com/v1');
    const refusal = egressDecision(on([]), 'ftp://user:pw@x/?key=SECRET');
    expect(JSON.stringify(refusal)).not.toMatch(/SECRET|pw/);
  });
});

describe('egressDecision on a loaded configuration', () => {
  it('refuses by default and allows what the file lists', () => {
    expect(egressDecision(defaultConfig(), 'https://api.anthropic.com/v1/messages').allowed).toBe(false);
    const config = parseConfigText('[egress]\nenabled = true\n[net]\nconnect = ["api.anthropic.com:443"]\n', '.jscr.toml');
    expect(egressDecision(config, 'https://api.anthropic.com/v1/messages')).toEqual({ allowed: true, hostPort: 'api.anthropic.com:443' });
  });
});
