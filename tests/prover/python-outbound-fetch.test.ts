/**
 * An outbound request from a Python handler (prover-frameworks 9.4): the anonymous proxy is the access
 * bug; a signed-in user's fetch of a catalogue or partner API is what handlers do, so a login discharges it.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

async function findings(handler: string): Promise<{ label: string; kind: string }[]> {
  const app = `import requests
import tornado.web


${handler}

def make_app():
    return tornado.web.Application([(r"/lookup", LookupHandler)])
`;
  const result = await proveChange({ root: '/repo', files: [{ path: 'app/server.py', text: app }], touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.entryPoints).toBeGreaterThan(0);
  return result.findings.map((f) => ({ label: f.label, kind: f.operation.kind }));
}

const handler = (decorator: string) => `class LookupHandler(tornado.web.RequestHandler):
${decorator}    def get(self):
        target = self.get_argument("url")
        reply = requests.get(target, timeout=10)
        self.write(reply.text)
`;

describe('Python outbound requests', () => {
  it('reports a fetch from a handler nobody signed in to', async () => {
    expect(await findings(handler(''))).toEqual([expect.objectContaining({ kind: 'outbound_request' })]);
  });

  it('lets a signed-in user\'s handler fetch', async () => {
    expect(await findings(handler('    @tornado.web.authenticated\n'))).toEqual([]);
  });
});
