/**
 * Checks in name only (src/prover/fake-checks.ts): a helper or decorator the repository defines with a
 * check's name (`check_permission`, `@require_admin`, `checkPermission`) whose body checks nothing
 * must not discharge the deletion it stands before. The honest helper of the same name next to it must.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

async function labels(files: Record<string, string>): Promise<string[]> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBe(1);
  return result.findings.map((f) => f.label);
}

/** A Flask view deleting a user, with `helpers` above it, `decorator` under its route and `check` in its body. */
const flask = (helpers: string, decorator: string, check: string): Record<string, string> => ({
  'app/web.py': `from flask import Flask, abort
from app.models import User
app = Flask(__name__)
${helpers}
@app.route("/users/<int:uid>", methods=["DELETE"])
${decorator}def delete_user(uid):
${check}    User.query.get(uid).delete()
    return "ok"
`,
});

/** An Express route deleting a user behind `requireAdmin`, which refuses unless `checkPermission(req.user)`. */
const express = (checkPermission: string): Record<string, string> => ({
  'src/app.js': `const express = require('express');
const db = require('./db');
const app = express();
${checkPermission}
function requireAdmin(req, res, next) {
  if (!checkPermission(req.user)) {
    return res.status(403).end();
  }
  next();
}
app.delete('/users/:id', requireAdmin, async (req, res) => {
  await db.user.delete({ where: { id: req.params.id } });
  res.send('ok');
});
module.exports = app;
`,
});

const callCheck = '    check_permission(current_user, "admin")\n';
const refuseUnless = (test: string): string => `    if not ${test}:\n        abort(403)\n`;

describe('attack: a repository helper named like a check that checks nothing', () => {
  it.each([
    ['a decorator that only wraps the view', flask('def require_admin(f):\n    def wrapper(*args, **kwargs):\n        return f(*args, **kwargs)\n    return wrapper\n', '@require_admin\n', '')],
    ['a decorator that returns the view', flask('def admin_only(f):\n    return f\n', '@admin_only\n', '')],
    ['a check helper whose body is pass', flask('def check_permission(user, perm):\n    """Checks the permission."""\n    pass\n', '', callCheck)],
    ['a predicate returning True under `if not ...: abort(403)`', flask('def check_permission(user, perm):\n    return True\n', '', refuseUnless('check_permission(current_user, "admin")'))],
    ['a predicate named for admins returning True', flask('def is_admin_user(user):\n    return True\n', '', refuseUnless('is_admin_user(current_user)'))],
    ['an Express middleware refusing unless a predicate returning true', express('function checkPermission(user) {\n  return true;\n}')],
    ['an Express middleware refusing unless an arrow returning true', express('const checkPermission = (user) => true;')],
  ])('%s: the deletion is a finding', async (_name, files) => {
    expect(await labels(files)).toEqual(['unguarded_path']);
  });

  it.each([
    ['a decorator that refuses non-admins', flask('def require_admin(f):\n    def wrapper(*args, **kwargs):\n        if not current_user.is_admin:\n            abort(403)\n        return f(*args, **kwargs)\n    return wrapper\n', '@require_admin\n', '')],
    ['a check helper that refuses', flask('def check_permission(user, perm):\n    if perm not in user.perms:\n        abort(403)\n', '', callCheck)],
    ['a predicate that reads the user', flask('def is_admin_user(user):\n    return user.is_admin\n', '', refuseUnless('is_admin_user(current_user)'))],
    ['a library helper the repository does not define', flask('', '', refuseUnless('check_permission(current_user, "admin")'))],
    ['an Express predicate that reads the user', express('function checkPermission(user) {\n  return user.isAdmin;\n}')],
  ])('%s: still a check', async (_name, files) => {
    expect(await labels(files)).toEqual([]);
  });
});
