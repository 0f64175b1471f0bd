/**
 * Helpers of other files (src/flow/repository.ts): real git repositories in temporary folders, read
 * through the review's own readers, so the symlink and size rules are the ones a review applies.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lowerText, type FileAnalysis } from '../../src/flow/index.js';
import type { FlowFile } from '../../src/flow/ir.js';
import { analyseWithHelpers, DEFAULT_LOOKUP_LIMITS, RepositoryFunctions, type LookupLimits } from '../../src/flow/repository.js';
import { createSourceReader, type SourceReader } from '../../src/git/sources.js';
import { openBoundary } from '../../src/policy/paths.js';
import { loadBuiltinFlowRows } from '../../src/rules/flow-load.js';
import { loadGrammars } from '../../src/syntax/parser.js';
import { makeRepo, type FileMap } from '../helpers/repo.js';

const rowsFor = (language: Parameters<ReturnType<typeof loadBuiltinFlowRows>['byLanguage']['get']>[0]) => loadBuiltinFlowRows().byLanguage.get(language);
type FlowLanguage = 'php' | 'java' | 'python';

async function lowered(path: string, text: string, language: FlowLanguage = path.endsWith('.py') ? 'python' : 'php'): Promise<FlowFile> {
  const result = await lowerText(path, language, text, Date.now() + 10_000);
  if (result?.ok !== true) throw new Error(`could not lower ${path}`);
  return result.file;
}

interface Run {
  analysis: FileAnalysis;
  repository: RepositoryFunctions;
}

/** Commit `files`, then analyse `page` of that commit with the helpers the repository defines. */
async function review(files: FileMap, page: string, options: { worktree?: boolean; limits?: Partial<LookupLimits>; language?: FlowLanguage } = {}): Promise<Run> {
  const language = options.language ?? (page.endsWith('.py') ? 'python' : 'php');
  const repo = makeRepo();
  const head = repo.commit(files);
  const boundary = await openBoundary(repo.root, { followSymlinks: false });
  const reader: SourceReader = createSourceReader({ root: repo.root, boundary, source: options.worktree === true ? { kind: 'worktree' } : { kind: 'revision', rev: head }, maxFileBytes: 1 << 20, followSymlinks: false });
  const repository = new RepositoryFunctions(reader, rowsFor, async (path, _language, text) => lowered(path, text, language), { ...DEFAULT_LOOKUP_LIMITS, ...options.limits });
  const text = files[page];
  const rows = rowsFor(language);
  if (typeof text !== 'string' || rows === undefined) throw new Error('no page');
  const analysis = await analyseWithHelpers(await lowered(page, text, language), { rows }, null, repository);
  return { analysis, repository };
}

const PAGE_ESCAPED = `<?php
require 'lib/helpers.php';
print '<input value="' . esc_out($_GET['q']) . '">';
`;

const HELPERS = `<?php
function esc_out($value) {
    return empty($value) ? '' : htmlspecialchars($value, ENT_QUOTES);
}
`;

let outside: string;

beforeAll(async () => {
  await loadGrammars(['php', 'java', 'python']);
  outside = mkdtempSync(join(tmpdir(), 'jscr-outside-'));
  writeFileSync(join(outside, 'helpers.php'), HELPERS);
});

afterAll(() => rmSync(outside, { recursive: true, force: true }));

describe('helpers of other files', () => {
  it('takes an escaping helper defined in another file as escaping, and only for what it escapes', async () => {
    const escaped = await review({ 'index.php': PAGE_ESCAPED, 'lib/helpers.php': HELPERS }, 'index.php');
    expect(escaped.analysis.findings).toEqual([]);
    expect(escaped.repository.summaryOf('esc_out', 'php')).toEqual([
      { path: 'lib/helpers.php', function: 'esc_out', summary: { returnsFrom: [0], returnCleanedFor: [{ parameter: 0, kinds: ['xss'] }], parameterSinks: [], vets: [] } },
    ]);
    // HTML escaping is not SQL escaping: the same helper's result still injects into a query.
    const query = `<?php\nmysqli_query($db, "SELECT * FROM t WHERE q = '" . esc_out($_GET['q']) . "'");\n`;
    const sql = await review({ 'index.php': query, 'lib/helpers.php': HELPERS }, 'index.php');
    expect(sql.analysis.findings.map((f) => [f.rowId, f.line])).toEqual([['php-sql-function', 2]]);
  });

  it('makes a wrapper whose parameter reaches a sink a sink itself, reported at the call in the reviewed file', async () => {
    const db = `<?php\nclass Db {\n    public function rows($sql, $values = array()) {\n        $statement = $this->pdo->prepare($sql);\n        $statement->execute($values);\n        return $statement->fetchAll();\n    }\n}\n`;
    const built = `<?php\n$q = "SELECT * FROM t WHERE name LIKE '" . $_POST['name'] . "%'";\n$rows = $Database->rows($q);\n`;
    const bound = `<?php\n$rows = $Database->rows("SELECT * FROM t WHERE name LIKE ?", array($_POST['name'] . '%'));\n`;
    const vulnerable = await review({ 'page.php': built, 'classes/db.php': db }, 'page.php');
    expect(vulnerable.analysis.findings.map((f) => [f.rowId, f.line])).toEqual([['php-sql-method', 3]]);
    expect(vulnerable.analysis.findings[0]?.path.at(-1)?.text).toContain('classes/db.php:4');
    expect((await review({ 'page.php': bound, 'classes/db.php': db }, 'page.php')).analysis.findings).toEqual([]);
  });

  it('looks up the methods of an object another file builds from the request, and takes what each returns', async () => {
    const wrapper = `class RequestWrapper:\n    def __init__(self, request):\n        self.request = request\n\n    def form_value(self, name):\n        return self.request.form.get(name)\n\n    def fixed_value(self, name):\n        return "guest"\n`;
    const view = (method: string) =>
      `import os\nfrom flask import request\nfrom lib.wrap import RequestWrapper\n\n@app.route("/ping", methods=["POST"])\ndef ping():\n    wrapped = RequestWrapper(request)\n    os.system("ping -c 1 " + wrapped.${method}("host"))\n    return "sent"\n`;
    const vulnerable = await review({ 'views.py': view('form_value'), 'lib/wrap.py': wrapper }, 'views.py');
    expect(vulnerable.analysis.findings.map((f) => [f.rowId, f.line])).toEqual([['python-os-command', 8]]);
    expect((await review({ 'views.py': view('fixed_value'), 'lib/wrap.py': wrapper }, 'views.py')).analysis.findings).toEqual([]);
  });

  it('does not read a definition through a symlink that leaves the repository', async () => {
    for (const worktree of [false, true]) {
      const run = await review({ 'index.php': PAGE_ESCAPED, 'lib/helpers.php': { symlink: join(outside, 'helpers.php') } }, 'index.php', { worktree });
      // Nothing was summarised from the file outside: the print stays a finding.
      expect(run.repository.summaryOf('esc_out', 'php')).toEqual([]);
      expect(run.analysis.findings.map((f) => f.rowId)).toEqual(['php-output']);
    }
  });

  it('skips a defining file over the size limit, and says so', async () => {
    const huge = `${HELPERS}\n// ${'x'.repeat(5000)}\n`;
    const run = await review({ 'index.php': PAGE_ESCAPED, 'lib/helpers.php': huge }, 'index.php', { limits: { fileBytes: 4096 } });
    expect(run.repository.summaryOf('esc_out', 'php')).toEqual([]);
    expect(run.repository.notes.join('\n')).toMatch(/lib\/helpers\.php not read \(\d+ bytes, over 4096\)/);
    expect(run.analysis.findings.map((f) => f.rowId)).toEqual(['php-output']);
  });

  it('ends on helpers that call each other across files, and on files that include each other', async () => {
    const a = `<?php\nrequire_once 'b.php';\nfunction pass_a($v) { return pass_b($v); }\n`;
    const b = `<?php\nrequire_once 'a.php';\nfunction pass_b($v) { return pass_a($v); }\n`;
    const page = `<?php\nrequire_once 'a.php';\necho pass_a($_GET['q']);\n`;
    const run = await review({ 'page.php': page, 'a.php': a, 'b.php': b }, 'page.php');
    // The cycle is cut where it closes; what goes in still comes out and reaches the echo.
    expect(run.analysis.findings.map((f) => [f.rowId, f.line])).toEqual([['php-output', 3]]);
    expect(run.analysis.limits).toEqual([]);
  });

  it('leaves a name alone when the call could run too many definitions', async () => {
    const helper = (n: number) => `<?php\nclass H${n} { public function tidy($v) { return htmlspecialchars($v); } }\n`;
    const files: FileMap = { 'page.php': `<?php\necho $h->tidy($_GET['q']);\n` };
    for (let n = 0; n < 4; n++) files[`h${n}.php`] = helper(n);
    const run = await review(files, 'page.php');
    expect(run.analysis.findings.map((f) => f.rowId)).toEqual(['php-output']);
    delete files['h3.php'];
    expect((await review(files, 'page.php')).analysis.findings).toEqual([]);
  });

  it('looks a Java method up by its receiver\'s class, so a getter of a request wrapper that returns a constant carries nothing', async () => {
    const wrapper = `package app.forms;
public class FormReader {
    private final javax.servlet.http.HttpServletRequest request;
    public FormReader(javax.servlet.http.HttpServletRequest request) { this.request = request; }
    public String getField(String name) { return request.getParameter(name); }
    public String getDefaultValue(String name) { return "guest"; }
}
`;
    const page = (getter: string) => `package app.web;
class Search extends javax.servlet.http.HttpServlet {
  public void doPost(javax.servlet.http.HttpServletRequest request, javax.servlet.http.HttpServletResponse response) throws Exception {
    app.forms.FormReader form = new app.forms.FormReader(request);
    String who = form.${getter}("who");
    java.sql.Statement st = null;
    st.executeQuery("select * from t where who = '" + who + "'");
  }
}
`;
    // Every caller names the method; only the class's own file is read (and a caller does not count as one).
    const files = (getter: string): FileMap => ({ 'src/app/web/Search.java': page(getter), 'src/app/web/Other.java': page(getter).replace('class Search', 'class Other'), 'src/app/forms/FormReader.java': wrapper });
    const constant = await review(files('getDefaultValue'), 'src/app/web/Search.java', { language: 'java' });
    expect(constant.analysis.findings).toEqual([]);
    expect(constant.repository.summaryOf('FormReader.getDefaultValue', 'java').map((s) => s.path)).toEqual(['src/app/forms/FormReader.java']);
    const parameter = await review(files('getField'), 'src/app/web/Search.java', { language: 'java' });
    expect(parameter.analysis.findings.map((f) => [f.rowId, f.line])).toEqual([['java-sql-query', 7]]);
    // The source is the helper's line, named with its file, at the call.
    expect(parameter.analysis.findings[0]?.path[0]).toMatchObject({ role: 'source', line: 5, text: 'request.getParameter(name) (src/app/forms/FormReader.java:5)' });
    // Without the class in the repository, a getter of an object built from the request is still taken as handing out request data.
    const alone = await review({ 'src/app/web/Search.java': page('getDefaultValue') }, 'src/app/web/Search.java', { language: 'java' });
    expect(alone.analysis.findings.map((f) => [f.rowId, f.line])).toEqual([['java-sql-query', 7]]);
  });

  it('runs the one implementation of an interface a Java call goes through', async () => {
    const contract = `package app.reports;
public interface ReportStore {
    java.util.List<String> titlesOf(String owner) throws Exception;
}
`;
    const implementation = (body: string) => `package app.reports.jdbc;
import app.reports.ReportStore;
public class JdbcReportStore implements ReportStore {
    private java.sql.Connection connection;
    public java.util.List<String> titlesOf(String owner) throws Exception {
        ${body}
        return new java.util.ArrayList<>();
    }
}
`;
    const concatenated = 'connection.createStatement().executeQuery("select title from report where owner = \'" + owner + "\'");';
    const bound = 'java.sql.PreparedStatement ps = connection.prepareStatement("select title from report where owner = ?"); ps.setString(1, owner); ps.executeQuery();';
    const page = `package app.web;
import app.reports.ReportStore;
class Reports extends javax.servlet.http.HttpServlet {
  private ReportStore store;
  public void doGet(javax.servlet.http.HttpServletRequest request, javax.servlet.http.HttpServletResponse response) throws Exception {
    String owner = request.getParameter("owner");
    response.setStatus(store.titlesOf(owner).isEmpty() ? 404 : 200);
  }
}
`;
    const files = (body: string): FileMap => ({ 'src/app/web/Reports.java': page, 'src/app/reports/ReportStore.java': contract, 'src/app/reports/jdbc/JdbcReportStore.java': implementation(body) });
    const found = await review(files(concatenated), 'src/app/web/Reports.java', { language: 'java' });
    expect(found.analysis.findings.map((f) => [f.rowId, f.line])).toEqual([['java-sql-query', 7]]);
    expect((await review(files(bound), 'src/app/web/Reports.java', { language: 'java' })).analysis.findings).toEqual([]);
    // Two implementations: which one runs is the application's wiring, so neither is taken for the call.
    const two = { ...files(concatenated), 'src/app/reports/mem/MemoryReportStore.java': implementation('owner.trim();').replace('JdbcReportStore', 'MemoryReportStore').replace('package app.reports.jdbc', 'package app.reports.mem') };
    expect((await review(two, 'src/app/web/Reports.java', { language: 'java' })).analysis.findings).toEqual([]);
  });
});
