/**
 * `jscr facts init`: what the engine reads as the project's own checks is shown and, with --write,
 * appended to .jscr.toml as verified `[[prover.guards]]` rows; proposals from a maintainer's file or
 * from the model (a real HTTP server on 127.0.0.1) pass the same gate, which refuses rows the code does
 * not bear out. Real git repositories in temporary folders.
 */
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/index.js';
import { runJscr, type CliRun } from '../helpers/cli.js';
import { reposRemovedAfterEach } from '../helpers/repo.js';
import { startServer, type ScriptedServer } from '../model/server.js';

const makeRepo = reposRemovedAfterEach();
const API_KEY_ENV = 'JSCR_TEST_FACTS_KEY';

/** A Remix app: one route deletes a note after the project's own helpers; one helper only validates a slug. */
const APP = {
  'app/utils/session.server.ts': `export async function requireSignedIn(request: Request) {
  const session = await readSession(request)
  if (!session) {
    throw redirect('/login')
  }
  return session
}

export function requireValidSlug(slug: unknown) {
  if (typeof slug !== 'string' || !/^[a-z0-9-]+$/.test(slug)) {
    throw new Response('bad slug', { status: 400 })
  }
}

export async function ensureTeamLead(user: { role: string }, team: string) {
  if (user.role !== 'lead') {
    throw new Forbidden('not a lead of ' + team)
  }
}

export function formatTitle(title: string) {
  console.log('formatting', title)
  return title.trim()
}

function readSession(request: Request) {
  return request.headers.get('cookie')
}
`,
  'app/routes/notes.$slug.tsx': `import { prisma } from '~/utils/db.server'
import { requireSignedIn, requireValidSlug } from '~/utils/session.server'

export async function action({ request, params }: { request: Request; params: { slug: string } }) {
  requireValidSlug(params.slug)
  const session = await requireSignedIn(request)
  await prisma.note.deleteMany({ where: { slug: params.slug } })
  return null
}
`,
};

const scratchDirs: string[] = [];
afterEach(() => {
  for (const dir of scratchDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function scratchFile(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'jscr-facts-'));
  scratchDirs.push(dir);
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

interface FactsJson {
  promoted: { name: string; checks: string; source: string; region: string; version: string; origin: string }[];
  refused: { name: string; reason: string; origin: string }[];
  write: { action: string; rows?: number };
  entries_by_framework: Record<string, number>;
}

function json(run: CliRun): FactsJson {
  return JSON.parse(run.stdout) as FactsJson;
}

describe('jscr facts init: extraction', () => {
  it('shows the helpers the engine reads as checks, never a validation helper, and writes them only with --write', async () => {
    const repo = makeRepo(APP);
    const head = repo.git('rev-parse', 'HEAD').trim();
    const shown = await runJscr(['facts', 'init', '--format', 'json'], repo.root);
    expect(shown.code, shown.stderr).toBe(0);
    const out = json(shown);
    expect(out.entries_by_framework).toEqual({ remix: 1 });
    expect(out.promoted.map((r) => [r.name, r.checks, r.origin])).toEqual([['requireSignedIn', 'authentication', 'engine']]);
    expect(out.promoted[0]).toMatchObject({ source: 'app/utils/session.server.ts', region: '1-7', version: head });
    // a 400 for a malformed slug says nothing about who is asking
    expect(out.promoted.map((r) => r.name)).not.toContain('requireValidSlug');
    expect(out.write.action).toBe('would_append');
    expect(existsSync(join(repo.root, '.jscr.toml'))).toBe(false);

    const written = await runJscr(['facts', 'init', '--write'], repo.root);
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toMatch(/wrote 1 \[\[prover\.guards\]\] row/);
    const config = parseConfigText(readFileSync(join(repo.root, '.jscr.toml'), 'utf8'), '.jscr.toml');
    expect(config.prover.guards).toEqual([{ name: 'requireSignedIn', checks: 'authentication', source: 'app/utils/session.server.ts', region: '1-7', version: head }]);

    // run again: already declared, nothing appended
    const again = await runJscr(['facts', 'init', '--write', '--format', 'json'], repo.root);
    expect(json(again).write.action).toBe('nothing');
  });

  it('keeps a user configuration and refuses to write through a symbolic link', async () => {
    const repo = makeRepo(APP);
    writeFileSync(join(repo.root, '.jscr.toml'), '[review]\nfail_on = "high"\n');
    const appended = await runJscr(['facts', 'init', '--write'], repo.root);
    expect(appended.code, appended.stderr).toBe(0);
    const text = readFileSync(join(repo.root, '.jscr.toml'), 'utf8');
    expect(text.startsWith('[review]\nfail_on = "high"\n')).toBe(true);
    expect(parseConfigText(text, '.jscr.toml').prover.guards.map((g) => g.name)).toEqual(['requireSignedIn']);

    const outside = scratchFile('elsewhere.toml', '');
    rmSync(join(repo.root, '.jscr.toml'));
    symlinkSync(outside, join(repo.root, '.jscr.toml'));
    const refused = await runJscr(['facts', 'init', '--write'], repo.root);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toMatch(/not written: \.jscr\.toml is a symbolic link/);
    expect(readFileSync(outside, 'utf8')).toBe('');
    expect(lstatSync(join(repo.root, '.jscr.toml')).isSymbolicLink()).toBe(true);
  });
});

describe('jscr facts init: proposals go through the gate', () => {
  it("a maintainer's rows are admitted only where the code refuses under a test of what they claim", async () => {
    const repo = makeRepo(APP);
    const proposals = scratchFile(
      'proposals.toml',
      [
        '[[guards]]\nname = "ensureTeamLead"\nchecks = "permission"\nsource = "app/utils/session.server.ts:16"\nreason = "throws unless the user is a lead"\nresource = "team"',
        '[[guards]]\nname = "formatTitle"\nchecks = "permission"\nsource = "app/utils/session.server.ts:22"\nreason = "claimed"',
        '[[guards]]\nname = "ensureTeamLead"\nchecks = "ownership"\nsource = "app/utils/session.server.ts:16"\nreason = "claims more than it tests"',
        '[[guards]]\nname = "requireRoot"\nchecks = "permission"\nsource = "../outside.ts:1"\nreason = "outside"',
        '[[guards]]\nname = "requireNobody"\nchecks = "authentication"\nsource = "app/utils/session.server.ts:1"\nreason = "not defined there"',
      ].join('\n\n'),
    );
    const run = await runJscr(['facts', 'init', '--from', proposals, '--format', 'json'], repo.root);
    expect(run.code, run.stderr).toBe(0);
    const out = json(run);
    expect(out.promoted.filter((r) => r.origin === 'maintainer').map((r) => [r.name, r.checks, r.region])).toEqual([['ensureTeamLead', 'permission', '15-19']]);
    const refused = Object.fromEntries(out.refused.map((r) => [`${r.name}/${r.reason.slice(0, 40)}`, r.reason]));
    expect(Object.values(refused).join('\n')).toMatch(/formatTitle .*shows no permission test/);
    expect(Object.values(refused).join('\n')).toMatch(/ensureTeamLead .*shows no ownership test/);
    expect(Object.values(refused).join('\n')).toMatch(/not a plain repository path/);
    expect(Object.values(refused).join('\n')).toMatch(/defines no requireNobody/);
  });

  it('a secret on the line the gate quotes as evidence is masked in what it prints and writes', async () => {
    const secret = 'ghp_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d';
    const repo = makeRepo({ ...APP, 'app/utils/keys.server.ts': `export function requireServiceKey(request: Request) {\n  if ('${secret}' !== request.headers.get('authorization')) throw new Response('no', { status: 401 })\n}\n` });
    const proposals = scratchFile('p.toml', '[[guards]]\nname = "requireServiceKey"\nchecks = "authentication"\nsource = "app/utils/keys.server.ts:1"\nreason = "a service key"\n');
    for (const format of ['text', 'json']) {
      const run = await runJscr(['facts', 'init', '--from', proposals, '--format', format], repo.root);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(format === 'json' ? /"name": "requireServiceKey",\s+"checks": "authentication"/ : /promoted \(2\):[\s\S]*requireServiceKey/);
      expect(run.stdout + run.stderr).not.toContain(secret.slice(0, 12));
    }
    const written = await runJscr(['facts', 'init', '--from', proposals, '--write'], repo.root);
    expect(written.code, written.stderr).toBe(0);
    const config = readFileSync(join(repo.root, '.jscr.toml'), 'utf8');
    expect(config).toContain('name = "requireServiceKey"');
    expect(config).not.toContain(secret.slice(0, 12));
  });

  it('a malformed proposal file is one error line and exit 2', async () => {
    const repo = makeRepo(APP);
    const bad = scratchFile('bad.toml', '[[guards]]\nname = "x"\nchecks = "everything"\nsource = "a.ts:1"\nreason = "r"\n');
    const run = await runJscr(['facts', 'init', '--from', bad], repo.root);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n').at(-1)).toMatch(/guards\.0\.checks/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('jscr facts init --propose', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startServer();
  });
  afterEach(async () => {
    await server.close();
  });

  const config = (): string =>
    ['[egress]', 'enabled = true', '[net]', `connect = ["${server.hostPort}"]`, '[model]', 'provider = "openai"', `base_url = "${server.base}/v1"`, 'name = "test"', `api_key_env = "${API_KEY_ENV}"`, 'timeout_s = 10', ''].join('\n');

  it('asks about check-like functions the engine does not read, with secrets masked, and gates every row it gets', async () => {
    const repo = makeRepo({ ...APP, 'app/utils/keys.server.ts': 'export function requireApiKey(request: Request) {\n  const key = "ghp_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d"\n  if (request.headers.get("x-key") !== key) throw new Response("no", { status: 401 })\n}\n', '.jscr.toml': config() });
    server.facts = [
      {
        rows: [
          { name: 'ensureTeamLead', checks: 'permission', resource: 'team', path: 'app/utils/session.server.ts', line: 16, reason: 'throws Forbidden unless role is lead' },
          { name: 'formatTitle', checks: 'authentication', resource: null, path: 'app/utils/session.server.ts', line: 22, reason: 'invented' },
          { name: 'ensureTeamLead', checks: 'permission', resource: null, path: '/etc/passwd', line: 1, reason: 'hostile path' },
        ],
      },
    ];
    const run = await runJscr(['facts', 'init', '--propose', '--format', 'json'], repo.root, { [API_KEY_ENV]: 'test-key' });
    expect(run.code, run.stderr).toBe(0);
    const asked = server.requests.filter((r) => r.kind === 'facts');
    expect(asked.length).toBe(1);
    expect(asked[0]?.raw).toContain('ensureTeamLead');
    expect(asked[0]?.raw).not.toContain('ghp_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d');
    const out = json(run);
    expect(out.promoted.filter((r) => r.origin === 'model').map((r) => r.name)).toEqual(['ensureTeamLead']);
    expect(out.refused.filter((r) => r.origin === 'model').map((r) => r.name).sort()).toEqual(['ensureTeamLead', 'formatTitle']);
  });

  it('without a usable model, --propose is exit 2 with the reason, and nothing is asked', async () => {
    const repo = makeRepo({ ...APP, '.jscr.toml': config() });
    const run = await runJscr(['facts', 'init', '--propose'], repo.root, { [API_KEY_ENV]: '' });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--propose needs the configured model: .*JSCR_TEST_FACTS_KEY/);
    expect(server.connections).toBe(0);
  });
});
