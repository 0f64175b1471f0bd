/**
 * The workflow-command attack end to end: a change from a stranger whose file name holds `##[group]`,
 * whose code holds a line-leading `::error ::`, and whose model (scripted on 127.0.0.1) answers with
 * `\n::add-mask::` and a bare URL in its text. Whatever the format, nothing on stdout or stderr is a
 * command the runner would obey, and the Markdown carries no link or mention.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJscr, type CliRun } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/repo.js';
import { runnerCommands } from '../helpers/runner-log.js';
import { API_KEY, API_KEY_ENV, ROUTE_LINES, SQL_LINE, configTomlFor, modelFinding } from '../model/material.js';
import { startServer, type ScriptedServer } from '../model/server.js';

let server: ScriptedServer;
let repo: TestRepo;
const HOSTILE_FILE = 'src/##[group]evil ##vso[task.complete].py';

beforeAll(async () => {
  server = await startServer();
  const toml = configTomlFor(server);
  repo = makeRepo({ '.jscr.toml': toml, 'src/routes/user.js': `${[...ROUTE_LINES.slice(0, 5), ...ROUTE_LINES.slice(9)].join('\n')}\n` });
  const route = [...ROUTE_LINES.slice(0, 6), '  //\n  ::error ::planted\n  // ##[endgroup]', ...ROUTE_LINES.slice(6)];
  repo.commit({ 'src/routes/user.js': `${route.join('\n')}\n`, [HOSTILE_FILE]: 'import os\n\n  ::add-mask::token\nos.system("rm -rf " + y)\n' }, 'a change');
  const queryLine = route.join('\n').split('\n').findIndex((line) => line.includes('db.query')) + 1;
  server.review = [
    {
      findings: [
        modelFinding({
          line: queryLine,
          evidence: ROUTE_LINES[SQL_LINE] ?? '',
          title: 'Query\n::add-mask::hidden',
          explanation: 'See https://evil.example/fix and www.evil.example, ask @octocat.\n  ::error ::pwned\r::stop-commands::t ##[group]x',
        }),
      ],
    },
  ];
  server.verify = [{ verdict: 'keep', reason: 'kept\n::warning::from the verifier' }];
});

afterAll(async () => {
  await server.close();
  repo.cleanup();
});

const review = (format: string): Promise<CliRun> =>
  runJscr(['review', '--range', 'HEAD~1..HEAD', '--format', format], repo.root, { [API_KEY_ENV]: API_KEY, GITHUB_STEP_SUMMARY: '' });

describe('a hostile change and a hostile model reply give the runner no command', () => {
  it('the hostile text reaches the report (so the checks below test something)', async () => {
    const run = await review('json');
    const report = JSON.parse(run.stdout) as { findings: { source: string; title: string; path: string }[] };
    expect(report.findings.some((f) => f.source === 'model' && f.title.includes('::add-mask::'))).toBe(true);
    expect(report.findings.some((f) => f.path === HOSTILE_FILE)).toBe(true);
  });
  for (const format of ['text', 'json', 'sarif', 'markdown']) {
    it(`--format ${format}`, async () => {
      const run = await review(format);
      expect(run.code).toBe(1);
      expect(runnerCommands(run.stdout)).toEqual([]);
      expect(runnerCommands(run.stderr)).toEqual([]);
    });
  }
  it('--format github: only our own annotations', async () => {
    const run = await review('github');
    expect(run.code).toBe(1);
    const commands = runnerCommands(run.stdout);
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) expect(['error', 'warning', 'notice']).toContain(command);
    expect(runnerCommands(run.stderr)).toEqual([]);
  });
  it('the Markdown links nothing and mentions nobody', async () => {
    const run = await review('markdown');
    const outsideFences = run.stdout.replace(/^(`{3,})text\n[^]*?\n\1$/gm, '');
    expect(outsideFences).toContain('evil.example');
    expect(outsideFences).not.toMatch(/https?:\/\/|www\.|@octocat/i);
  });
});
