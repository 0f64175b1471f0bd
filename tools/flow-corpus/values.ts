/**
 * The value-check families (weak hash, weak cipher, weak random, insecure cookie): no outside data, but a
 * weak algorithm, mode, generator or cookie flag that reaches its use directly, through locals, from a
 * helper, through a constant branch, or from a .properties file next to the case.
 */
import type { Language } from './catalogue.js';
import type { Dialect } from './dialects.js';
import type { Framework, Parts, Source } from './frameworks.js';
import type { Label } from './shapes.js';

export const VALUE_SHAPES = ['direct', 'locals', 'helper', 'constant-branch', 'properties', 'left-out', 'options-object', 'purpose'] as const;
export type ValueShape = (typeof VALUE_SHAPES)[number];
/**
 * Shapes only some families have, each written out per language: a flag left out of the call (the
 * library default holds), a flag set in an options object built in a variable or by spreading another,
 * and a random value that reaches a secret (vulnerable) or a use that needs no secrecy (safe).
 */
type OwnShape = 'left-out' | 'options-object' | 'purpose';

/** Where the value is used: lines before the marked line, the marked line, lines after. */
interface Use {
  pre: string[];
  line: string;
  after: string[];
  returns?: boolean;
  params?: string[];
  imports?: string[];
}

interface ValueFamily {
  /** Weak values in the language's syntax; the case rotation picks one (its index reaches `use`). */
  weak: string[];
  strong: string;
  /** Java and TypeScript type of a variable holding the value. */
  type: string;
  imports: string[];
  fields: string[];
  use: (value: string, data: string, fw: string, index: number) => Use;
  /** The direct shape's own spelling (a weak function by name, a missing flag), when it differs. */
  direct?: (weak: boolean, data: string, fw: string, index: number) => Use | undefined;
  /** The key a .properties file sets, and how the read text becomes the value. */
  property?: { key: string; convert: (raw: string) => string };
  frameworks?: string[];
  /** The shapes of `OwnShape` this family has, for a label. */
  own?: Partial<Record<OwnShape, (label: Label, data: string, fw: string, index: number) => Use>>;
}

const use = (line: string, pre: string[] = [], after: string[] = [], extra: Partial<Use> = {}): Use => ({ pre, line, after, ...extra });
const unquote = (lit: string): string => lit.replace(/^["']|["']$/g, '');

const weakHash: Partial<Record<Language, ValueFamily>> = {
  python: {
    weak: ['"md5"', '"sha1"'],
    strong: '"sha256"',
    type: 'String',
    imports: ['import hashlib'],
    fields: [],
    use: (v, data) => use(`digest = hashlib.new(${v}, ${data}.encode()).hexdigest()`),
    // md5 made empty and fed through update(), sha1 handed the data at once
    direct: (weak, data, _fw, i) =>
      weak && i % 2 === 0
        ? use('digest = hashlib.md5()', [], [`digest.update(${data}.encode())`])
        : use(`digest = hashlib.${weak ? 'sha1' : 'sha256'}(${data}.encode()).hexdigest()`),
  },
  java: {
    weak: ['"MD5"', '"SHA-1"', '"MD2"'],
    strong: '"SHA-256"',
    type: 'String',
    imports: ['import java.security.MessageDigest;', 'import java.nio.charset.StandardCharsets;'],
    fields: [],
    use: (v, data) => use(`MessageDigest md = MessageDigest.getInstance(${v});`, [], [`byte[] digest = md.digest(${data}.getBytes(StandardCharsets.UTF_8));`]),
    property: { key: 'hash.algorithm', convert: (raw) => raw },
  },
  javascript: {
    weak: ['"md5"', '"sha1"'],
    strong: '"sha256"',
    type: 'string',
    imports: ['import crypto from "node:crypto";'],
    fields: [],
    use: (v, data) => use(`const digest = crypto.createHash(${v}).update(${data}).digest("hex");`),
  },
  php: {
    weak: ["'md5'", "'sha1'"],
    strong: "'sha256'",
    type: 'string',
    imports: [],
    fields: [],
    use: (v, data) => use(`$digest = hash(${v}, ${data});`),
    direct: (weak, data, _fw, i) => use(weak ? `$digest = ${i % 2 === 0 ? 'md5' : 'sha1'}(${data});` : `$digest = hash('sha256', ${data});`),
    property: { key: 'hash.algorithm', convert: (raw) => raw },
  },
};

const weakCipher: Partial<Record<Language, ValueFamily>> = {
  python: {
    weak: ['AES.MODE_ECB'],
    strong: 'AES.MODE_GCM',
    type: 'int',
    imports: ['from Crypto.Cipher import AES, DES3', 'from Crypto.Random import get_random_bytes'],
    fields: ['KEY = get_random_bytes(16)'],
    use: (v, data) => use(`cipher = AES.new(KEY, ${v})`, [], [`sealed = cipher.encrypt(${data}.encode().ljust(32, b"\\0"))`]),
    direct: (weak, data) =>
      weak
        ? use('cipher = DES3.new(KEY + KEY[:8], DES3.MODE_CBC)', [], [`sealed = cipher.encrypt(${data}.encode().ljust(32, b"\\0"))`])
        : use('cipher = AES.new(KEY, AES.MODE_GCM)', [], [`sealed, tag = cipher.encrypt_and_digest(${data}.encode())`]),
  },
  java: {
    weak: ['"DES/ECB/PKCS5Padding"', '"DESede/CBC/PKCS5Padding"', '"AES/ECB/PKCS5Padding"', '"RC4"', '"Blowfish"'],
    strong: '"AES/GCM/NoPadding"',
    type: 'String',
    imports: ['import javax.crypto.Cipher;', 'import javax.crypto.SecretKey;', 'import java.nio.charset.StandardCharsets;'],
    fields: ['private SecretKey key;'],
    use: (v, data) => use(`Cipher cipher = Cipher.getInstance(${v});`, [], ['cipher.init(Cipher.ENCRYPT_MODE, key);', `byte[] sealed = cipher.doFinal(${data}.getBytes(StandardCharsets.UTF_8));`]),
    property: { key: 'cipher.transformation', convert: (raw) => raw },
  },
  javascript: {
    weak: ['"des-ede3-cbc"', '"aes-128-ecb"', '"bf-cbc"'],
    strong: '"aes-256-gcm"',
    type: 'string',
    imports: ['import crypto from "node:crypto";'],
    fields: ['const key = crypto.randomBytes(32);', 'const iv = crypto.randomBytes(12);'],
    use: (v, data) => use(`const cipher = crypto.createCipheriv(${v}, key, iv);`, [], [`const sealed = Buffer.concat([cipher.update(${data}), cipher.final()]);`]),
  },
  php: {
    weak: ["'des-ede3-cbc'", "'aes-128-ecb'", "'bf-cbc'"],
    strong: "'aes-256-gcm'",
    type: 'string',
    imports: [],
    fields: [],
    use: (v, data) => use(`$sealed = openssl_encrypt(${data}, ${v}, $key, 0, $iv, $tag);`, ['$key = random_bytes(32);', '$iv = random_bytes(12);']),
    property: { key: 'cipher.transformation', convert: (raw) => raw },
  },
};

const pySession = (fw: string): string => (fw === 'flask' ? 'session' : 'request.session');
const weakRandom: Partial<Record<Language, ValueFamily>> = {
  python: {
    weak: ['str(random.normalvariate(0, 1))[2:]', 'str(random.getrandbits(64))', '"%032x" % random.randrange(16 ** 32)', 'str(random.random())'],
    strong: 'secrets.token_hex(16)',
    type: 'String',
    imports: ['import random', 'import secrets'],
    fields: [],
    use: (v, _data, fw) => use(`${pySession(fw)}["csrf_token"] = ${v}`, [], [], { imports: fw === 'flask' ? ['from flask import session'] : [] }),
    own: {
      purpose: (label, _data, _fw, i) =>
        label === 'vulnerable'
          ? use(i % 2 === 0 ? 'reset["token"] = str(random.randint(10 ** 11, 10 ** 12))' : 'reset["otp"] = "%06d" % (random.getrandbits(32) % 1000000)', ['reset = {}'], ['logger.info("reset issued")'])
          : use(i % 2 === 0 ? 'time.sleep(random.uniform(0.1, 0.5))' : 'widget["element_id"] = "w%d" % random.randint(0, 999)', ['widget = {}'], [], { imports: ['import time'] }),
    },
  },
  java: {
    weak: ['Long.toHexString(new Random().nextLong())', 'Integer.toString(new Random().nextInt())', 'Double.toString(Math.random())'],
    strong: 'Long.toHexString(new SecureRandom().nextLong())',
    type: 'String',
    imports: ['import java.util.Random;', 'import java.security.SecureRandom;', 'import javax.servlet.http.Cookie;'],
    fields: [],
    use: (v, _data, _fw, i) => (i % 2 === 0 ? use(`request.getSession().setAttribute("csrfToken", ${v});`) : use(`response.addCookie(new Cookie("remember_token", ${v}));`)),
    own: {
      purpose: (label, _data, _fw, i) =>
        label === 'vulnerable'
          ? use(`request.getSession().setAttribute("resetCode", String.valueOf(${i % 2 === 0 ? 'new Random().nextInt(900000) + 100000' : '(int) (Math.random() * 1000000)'}));`)
          : use(i % 2 === 0 ? 'request.setAttribute("widgetId", "w" + new Random().nextInt(1000));' : 'request.setAttribute("retryAfterMs", 100 + (long) (Math.random() * 400));'),
    },
  },
  javascript: {
    weak: ['Math.random().toString(36).slice(2)', 'String(Math.floor(Math.random() * 1e16))'],
    strong: 'crypto.randomBytes(16).toString("hex")',
    type: 'string',
    imports: ['import crypto from "node:crypto";'],
    fields: [],
    use: (v, _data, fw) => (fw === 'koa' ? use(`ctx.cookies.set("remember_token", ${v}, { secure: true, httpOnly: true });`) : use(`res.cookie("remember_token", ${v}, { secure: true, httpOnly: true });`)),
    frameworks: ['express', 'koa'],
    own: {
      purpose: (label, _data, _fw, i) =>
        label === 'vulnerable'
          ? use(i % 2 === 0 ? 'account.resetToken = String(Math.floor(Math.random() * 1e12));' : 'account["apiKey"] = (Math.random() * 1e16).toString(16);', ['const account = {};'], ['console.info("reset issued");'])
          : use(i % 2 === 0 ? 'setTimeout(() => console.info("retrying"), Math.floor(Math.random() * 500));' : 'panel.elementId = "w" + Math.floor(Math.random() * 1000);', ['const panel = {};']),
    },
  },
  php: {
    weak: ['(string) mt_rand()', 'uniqid()', '(string) rand()'],
    strong: 'bin2hex(random_bytes(16))',
    type: 'string',
    imports: [],
    fields: [],
    use: (v, _data, fw) =>
      use(fw === 'symfony' ? `$request->getSession()->set('csrf_token', ${v});` : fw === 'laravel' ? `$request->session()->put('csrf_token', ${v});` : `$_SESSION['csrf_token'] = ${v};`),
    own: {
      purpose: (label, _data, _fw, i) =>
        label === 'vulnerable'
          ? use(i % 2 === 0 ? "$reset['token'] = (string) mt_rand(100000, 999999);" : "$reset['api_key'] = dechex(mt_rand() * 4096);", ['$reset = [];'], ["error_log('reset issued');"])
          : use(i % 2 === 0 ? 'usleep(mt_rand(1000, 5000));' : "$widget['element_id'] = 'w' . mt_rand(0, 999);", ['$widget = [];']),
    },
  },
};

const pyCookie = (fw: string, call: string): Use => {
  if (fw === 'fastapi') return use(`response.${call}`, [], [], { params: ['response: Response'], imports: ['from fastapi import Response'] });
  const made = fw === 'flask' ? { pre: 'resp = make_response("ok")', imports: ['from flask import make_response'] } : { pre: 'resp = HttpResponse("ok")', imports: [] };
  return use(`resp.${call}`, [made.pre], ['return resp'], { returns: true, imports: made.imports });
};
const jsCookie = (fw: string, data: string, opts: string): string => (fw === 'koa' ? `ctx.cookies.set("session_id", ${data}, ${opts});` : `res.cookie("session_id", ${data}, ${opts});`);
/** The (secure, httponly) pair with `v` in the Secure place for even rotations, in the HttpOnly place for odd ones; the other is `t`. */
const flags = (v: string, i: number, t: string): [string, string] => (i % 2 === 0 ? [v, t] : [t, v]);
const insecureCookie: Partial<Record<Language, ValueFamily>> = {
  python: {
    weak: ['False', 'False'],
    strong: 'True',
    type: 'boolean',
    imports: [],
    fields: [],
    use: (v, data, fw, i) => {
      const [secure, httponly] = flags(v, i, 'True');
      const call = `set_cookie("session_id", ${data}, secure=${secure}, httponly=${httponly})`;
      if (fw === 'fastapi') return use(`response.${call}`, [], [], { params: ['response: Response'], imports: ['from fastapi import Response'] });
      return pyCookie(fw, call);
    },
    own: {
      // secure left out: Flask and Django send the cookie over plain HTTP too.
      'left-out': (label, data, fw, i) => pyCookie(fw, `set_cookie("session_id", ${data}, ${label === 'vulnerable' ? (i % 2 === 0 ? 'httponly=True' : 'secure=True') : 'secure=True, httponly=True'})`),
    },
  },
  java: {
    weak: ['false', 'false'],
    strong: 'true',
    type: 'boolean',
    imports: ['import javax.servlet.http.Cookie;'],
    fields: [],
    use: (v, data, _fw, i) => {
      const [secure, httponly] = flags(v, i, 'true');
      return use('response.addCookie(cookie);', [`Cookie cookie = new Cookie("session_id", ${data});`, `cookie.setSecure(${secure});`, `cookie.setHttpOnly(${httponly});`]);
    },
    direct: (weak, data, _fw, i) =>
      use('response.addCookie(cookie);', [`Cookie cookie = new Cookie("session_id", ${data});`, ...(weak && i % 2 === 0 ? [] : ['cookie.setSecure(true);']), ...(weak && i % 2 === 1 ? [] : ['cookie.setHttpOnly(true);'])]),
    property: { key: 'cookie.secure', convert: (raw) => `Boolean.parseBoolean(${raw})` },
  },
  javascript: {
    weak: ['false', 'false'],
    strong: 'true',
    type: 'boolean',
    imports: [],
    fields: [],
    use: (v, data, fw, i) => {
      const [secure, httponly] = flags(v, i, 'true');
      return use(jsCookie(fw, data, `{ secure: ${secure}, httpOnly: ${httponly}, sameSite: "lax" }`));
    },
    frameworks: ['express', 'koa'],
    own: {
      // Express leaves Secure and HttpOnly off unless asked (Koa's own defaults differ: only express here).
      'left-out': (label, data, fw, i) =>
        use(fw === 'koa' ? jsCookie(fw, data, label === 'vulnerable' ? '{ secure: true, httpOnly: false }' : '{ secure: true }') : jsCookie(fw, data, label === 'vulnerable' ? (i % 2 === 0 ? '{ httpOnly: true }' : '{ secure: true }') : '{ secure: true, httpOnly: true }')),
      'options-object': (label, data, fw, i) => {
        const [secure, httponly] = flags(label === 'vulnerable' ? 'false' : 'true', i, 'true');
        return use(jsCookie(fw, data, `{ ...baseOptions, secure: ${secure} }`), [`const baseOptions = { httpOnly: ${httponly}, sameSite: "lax" };`]);
      },
    },
  },
  php: {
    weak: ['false', 'false'],
    strong: 'true',
    type: 'bool',
    imports: [],
    fields: [],
    use: (v, data, fw, i) => {
      const [secure, httponly] = flags(v, i, 'true');
      if (fw === 'symfony')
        return use(`$response->headers->setCookie(Cookie::create('session_id', ${data}, 0, '/', null, ${secure}, ${httponly}));`, ["$response = new Response('ok');"], ['return $response;'], { returns: true, imports: ['use Symfony\\Component\\HttpFoundation\\Cookie;'] });
      if (fw === 'laravel') return use(`return response('ok')->cookie('session_id', ${data}, 60, '/', null, ${secure}, ${httponly});`, [], [], { returns: true });
      return use(`setcookie('session_id', ${data}, ['secure' => ${secure}, 'httponly' => ${httponly}, 'samesite' => 'Lax']);`);
    },
    own: {
      // setcookie leaves both flags off unless asked, in the options array or by position.
      'left-out': (label, data, _fw, i) =>
        use(
          label === 'vulnerable'
            ? i % 2 === 0
              ? `setcookie('session_id', ${data}, ['httponly' => true, 'samesite' => 'Lax']);`
              : `setcookie('session_id', ${data}, time() + 3600, '/', '', true);`
            : i % 2 === 0
              ? `setcookie('session_id', ${data}, ['secure' => true, 'httponly' => true, 'samesite' => 'Lax']);`
              : `setcookie('session_id', ${data}, time() + 3600, '/', '', true, true);`,
        ),
      'options-object': (label, data, _fw, i) => {
        const [secure, httponly] = flags(label === 'vulnerable' ? 'false' : 'true', i, 'true');
        return use(`setcookie('session_id', ${data}, $options);`, ["$options = ['samesite' => 'Lax', 'secure' => true];", `$options['secure'] = ${secure};`, `$options['httponly'] = ${httponly};`]);
      },
    },
    property: { key: 'cookie.secure', convert: (raw) => `filter_var(${raw}, FILTER_VALIDATE_BOOLEAN)` },
  },
};

export const VALUE_FAMILIES: Record<string, Partial<Record<Language, ValueFamily>>> = {
  'weak-hash': weakHash,
  'weak-cipher': weakCipher,
  'weak-random': weakRandom,
  'insecure-cookie': insecureCookie,
};

/** The family's spec in a language (TypeScript shares JavaScript's). */
export function valueFamily(family: string, language: Language): ValueFamily | undefined {
  const table = VALUE_FAMILIES[family];
  return table?.[language === 'typescript' ? 'javascript' : language];
}

/** The result of one value-check case: its parts and, for the properties shape, the file's text. */
export interface ValueCase {
  parts: Parts;
  properties?: string;
}

/** Build one value-check case, or undefined where the shape does not exist in the language. */
export function valueCase(vf: ValueFamily, d: Dialect, fw: Framework, src: Source, shape: ValueShape, label: Label, k: number, caseName: string): ValueCase | undefined {
  const i = k % vf.weak.length;
  const weak = vf.weak[i] ?? vf.strong;
  const wanted = label === 'vulnerable' ? weak : vf.strong;
  const type = d.language === 'typescript' ? vf.type.toLowerCase().replace(/^int$/, 'number') : vf.type;
  const at = (u: Use): { lines: string[]; u: Use } => ({ u, lines: [...u.pre, u.line + d.marker, ...u.after] });
  const extra: { fields: string[]; helpers: string[]; imports: string[] } = { fields: [], helpers: [], imports: [] };
  let lines: string[];
  let used: Use;
  let properties: string | undefined;
  switch (shape) {
    case 'direct': {
      const u = vf.direct?.(label === 'vulnerable', src.expr, fw.id, i) ?? vf.use(wanted, src.expr, fw.id, i);
      ({ lines, u: used } = at(u));
      break;
    }
    case 'locals': {
      const u = vf.use(d.v('chosen'), src.expr, fw.id, i);
      ({ lines, u: used } = at(u));
      lines = [d.decl('configured', wanted, { type }), d.decl('chosen', d.v('configured'), { type }), ...lines];
      break;
    }
    case 'helper': {
      const fn = d.language === 'python' ? 'pick_setting' : 'pickSetting';
      extra.helpers.push(d.fn(fn, 'purpose', [d.log('setting for', d.v('purpose'))], wanted, fw.member, type).join('\n'));
      const u = vf.use(d.v('chosen'), src.expr, fw.id, i);
      ({ lines, u: used } = at(u));
      lines = [d.decl('chosen', d.call(fn, [d.lit('session')], fw.member), { type }), ...lines];
      break;
    }
    case 'constant-branch': {
      const cond = label === 'safe' ? '7 * 18 > 100' : '7 * 18 < 100';
      const u = vf.use(d.v('chosen'), src.expr, fw.id, i);
      ({ lines, u: used } = at(u));
      lines = [d.decl('chosen', d.ternary(cond, vf.strong, weak), { type }), ...lines];
      break;
    }
    case 'left-out':
    case 'options-object':
    case 'purpose': {
      const own = vf.own?.[shape];
      if (!own) return undefined;
      ({ lines, u: used } = at(own(label, src.expr, fw.id, i)));
      break;
    }
    case 'properties': {
      if (!vf.property || (d.language !== 'java' && d.language !== 'php')) return undefined;
      properties = `# settings read by ${caseName}\n${vf.property.key}=${unquote(wanted)}\n`;
      const u = vf.use(d.v('chosen'), src.expr, fw.id, i);
      ({ lines, u: used } = at(u));
      const read =
        d.language === 'java'
          ? [
              'java.util.Properties props = new java.util.Properties();',
              `try (java.io.InputStream in = getClass().getResourceAsStream("${caseName}.properties")) {`,
              '    props.load(in);',
              '}',
              `String configured = props.getProperty("${vf.property.key}", ${JSON.stringify(unquote(vf.strong))});`,
            ]
          : [`$config = parse_ini_file(__DIR__ . '/${caseName}.properties');`, `$configured = $config['${vf.property.key}'] ?? '${unquote(vf.strong)}';`];
      lines = [...read, d.decl('chosen', vf.property.convert(d.v('configured')), { type }), ...lines];
      break;
    }
  }
  const parts: Parts = {
    imports: [...vf.imports, ...src.imports, ...extra.imports, ...(used.imports ?? [])],
    fields: [...vf.fields, ...extra.fields],
    helpers: extra.helpers,
    params: [...src.params, ...(used.params ?? [])],
    body: [...src.prelude, ...lines],
    returns: used.returns === true,
  };
  return properties === undefined ? { parts } : { parts, properties };
}
