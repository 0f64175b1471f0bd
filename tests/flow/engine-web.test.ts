/**
 * The data-flow engine with the built-in rows on TypeScript, JavaScript and PHP idioms met on
 * hand-written held-out cases (fixtures/flow-heldout/): each case names the rows and lines it must
 * report, and its safe twin must report nothing of that kind.
 */
import { describe, expect, it } from 'vitest';
import { analyseFile, lowerText } from '../../src/flow/index.js';
import { loadBuiltinFlowRows } from '../../src/rules/flow-load.js';

type WebLanguage = 'javascript' | 'typescript' | 'php';

async function findings(language: WebLanguage, source: string): Promise<string[]> {
  const extension = { javascript: 'js', typescript: 'ts', php: 'php' }[language];
  const lowered = await lowerText(`case.${extension}`, language, source, Date.now() + 10_000);
  if (lowered === null || !lowered.ok) throw new Error('did not lower');
  const rows = loadBuiltinFlowRows().byLanguage.get(language);
  if (rows === undefined) throw new Error(`no ${language} rows`);
  return analyseFile(lowered.file, { rows }).findings.map((f) => `${f.rowId}@${String(f.line)}`);
}

describe('NestJS handler parameters', () => {
  const controller = (decorator: string) => `
@Controller('orders')
export class OrderController {
  constructor(private readonly dataSource: DataSource) {}

  @Get(':id')
  async one(${decorator} id: string) {
    return this.dataSource.query('SELECT * FROM orders WHERE id = ' + id);
  }
}
`;

  it('takes a parameter bound from the request by its decorator as outside data', async () => {
    expect(await findings('typescript', controller("@Param('id')"))).toEqual(['js-sql-query@8']);
    expect(await findings('typescript', controller('@Body()'))).toEqual(['js-sql-query@8']);
  });

  it('leaves a plain parameter and the session or response parameter alone', async () => {
    expect(await findings('typescript', controller(''))).toEqual([]);
    expect(await findings('typescript', controller('@Res()'))).toEqual([]);
  });
});

describe('tagged templates', () => {
  it('calls the tag with the text, so an escaping tag clears it', async () => {
    const search = (tag: string) => `
const ldapEscape = require('ldap-escape');
app.get('/who', (req, res) => {
  const filter = ${tag}\`(uid=\${req.query.uid})\`;
  client.search('ou=people,dc=example,dc=org', { filter }, () => res.end());
});
`;
    expect(await findings('javascript', search('String.raw'))).toEqual(['js-ldap-search@5']);
    expect(await findings('javascript', search('ldapEscape.filter'))).toEqual([]);
  });
});

describe('constants a TypeScript cast or a PHP define() names', () => {
  it('folds a module constant written with `as`', async () => {
    const source = (value: string) => `
const USE_QUERY = ${value} as boolean;
app.get('/list', async (req: Request, res: Response) => {
  const table = USE_QUERY ? String(req.query.table) : 'items';
  res.json(await pool.query('SELECT * FROM ' + table));
});
`;
    expect(await findings('typescript', source('true'))).toEqual(['js-sql-query@5']);
    expect(await findings('typescript', source('false'))).toEqual([]);
  });

  it("folds define('NAME', literal) in top-level code and in functions", async () => {
    const source = (value: string) => `<?php
define('TRUST_INPUT', ${value});
function table() { return TRUST_INPUT ? $_GET['t'] : 'logs'; }
$db->query('SELECT * FROM ' . table());
if (TRUST_INPUT) { $db->query('DELETE FROM ' . $_GET['t']); }
`;
    expect(await findings('php', source('true'))).toEqual(['php-sql-method@4', 'php-sql-method@5']);
    expect(await findings('php', source('false'))).toEqual([]);
  });

  it('does not fold a name defined twice', async () => {
    const source = `<?php
define('MODE', false);
define('MODE', true);
if (MODE) { $db->query('DELETE FROM ' . $_GET['t']); }
`;
    expect(await findings('php', source)).toEqual(['php-sql-method@4']);
  });
});

describe('value checks that read the callee', () => {
  it('reports a hash function whose name is the algorithm', async () => {
    expect(await findings('javascript', "const sha1 = require('sha1');\nmodule.exports = (secret) => sha1(secret);\n")).toEqual(['js-weak-hash-function@2']);
    expect(await findings('javascript', "const CryptoJS = require('crypto-js');\nmodule.exports = (secret) => CryptoJS.SHA256(secret).toString();\n")).toEqual([]);
  });

  it("reports crypto-js's weak cipher objects", async () => {
    expect(await findings('javascript', "const CryptoJS = require('crypto-js');\nmodule.exports = (t, k) => CryptoJS.RC4.encrypt(t, k);\n")).toEqual(['js-weak-cipher-function@2']);
    expect(await findings('javascript', "const CryptoJS = require('crypto-js');\nmodule.exports = (t, k) => CryptoJS.AES.encrypt(t, k);\n")).toEqual([]);
  });
});

describe('class constants that reach a value check', () => {
  it('reads a field declared with a constant that no method writes', async () => {
    const source = (algorithm: string, rewrite: string) => `
import { createCipheriv } from 'crypto';
export class Sealer {
  private mode = '${algorithm}';
  reset() { ${rewrite} }
  seal(key: Buffer, data: Buffer) { return createCipheriv(this.mode, key, null).update(data); }
}
`;
    expect(await findings('typescript', source('bf-ecb', ''))).toEqual(['js-weak-cipher@6']);
    expect(await findings('typescript', source('aes-256-gcm', ''))).toEqual([]);
    // a method may put another algorithm there, so the declaration alone is not what seal() reads
    expect(await findings('typescript', source('bf-ecb', 'this.mode = String(process.env.MODE);'))).toEqual([]);
  });

  it("reads PHP's self:: and static:: class constants", async () => {
    const source = (algo: string) => `<?php
class Signer {
    const ALGO = '${algo}';
    public function sign(string $body): string { return hash_hmac(static::ALGO, $body, 'k'); }
}
`;
    expect(await findings('php', source('sha1'))).toEqual(['php-weak-hash-algorithm@4']);
    expect(await findings('php', source('sha512'))).toEqual([]);
  });
});
