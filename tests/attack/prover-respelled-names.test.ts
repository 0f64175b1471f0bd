/**
 * `jscr prove` reads names by their text, as the review's checks do: an operation written so the
 * language reads another name (`db.users.\u0064elete`, Java's `\u0064eleteById`, Python's NFKC-folded
 * `ｄｅｌｅｔｅ`) is invisible to it. Such a file makes the run incomplete (exit 3), its reason naming the
 * file, never a complete run without findings; the same escapes in strings stay ordinary.
 */
import { describe, expect, it } from 'vitest';
import { runJscr } from '../helpers/cli.js';
import { reposRemovedAfterEach } from '../helpers/repo.js';

const makeRepo = reposRemovedAfterEach();

interface ProveReport {
  exit_code: number;
  findings: unknown[];
  degradations: string[];
}

async function prove(files: Record<string, string>, args: string[] = ['--base', 'HEAD~1']): Promise<ProveReport> {
  const repo = makeRepo({ 'README.md': '# app\n', 'package.json': '{"name":"app","dependencies":{"express":"4"}}\n', 'requirements.txt': 'flask\nflask_sqlalchemy\n' });
  repo.commit(files);
  const run = await runJscr(['prove', ...args, '--format', 'json'], repo.root);
  expect(run.code, run.stderr).not.toBe(2);
  const report = JSON.parse(run.stdout) as ProveReport;
  expect(report.exit_code).toBe(run.code);
  return report;
}

const EXPRESS = (call: string, label: string) =>
  `const express = require('express');\nconst app = express();\napp.post('/users/:id/remove', async (req, res) => {\n  await db.users.${call}({ where: { id: req.params.id } });\n  res.send(${label});\n});\nmodule.exports = app;\n`;
const FLASK = (name: string) =>
  `from flask import Flask\nfrom flask_sqlalchemy import SQLAlchemy\n\napp = Flask(__name__)\ndb = SQLAlchemy(app)\n\n\n@app.route("/users/<int:user_id>/remove", methods=["POST"])\ndef remove_user(user_id):\n    user = db.session.get(User, user_id)\n    db.session.${name}(user)\n    db.session.commit()\n    return "ok"\n`;
const SPRING = (call: string) =>
  `package app;\n\nimport org.springframework.web.bind.annotation.*;\n\n@RestController\npublic class UserController {\n    private final UserRepository users;\n\n    public UserController(UserRepository users) { this.users = users; }\n\n    @DeleteMapping("/users/{id}")\n    public void remove(@PathVariable Long id) {\n        users.${call}(id);\n    }\n}\n`;

describe('attack: a name the prover would read by its text', () => {
  it('the plain spelling is a finding (the operation the escapes hide is one the prover sees)', async () => {
    const report = await prove({ 'app.js': EXPRESS('delete', "'ok'"), 'app.py': FLASK('delete') });
    expect(report.exit_code).toBe(1);
    expect(report.findings.length).toBeGreaterThanOrEqual(2);
  });

  it('an escaped JavaScript or Java name, or a Python name NFKC folds, leaves the change incomplete, each file named', async () => {
    const report = await prove({ 'app.js': EXPRESS('\\u0064elete', "'ok'"), 'app.py': FLASK('ｄｅｌｅｔｅ'), 'src/main/java/app/UserController.java': SPRING('\\u0064eleteById') });
    expect(report.exit_code).toBe(3);
    const named = (path: string) => report.degradations.filter((line) => line.includes(` ${path}: `));
    expect(named('app.js')).toEqual([expect.stringMatching(/^escaped_name app\.js: .*reads as "delete"/)]);
    expect(named('app.py')).toEqual([expect.stringMatching(/^folded_name app\.py: .*is "delete" to Python/)]);
    expect(named('src/main/java/app/UserController.java').some((line) => line.startsWith('escaped_name '))).toBe(true);
  });

  it('the whole repository (no --base) is incomplete the same way', async () => {
    const report = await prove({ 'app.js': EXPRESS('\\u0064elete', "'ok'") }, []);
    expect(report.exit_code).toBe(3);
    expect(report.degradations).toContainEqual(expect.stringMatching(/^escaped_name app\.js: /));
  });

  it('escapes in strings and comments, and non-ASCII names that stay as written, leave the run complete', async () => {
    const report = await prove({
      'app.js': EXPRESS('findMany', "'caf\\u00e9 \\u0041' // \\u0064elete"),
      'app.py': '# ｄｅｌｅｔｅ in a comment\ngröße = "ＡＢＣ"\n',
      'src/main/java/app/Text.java': 'package app;\n\nclass Text {\n    static final String E = "caf\\u00e9";\n}\n',
    });
    expect(report.degradations.filter((line) => /^(escaped|folded)_name /.test(line))).toEqual([]);
    expect(report.exit_code).not.toBe(3);
  });
});
