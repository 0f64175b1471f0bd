/**
 * The declared-permission norm proved end to end: a read handler with no check of its own, among
 * handlers of the same verb that all declare a permission, is the one the author forgot.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';
import { DECORATORS } from './python-fixtures.js';

async function normReads(files: Record<string, string>): Promise<string[]> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  return result.findings.filter((f) => /-norm-read$/.test(f.operation.id)).map((f) => `${f.function}:${f.label}`);
}

const resource = (name: string, decorator: string, verb = 'get') => `
@stats.route("/${name.toLowerCase()}")
class ${name}(Resource):
    ${decorator}
    def ${verb}(self):
        return {"count": Users.query.count()}
`;

const module = (...resources: string[]) => `from flask_restx import Namespace, Resource
from app.decorators import admins_only, authed_only
from app.models import Users

stats = Namespace("stats")
${resources.join('\n')}`;

describe('declared-permission norm (Flask-RESTX resources)', () => {
  it('a read without a check among reads that all declare admins_only is reported; with the decorator it is not', async () => {
    const open = module(resource('Registered', ''), resource('Confirmed', '@admins_only'), resource('Banned', '@admins_only'));
    expect(await normReads({ 'app/decorators.py': DECORATORS, 'app/stats/users.py': open })).toEqual(['Registered.get:unguarded_path']);
    const fixed = module(resource('Registered', '@admins_only'), resource('Confirmed', '@admins_only'), resource('Banned', '@admins_only'));
    expect(await normReads({ 'app/decorators.py': DECORATORS, 'app/stats/users.py': fixed })).toEqual([]);
  });

  it('a small module shares the norm of its folder', async () => {
    const users = module(resource('Registered', ''), resource('Confirmed', '@admins_only'));
    const teams = module(resource('Teams', '@admins_only'));
    expect(await normReads({ 'app/decorators.py': DECORATORS, 'app/stats/users.py': users, 'app/stats/teams.py': teams })).toEqual(['Registered.get:unguarded_path']);
  });

  it('no norm: one sibling only, a sibling without a check, a login of its own, or siblings of another verb', async () => {
    expect(await normReads({ 'app/decorators.py': DECORATORS, 'app/stats/users.py': module(resource('Registered', ''), resource('Confirmed', '@admins_only')) })).toEqual([]);
    expect(await normReads({ 'app/decorators.py': DECORATORS, 'app/stats/users.py': module(resource('Registered', ''), resource('Confirmed', '@admins_only'), resource('Public', '')) })).toEqual([]);
    expect(await normReads({ 'app/decorators.py': DECORATORS, 'app/stats/users.py': module(resource('Registered', '@authed_only'), resource('Confirmed', '@admins_only'), resource('Banned', '@admins_only')) })).toEqual([]);
    // A public listing beside admin-only writes is ordinary REST.
    const rest = module(resource('Listing', ''), resource('Create', '@admins_only', 'post'), resource('Remove', '@admins_only', 'delete'));
    expect(await normReads({ 'app/decorators.py': DECORATORS, 'app/stats/users.py': rest })).toEqual([]);
  });

  it('a handler that reads no stored records is not under the norm', async () => {
    const version = module(resource('Confirmed', '@admins_only'), resource('Banned', '@admins_only')) + '\n@stats.route("/version")\nclass Version(Resource):\n    def get(self):\n        return {"version": "1.0"}\n';
    expect(await normReads({ 'app/decorators.py': DECORATORS, 'app/stats/users.py': version })).toEqual([]);
  });
});
