/**
 * Data flow inside a review of a real git repository: a flow whose sink is on a changed line, a flow
 * whose sanitiser or check the change removed (the sink line unchanged), the path in the JSON report,
 * and pattern findings giving way to flow in functions it analysed.
 */
import { describe, expect, it } from 'vitest';
import { reposRemovedAfterEach, runJscr, type TestRepo } from '../helpers/repo.js';

const repo = reposRemovedAfterEach();

interface FlowStepJson {
  role: string;
  path: string;
  line: number;
  text: string;
}
interface Report {
  findings: { rule: string; source: string; path: string; line: number; cwe: string | null; message: string; flow?: FlowStepJson[] }[];
  limits_reached: string[];
}

function servlet(body: string[]): string {
  return [
    'package app;',
    'import javax.servlet.http.*;',
    'public class Search extends HttpServlet {',
    '  private static final java.util.Set<String> ALLOWED = java.util.Set.of("a", "b");',
    '  protected void doGet(HttpServletRequest request, HttpServletResponse response) throws Exception {',
    '    java.sql.Statement st = connection().createStatement();',
    '    String term = request.getParameter("q");',
    ...body.map((line) => `    ${line}`),
    '  }',
    '}',
    '',
  ].join('\n');
}

async function review(r: TestRepo): Promise<Report> {
  const out = await runJscr(['review', '--no-model', '--range', 'HEAD~1..HEAD', '--format', 'json'], { cwd: r.root, timeoutMs: 120_000 });
  expect(out.code, out.stderr).toBeLessThan(2);
  return JSON.parse(out.stdout) as Report;
}

describe('data flow in a review', () => {
  it('reports a flow to a changed sink line with its path, and one finding for the weakness', async () => {
    const r = repo({ 'src/Search.java': servlet(['st.executeQuery("select 1");']) });
    r.commit({ 'src/Search.java': servlet(['String sql = "SELECT * FROM t WHERE name = \'" + term + "\'";', 'st.executeQuery(sql);']) });
    const report = await review(r);
    const sql = report.findings.filter((f) => f.cwe === 'CWE-89');
    expect(sql.map((f) => [f.rule, f.source, f.line])).toEqual([['jscr/java-sql-query', 'flow', 9]]);
    expect(sql[0]?.flow).toEqual([
      { role: 'source', path: 'src/Search.java', line: 7, text: 'request.getParameter("q")' },
      { role: 'step', path: 'src/Search.java', line: 7, text: 'term' },
      { role: 'step', path: 'src/Search.java', line: 8, text: 'sql' },
      { role: 'sink', path: 'src/Search.java', line: 9, text: 'st.executeQuery(sql)' },
    ]);
    expect(sql[0]?.message).toContain('`term` from `request.getParameter("q")` at line 7 reaches `st.executeQuery(sql)` at line 9 through `sql`, built at line 8.');
  }, 120_000);

  it('stays quiet on a changed sink whose value cannot carry request data, where the pattern rule would fire', async () => {
    const r = repo({ 'src/Search.java': servlet(['st.executeQuery("select 1");']) });
    r.commit({ 'src/Search.java': servlet(['int limit = 10;', 'String sql = "SELECT * FROM t WHERE id = " + limit;', 'st.executeQuery("SELECT * FROM t WHERE name = \'" + (7 > 9 ? term : "x") + "\'");']) });
    const report = await review(r);
    expect(report.findings.filter((f) => f.cwe === 'CWE-89')).toEqual([]);
  }, 120_000);

  it('lets flow speak for a sink with a callback on its line, and for a top-level PHP script, where the pattern rules would fire', async () => {
    const handler = (value: string, command: string) => ['import { exec } from "node:child_process";', 'app.post("/ping", (req, res) => {', '  const raw = req.body.host;', `  const value = ${value};`, `  exec("${command} " + value, () => res.end());`, '});', ''].join('\n');
    const script = (value: string, command: string) => ['<?php', `$value = ${value};`, `system('${command} ' . $value);`, ''].join('\n');
    const r = repo({ 'app.js': handler('"localhost"', 'ping'), 'ping.php': script("'localhost'", 'ping') });
    r.commit({ 'app.js': handler('"localhost"', 'ping -c 1'), 'ping.php': script("'localhost'", 'ping -c 1') });
    expect((await review(r)).findings.filter((f) => f.cwe === 'CWE-78')).toEqual([]);
    // The same sinks given request data: flow reports each, once.
    r.commit({ 'app.js': handler('raw', 'ping -c 2'), 'ping.php': script("$_GET['host']", 'ping -c 2') });
    const findings = (await review(r)).findings.filter((f) => f.cwe === 'CWE-78');
    expect(findings.map((f) => [f.path, f.line, f.source])).toEqual([['app.js', 5, 'flow'], ['ping.php', 3, 'flow']]);
  }, 120_000);

  it('reports the removal of an allow-list check even though the sink line did not change', async () => {
    const r = repo({ 'src/Search.java': servlet(['if (!ALLOWED.contains(term)) return;', 'st.executeQuery("select * from t where k = " + term);']) });
    r.commit({ 'src/Search.java': servlet(['st.executeQuery("select * from t where k = " + term);']) });
    const report = await review(r);
    const sql = report.findings.filter((f) => f.cwe === 'CWE-89');
    expect(sql.map((f) => [f.rule, f.line])).toEqual([['jscr/java-sql-query', 8]]);
    expect(sql[0]?.message).toMatch(/^The change removed what kept this flow clean/);
  }, 120_000);

  it('says nothing about an unchanged flow that was already there', async () => {
    const r = repo({ 'src/Search.java': servlet(['st.executeQuery("select * from t where k = " + term);']) });
    r.commit({ 'src/Search.java': servlet(['st.executeQuery("select * from t where k = " + term);', 'log("done");']) });
    const report = await review(r);
    expect(report.findings.filter((f) => f.cwe === 'CWE-89')).toEqual([]);
  }, 120_000);

  it('treats res.render as an XSS sink only in a project whose manifest or code says its templates print raw', async () => {
    const controller = (value: string) => `exports.getTag = function (req, res) {\n  const title = 'Tags';\n  res.render('tag', { title, tag: ${value} });\n};\n`;
    const reviewed = async (files: Record<string, string>) => {
      const r = repo({ ...files, 'src/tags.js': controller('"all"') });
      r.commit({ 'src/tags.js': controller('req.params.tag') });
      return (await review(r)).findings.filter((f) => f.source === 'flow' && f.cwe === 'CWE-79').map((f) => `${f.rule}:${f.line}`);
    };
    expect(await reviewed({ 'install/package.json': JSON.stringify({ dependencies: { 'templates.js': '0.0.13' } }) })).toEqual(['jscr/js-render-unescaped:3']);
    expect(await reviewed({ 'package.json': JSON.stringify({ dependencies: { benchpressjs: '2.5.5' } }), 'public/helpers.js': 'module.exports = { __escape: identity };\n' })).toEqual(['jscr/js-render-escape-off:3']);
    expect(await reviewed({ 'package.json': JSON.stringify({ dependencies: { benchpressjs: '2.5.5', ejs: '3.1.0' } }) })).toEqual([]);
    expect(await reviewed({ 'package.json': '{ not json' })).toEqual([]);
  }, 240_000);

  it('reads an escaping helper and a query wrapper of other files, in top-level PHP code', async () => {
    const helpers = ['<?php', 'function escape_value($v) { return htmlentities($v, ENT_QUOTES); }', 'function run_query($sql) { global $db; return mysqli_query($db, $sql); }', ''].join('\n');
    const page = (lines: string[]) => ['<?php', "require_once 'functions/helpers.php';", ...lines, ''].join('\n');
    const r = repo({ 'functions/helpers.php': helpers, 'search.php': page(['print "<p>ready</p>";']) });
    r.commit({ 'search.php': page(["print '<input value=\"' . escape_value($_GET['q']) . '\">';", "run_query(\"SELECT * FROM t WHERE name = '\" . $_GET['q'] . \"'\");"]) });
    const report = await review(r);
    // The escaped print is quiet (the pattern rule for printed request data gives way to flow there);
    // the wrapper is a sink, reported at its call with the wrapper's line in the path.
    expect(report.findings.filter((f) => f.path === 'search.php').map((f) => [f.rule, f.line])).toEqual([['jscr/php-sql-function', 4]]);
    expect(report.findings.find((f) => f.cwe === 'CWE-89')?.flow?.at(-1)?.text).toContain('functions/helpers.php:3');
  }, 120_000);
});
