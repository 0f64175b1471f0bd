/**
 * A scheduler's or provider's signed request: the entry verifies the signature with the sender's key
 * and leaves when it fails, so only that sender can reach the write (a cron route, a queue callback).
 * A verification whose result nothing acts on, or a `verify` call about something else, checks nothing.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

async function cronFindings(body: string, extra: Record<string, string> = {}) {
  const result = await proveChange({
    root: '/repo',
    files: [
      { path: 'package.json', text: '{"dependencies":{"next":"14.2.0"}}' },
      { path: 'app/api/cron/domains/route.ts', text: `import { receiver } from "@/lib/cron";
import prisma from "@/lib/prisma";

export async function POST(req: Request) {
  const body = await req.json();
${body}
  await prisma.domain.delete({ where: { slug: body.slug } });
  return Response.json({ ok: true });
}
` },
      ...Object.entries(extra).map(([path, text]) => ({ path, text })),
    ],
    touched: null,
    maxDepth: 3,
    fanOut: 25,
  });
  return result.findings.filter((f) => f.path === 'app/api/cron/domains/route.ts').map((f) => f.operation.id);
}

describe('signed requests from a scheduler or provider', () => {
  it('a verified signature the entry leaves on discharges the deletion', async () => {
    expect(await cronFindings(`  const isValid = await receiver.verify({ signature: req.headers.get("Upstash-Signature") || "", body: JSON.stringify(body) });
  if (!isValid) {
    return new Response("Unauthorized", { status: 401 });
  }`)).toEqual([]);
  });

  it('a verification whose result nothing acts on checks nothing', async () => {
    expect(await cronFindings(`  const isValid = await receiver.verify({ signature: req.headers.get("Upstash-Signature") || "", body: JSON.stringify(body) });
  console.log(isValid);`)).toEqual(['ts.orm-deletion']);
  });

  it('a project helper that throws on a bad signature discharges it', async () => {
    expect(await cronFindings('  await verifyCronSignature(req, body);', {
      'lib/cron/verify.ts': `export async function verifyCronSignature(req: Request, body: unknown) {
  const signature = req.headers.get("x-signature");
  if (!signature || signature !== sign(body)) {
    throw new Error("Invalid signature");
  }
}
`,
    })).toEqual([]);
  });

  it('a project helper named like a signature check that never refuses checks nothing', async () => {
    expect(await cronFindings('  await verifyCronSignature(req, body);', {
      'lib/cron/verify.ts': `export async function verifyCronSignature(req: Request, body: unknown) {
  return true;
}
`,
    })).toEqual(['ts.orm-deletion']);
  });

  it('a verify call about something else is no signature check', async () => {
    expect(await cronFindings(`  const ok = await mailer.verify({ host: body.host });
  if (!ok) {
    return new Response("Unauthorized", { status: 401 });
  }`)).toEqual(['ts.orm-deletion']);
  });
});
