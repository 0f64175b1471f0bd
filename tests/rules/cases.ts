/** The built-in rules' test table: for every rule, code that must not fire and code that must. */
import type { RuleCases } from './rule-tester.js';

/** Source text from lines (each ends with a newline, as files do). */
const src = (...lines: string[]): string => `${lines.join('\n')}\n`;

const pythonCases: RuleCases[] = [
  {
    rule: 'jscr/python-subprocess-shell-true',
    valid: [
      { path: 'app/run.py', code: src('import subprocess', 'subprocess.run(["ls", path])') },
      { path: 'app/run.py', code: src('import subprocess', 'subprocess.run("ls -l", shell=True)') },
    ],
    invalid: [
      { path: 'app/run.py', code: src('import subprocess', 'subprocess.run(f"ls {path}", shell=True)'), lines: [2] },
      { path: 'app/run.py', code: src('import subprocess', 'subprocess.Popen(', '    "tar xf " + archive,', '    shell=True,', ')'), lines: [4] },
      // Multi-line calls and the imported function.
      { path: 'app/run.py', code: src('import subprocess', 'subprocess.run(', '    cmd,', '    shell=True)'), lines: [4] },
      { path: 'app/run.py', code: src('from subprocess import check_output', 'out = check_output(cmd, shell=True, text=True)'), lines: [2] },
    ],
  },
  {
    rule: 'jscr/python-os-system-non-literal',
    valid: [{ path: 'tools/clean.py', code: src('import os', 'os.system("make clean")') }],
    invalid: [
      { path: 'tools/clean.py', code: src('import os', 'os.system("rm -rf " + target)'), lines: [2] },
      { path: 'tools/clean.py', code: src('import os', 'out = os.popen(f"git log {ref}").read()'), lines: [2] },
    ],
  },
  {
    rule: 'jscr/python-eval-non-literal',
    valid: [{ path: 'calc.py', code: src('value = eval("1 + 2")', 'data = ast.literal_eval(text)') }],
    invalid: [
      { path: 'calc.py', code: src('def calc(expr):', '    return eval(expr)'), lines: [2] },
      { path: 'calc.py', code: src('exec(f"result = {snippet}")'), lines: [1] },
    ],
  },
  {
    rule: 'jscr/python-sql-formatted-execute',
    valid: [{ path: 'db/users.py', code: src('cur.execute("SELECT * FROM users WHERE id = %s", (user_id,))') }],
    invalid: [
      { path: 'db/users.py', code: src('cur.execute(f"SELECT * FROM users WHERE id = {user_id}")'), lines: [1] },
      { path: 'db/users.py', code: src('cur.execute("SELECT * FROM users WHERE name = \'%s\'" % name)'), lines: [1] },
      { path: 'db/users.py', code: src('cur.execute("DELETE FROM t WHERE id = {}".format(row_id))'), lines: [1] },
    ],
  },
  {
    rule: 'jscr/python-pickle-load',
    valid: [{ path: 'cache.py', code: src('blob = pickle.dumps(state)') }],
    invalid: [{ path: 'cache.py', code: src('import pickle', 'state = pickle.loads(request.data)'), lines: [2] }],
  },
  {
    rule: 'jscr/python-yaml-unsafe-load',
    valid: [
      { path: 'conf.py', code: src('cfg = yaml.safe_load(fh)') },
      { path: 'conf.py', code: src('cfg = yaml.load(fh, Loader=yaml.SafeLoader)') },
    ],
    invalid: [
      { path: 'conf.py', code: src('cfg = yaml.load(fh)') },
      { path: 'conf.py', code: src('cfg = yaml.load(fh, Loader=yaml.Loader)') },
    ].map((c) => ({ ...c, lines: [1] })),
  },
  {
    rule: 'jscr/python-marshal-loads',
    valid: [{ path: 'codec.py', code: src('raw = marshal.dumps(obj)') }],
    invalid: [{ path: 'codec.py', code: src('obj = marshal.loads(payload)'), lines: [1] }],
  },
  {
    rule: 'jscr/python-open-request-path',
    valid: [
      { path: 'views.py', code: src('with open(os.path.join(BASE, "index.html")) as fh:', '    name = request.args["name"]') },
      // Flask's send_from_directory refuses paths that leave the directory.
      { path: 'views.py', code: src('return send_from_directory(UPLOADS, request.args["name"])') },
    ],
    invalid: [
      { path: 'views.py', code: src('with open(request.args["file"]) as fh:'), lines: [1] },
      { path: 'views.py', code: src('return send_file(os.path.join(UPLOADS, request.args.get("name")))'), lines: [1] },
      { path: 'views.py', code: src('with open(', '    os.path.join(UPLOADS, request.args["name"]),', '    "rb",', ') as fh:'), lines: [1] },
    ],
  },
  {
    rule: 'jscr/python-ssrf-request-url',
    valid: [{ path: 'proxy.py', code: src('r = requests.get(f"{API_BASE}/status")') }],
    invalid: [
      { path: 'proxy.py', code: src('r = requests.get(request.args["url"])'), lines: [1] },
      { path: 'proxy.py', code: src('body = urlopen(request.GET.get("target")).read()'), lines: [1] },
      { path: 'proxy.py', code: src('resp = requests.post(', '    request.json["callback"],', '    json=payload,', '    timeout=5,', ')'), lines: [1] },
    ],
  },
  {
    rule: 'jscr/python-tls-verify-false',
    valid: [{ path: 'client.py', code: src('r = requests.get(url, verify=CA_BUNDLE)') }],
    invalid: [{ path: 'client.py', code: src('r = requests.get(url, verify=False)'), lines: [1] }],
  },
  {
    rule: 'jscr/python-ssl-unverified-context',
    valid: [{ path: 'client.py', code: src('ctx = ssl.create_default_context()') }],
    invalid: [
      { path: 'client.py', code: src('ctx = ssl._create_unverified_context()'), lines: [1] },
      { path: 'client.py', code: src('ctx.check_hostname = False', 'ctx.verify_mode = ssl.CERT_NONE'), lines: [1, 2] },
    ],
  },
  {
    rule: 'jscr/python-weak-random-token',
    valid: [
      { path: 'auth.py', code: src('token = secrets.token_urlsafe(32)') },
      { path: 'game.py', code: src('roll = random.randint(1, 6)') },
      // A salt must be unique, not secret: a predictable one does not make a hash guessable.
      { path: 'auth/security.py', code: src('salt = ("%0" + str(salt_len) + "x") % random.getrandbits(4 * salt_len)') },
    ],
    invalid: [
      { path: 'auth.py', code: src('reset_token = "".join(random.choice(ALPHABET) for _ in range(20))'), lines: [1] },
      { path: 'auth.py', code: src('otp = random.randint(100000, 999999)'), lines: [1] },
    ],
  },
  {
    rule: 'jscr/python-flask-debug',
    valid: [{ path: 'app.py', code: src('app.run(host="0.0.0.0", debug=os.environ.get("DEBUG") == "1")') }],
    invalid: [
      { path: 'app.py', code: src('if __name__ == "__main__":', '    app.run(debug=True)'), lines: [2] },
      { path: 'app.py', code: src('app.run(', '    host="0.0.0.0",', '    port=8000,', '    debug=True,', ')'), lines: [4] },
    ],
  },
  {
    rule: 'jscr/django-debug-true',
    valid: [
      { path: 'mysite/settings.py', code: src('DEBUG = os.environ.get("DJANGO_DEBUG") == "1"') },
      { path: 'mysite/settings/dev.py', code: src('DEBUG = True') },
    ],
    invalid: [{ path: 'mysite/settings.py', code: src('SECRET_KEY = os.environ["KEY"]', 'DEBUG = True'), lines: [2] }],
  },
  {
    rule: 'jscr/django-cors-allow-all',
    valid: [{ path: 'mysite/settings.py', code: src('CORS_ALLOWED_ORIGINS = ["https://app.example.org"]') }],
    invalid: [{ path: 'mysite/settings.py', code: src('CORS_ALLOW_ALL_ORIGINS = True'), lines: [1] }],
  },
  {
    rule: 'jscr/python-jwt-no-verify',
    valid: [{ path: 'auth.py', code: src('import jwt', 'claims = jwt.decode(token, KEY, algorithms=["HS256"])') }],
    invalid: [
      { path: 'auth.py', code: src('import jwt', 'claims = jwt.decode(token, options={"verify_signature": False})'), lines: [2] },
      { path: 'auth.py', code: src('import jwt', 'claims = jwt.decode(token, verify=False)'), lines: [2] },
    ],
  },
  {
    rule: 'jscr/python-mark-safe-non-literal',
    valid: [
      { path: 'widgets.py', code: src('label = mark_safe("<b>Required</b>")') },
      // Literals joined, an f-string with no holes, a translation of a literal, an escaper's output.
      { path: 'widgets.py', code: src('label = mark_safe("<b>" "Required" "</b>")', 'hint = mark_safe("<i>" + "note" + "</i>")', 'x = mark_safe(f"<br>")') },
      { path: 'forms.py', code: src('help_text = mark_safe(_("Use <b>letters</b> only"))', 'row = mark_safe(format_html("<td>{}</td>", user.name))') },
      { path: 'forms.py', code: src('from markupsafe import Markup, escape', 'cell = Markup(escape(value))') },
    ],
    invalid: [
      { path: 'widgets.py', code: src('label = mark_safe(f"<b>{user.name}</b>")'), lines: [1] },
      // A translation of a variable, a parameter, an unknown call, a literal joined with data.
      { path: 'forms.py', code: src('help_text = mark_safe(_(field.help))'), lines: [1] },
      { path: 'helpers.py', code: src('def markup(text):', '    return Markup(text)'), lines: [2] },
      { path: 'views.py', code: src('html = mark_safe(render_bio(request.GET["bio"]))', 'tail = mark_safe("<p>" + comment.body + "</p>")'), lines: [1, 2] },
    ],
  },
  {
    rule: 'jscr/python-chmod-world-writable',
    valid: [{ path: 'setup_dirs.py', code: src('os.chmod(path, 0o750)') }],
    invalid: [{ path: 'setup_dirs.py', code: src('os.chmod(path, 0o777)'), lines: [1] }],
  },
  {
    rule: 'jscr/python-sql-built-string',
    valid: [
      { path: 'db/users.py', code: src('query = "SELECT * FROM users WHERE id = %s"', 'cur.execute(query, (user_id,))') },
      { path: 'db/users.py', code: src('log.info(f"Select {count} rows from the cache")') },
      // Clauses joined from a checked column list; the values stay ? placeholders.
      { path: 'db/sessions.py', code: src('query = "SELECT * FROM session WHERE %s" % (" AND ".join(conditions))') },
    ],
    invalid: [
      { path: 'db/users.py', code: src('query = f"SELECT * FROM users WHERE name = \'{name}\'"', 'cur.execute(query)'), lines: [1] },
      { path: 'db/users.py', code: src('sql = "DELETE FROM items WHERE id = %s" % item_id'), lines: [1] },
      { path: 'db/users.py', code: src('sql = "UPDATE users SET email = \'{}\' WHERE id = 1".format(email)'), lines: [1] },
    ],
  },
];

const javascriptCases: RuleCases[] = [
  {
    rule: 'jscr/js-child-process-exec-dynamic',
    valid: [
      { path: 'src/git.js', code: src("const { execFile } = require('child_process');", "execFile('git', ['log', ref]);") },
      { path: 'src/git.js', code: src("const { exec } = require('child_process');", "exec('git status');") },
    ],
    invalid: [
      { path: 'src/git.ts', code: src("import { exec } from 'node:child_process';", 'exec(`git log ${ref}`);'), lines: [2] },
      { path: 'src/git.js', code: src("const cp = require('child_process');", "cp.execSync('tar xf ' + file);"), lines: [2] },
    ],
  },
  {
    rule: 'jscr/js-eval-dynamic',
    valid: [
      { path: 'src/calc.js', code: src("const two = eval('1 + 1');", 'const data = JSON.parse(body);') },
      // Concatenated literals and a name bound only to literals are the program's own code.
      { path: 'src/calc.js', code: src("const probe = eval('typeof ' + 'window');", "const CODE = 'return 1';", 'const one = new Function(CODE);') },
    ],
    invalid: [
      { path: 'src/calc.js', code: src('const result = eval(req.body.expr);'), lines: [1] },
      { path: 'src/calc.ts', code: src('const fn = new Function("x", body);'), lines: [1] },
      { path: 'src/calc.js', code: src('function run(expr) {', "  return eval('(' + expr + ')');", '}'), lines: [2] },
      { path: 'src/calc.js', code: src("let code = 'return 1';", 'code = location.hash.slice(1);', 'new Function(code)();'), lines: [3] },
    ],
  },
  {
    rule: 'jscr/js-sql-template-query',
    valid: [
      { path: 'src/db.js', code: src("await pool.query('SELECT * FROM users WHERE id = $1', [id]);") },
      { path: 'src/db.ts', code: src('const rows = await sql`SELECT * FROM users WHERE id = ${id}`;') },
    ],
    invalid: [
      { path: 'src/db.js', code: src('await pool.query(`SELECT * FROM users WHERE id = ${id}`);'), lines: [1] },
      { path: 'src/db.ts', code: src('await db.query(', "  'DELETE FROM sessions WHERE user = ' + userId,", ');'), lines: [2] },
    ],
  },
  {
    rule: 'jscr/node-serialize-unserialize',
    valid: [{ path: 'src/session.js', code: src('const data = JSON.parse(cookie);') }],
    invalid: [
      { path: 'src/session.js', code: src("const serialize = require('node-serialize');", 'const obj = serialize.unserialize(req.cookies.profile);'), lines: [2] },
    ],
  },
  {
    rule: 'jscr/js-sendfile-user-path',
    valid: [{ path: 'src/files.js', code: src("res.sendFile('index.html', { root: PUBLIC });") }],
    invalid: [{ path: 'src/files.js', code: src("res.sendFile(path.join(__dirname, 'uploads', req.params.name));"), lines: [1] }],
  },
  {
    rule: 'jscr/js-fs-user-path',
    valid: [{ path: 'src/files.js', code: src("const text = fs.readFileSync(path.join(__dirname, 'template.html'), 'utf8');") }],
    invalid: [{ path: 'src/files.js', code: src("const text = fs.readFileSync(req.query.file, 'utf8');"), lines: [1] }],
  },
  {
    rule: 'jscr/js-ssrf-request-url',
    valid: [{ path: 'src/proxy.js', code: src('const r = await fetch(`${API_BASE}/status`);') }],
    invalid: [
      { path: 'src/proxy.js', code: src('const r = await fetch(req.query.url);'), lines: [1] },
      { path: 'src/proxy.ts', code: src('const r = await axios.get(req.body.callback);'), lines: [1] },
      { path: 'src/proxy.ts', code: src('const upstream = await fetch(', '  req.query.url as string,', '  { method: "GET" },', ');'), lines: [1] },
    ],
  },
  {
    rule: 'jscr/js-tls-reject-unauthorized-false',
    valid: [{ path: 'src/agent.js', code: src('const agent = new https.Agent({ ca: caBundle });') }],
    invalid: [{ path: 'src/agent.js', code: src('const agent = new https.Agent({ rejectUnauthorized: false });'), lines: [1] }],
  },
  {
    rule: 'jscr/js-math-random-token',
    valid: [
      { path: 'src/auth.js', code: src("const token = crypto.randomBytes(32).toString('hex');") },
      { path: 'src/ui.js', code: src('const jitter = Math.random() * 100;') },
    ],
    invalid: [
      { path: 'src/auth.js', code: src('const resetToken = Math.random().toString(36).slice(2);'), lines: [1] },
      { path: 'src/auth.ts', code: src('const session = { sessionId: Math.random() };'), lines: [1] },
    ],
  },
  {
    rule: 'jscr/js-inner-html-dynamic',
    valid: [
      { path: 'src/view.js', code: src("el.innerHTML = '<p>Loading</p>';", 'el.textContent = message;') },
      { path: 'src/view.js', code: src('el.innerHTML = DOMPurify.sanitize(html);') },
      // Rewriting the element's own serialised markup: the text in it stays escaped.
      { path: 'src/doclinks.js', code: src('comment.innerHTML = comment.innerHTML.replace(/https:\\/\\/docs\\.example\\.org\\/\\S+/g, (url) => link(url));') },
      // Literals: concatenated, a template with no holes, a template whose holes are literals.
      { path: 'src/view.js', code: src("el.innerHTML = '<p>' + 'Loading' + '</p>';", 'el.outerHTML = `<hr>`;', "el.innerHTML = `<b>${'x'}</b>`;") },
      // Escapers and sanitisers (safe_producers).
      { path: 'src/view.ts', code: src('cell.innerHTML = escapeHtml(row.name);', "el.insertAdjacentHTML('beforeend', DOMPurify.sanitize(html));", 'el.innerHTML = utils.escapeHTML(text) + "<br>";') },
      // The application's own SVG icon, imported at build time (safe_imports).
      {
        path: 'src/wysiwyg/menu-button.ts',
        code: src('import arrowIcon from "@icons/chevron-right.svg"', 'export function build(): HTMLElement {', "  const icon = el('div');", '  icon.innerHTML = arrowIcon;', '  return icon;', '}'),
      },
      // A template row rewritten from its own markup: the name escaped, the label one of two literals.
      {
        path: 'src/main/webapp/js/tableAssign.js',
        code: src(
          'function insertRow(template, name, type) {',
          '  let tooltipDescription = "Group";',
          '  if (type === "USER") {',
          '    tooltipDescription = "User";',
          '  }',
          '  template.childNodes.forEach(function (item) {',
          '    item.outerHTML = item.outerHTML.replace(/{{USER}}/g, doubleEscapeHTML(name)).replace(/{{GROUP}}/g, tooltipDescription);',
          '  });',
          '}',
        ),
      },
      { path: 'src/view.js', code: src("el.insertAdjacentHTML('afterbegin', '<span class=\"badge\">new</span>');") },
      // Markup read back from the page, and an application's own escaper plugin.
      { path: 'resources/js/plugin-codeeditor.js', code: src("tempEl.innerHTML = code.innerHTML.replace(/\\ufeff/g, '');") },
      { path: 'assets/js/forms/TeamForm.js', code: src("const ESCAPER = this.getPlugin('escape');", 'temp.innerHTML = ESCAPER.sanitize(widget);') },
      // The <style> tags styled-components collected while rendering on the server.
      {
        path: 'server/helpers/export.tsx',
        code: src('const sheet = new ServerStyleSheet();', 'if (includeStyles) {', '  const styleTags = sheet.getStyleTags();', '  if (styleTags) {', '    doc.head.insertAdjacentHTML("beforeend", styleTags);', '  }', '}'),
      },
    ],
    invalid: [
      { path: 'src/view.js', code: src('el.innerHTML = message;'), lines: [1] },
      { path: 'src/view.ts', code: src('list.innerHTML += `<li>${item.name}</li>`;'), lines: [1] },
      // The same row template with the name put in unescaped, or a label that a caller chose.
      {
        path: 'src/main/webapp/js/tableAssign.js',
        code: src('function insertRow(template, name) {', '  template.childNodes.forEach(function (item) {', '    item.outerHTML = item.outerHTML.replace(/{{USER}}/g, name);', '  });', '}'),
        lines: [3],
      },
      {
        path: 'src/rows.js',
        code: src('function row(item, label) {', '  let text = "Group";', '  if (label) text = label;', '  item.innerHTML = item.innerHTML.replace("{{L}}", text);', '}'),
        lines: [4],
      },
      // A sanitiser beside unsanitised data, markup of another element, insertAdjacentHTML, a replacement callback using outside data.
      { path: 'src/view.js', code: src('el.innerHTML = DOMPurify.sanitize(a) + b;', 'el.innerHTML = other.innerHTML.replace(/x/g, y);'), lines: [1, 2] },
      { path: 'src/view.js', code: src("el.insertAdjacentHTML('beforeend', `<li>${item.title}</li>`);"), lines: [1] },
      { path: 'src/view.js', code: src('el.innerHTML = el.innerHTML.replace(/@(\\w+)/g, (m, user) => `<a>${user}</a>` + extra);'), lines: [1] },
      { path: 'src/view.js', code: src('el.innerHTML = el.innerHTML.replace(/{{NAME}}/g, () => readCookie());'), lines: [1] },
      // An import from a module that is code, not an asset; a name from destructuring.
      { path: 'src/view.ts', code: src("import { banner } from './remote-config';", 'el.innerHTML = banner;', 'const { html } = await res.json();', 'box.innerHTML = html;'), lines: [2, 4] },
      // Style tags beside the document's own markup.
      { path: 'server/helpers/export.tsx', code: src('const styleTags = sheet.getStyleTags();', 'doc.head.insertAdjacentHTML("beforeend", styleTags + document.text);'), lines: [2] },
    ],
  },
  {
    rule: 'jscr/js-document-write',
    valid: [
      { path: 'src/legacy.js', code: src("document.write('<p>static</p>');") },
      { path: 'src/legacy.js', code: src("document.write('<p>' + 'static' + '</p>');", "document.writeln(`<hr>`);", 'document.write(escapeHtml(title));') },
    ],
    invalid: [
      { path: 'src/legacy.js', code: src("document.write('<p>' + location.hash + '</p>');"), lines: [1] },
      { path: 'src/legacy.js', code: src('function show(msg) {', '  document.writeln(`<p>${msg}</p>`);', '}'), lines: [2] },
    ],
  },
  {
    rule: 'jscr/react-dangerously-set-inner-html',
    valid: [{ path: 'src/Comment.tsx', code: src('return <div dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(body) }} />;') }],
    invalid: [{ path: 'src/Comment.tsx', code: src('return <div dangerouslySetInnerHTML={{ __html: body }} />;'), lines: [1] }],
  },
  {
    rule: 'jscr/js-cors-any-origin-with-credentials',
    valid: [{ path: 'src/server.js', code: src("app.use(cors({ origin: ['https://app.example.org'], credentials: true }));") }],
    invalid: [
      { path: 'src/server.js', code: src('app.use(cors({ origin: true, credentials: true }));'), lines: [1] },
      { path: 'src/server.ts', code: src('app.use(cors({', '  credentials: true,', "  origin: '*',", '}));'), lines: [3] },
    ],
  },
  {
    rule: 'jscr/jsonwebtoken-decode',
    valid: [{ path: 'src/auth.js', code: src("const jwt = require('jsonwebtoken');", 'const claims = jwt.verify(token, KEY, { algorithms: ["RS256"] });') }],
    invalid: [{ path: 'src/auth.js', code: src("const jwt = require('jsonwebtoken');", 'const claims = jwt.decode(token);'), lines: [2] }],
  },
  {
    rule: 'jscr/js-sql-template-built',
    valid: [
      // Tagged templates parameterise their values.
      { path: 'src/db.ts', code: src('const rows = await sql`SELECT * FROM users WHERE email = ${email}`;') },
      { path: 'src/db.ts', code: src('const query = Prisma.sql`SELECT * FROM users WHERE id = ${id}`;') },
      { path: 'src/ui.ts', code: src('const label = `Selected ${count} items from the list`;') },
    ],
    invalid: [
      { path: 'src/db.ts', code: src('const sql = `SELECT * FROM users WHERE email = \'${email}\'`;', 'await db.query(sql);'), lines: [1] },
      { path: 'src/db.js', code: src('let sql;', 'sql = `', '  UPDATE accounts', '  SET balance = ${amount}', '  WHERE id = ${id}', '`;'), lines: [2] },
    ],
  },
  {
    rule: 'jscr/js-spawn-shell-built-command',
    valid: [
      { path: 'scripts/build.js', code: src("spawn('npm', ['run', 'build'], { shell: true, stdio: 'inherit' });") },
      { path: 'src/git.ts', code: src('execFile("git", ["log", ref], { cwd });') },
    ],
    invalid: [
      { path: 'src/convert.ts', code: src('const child = spawn(`convert ${input} ${output}`, { shell: true });'), lines: [1] },
      {
        path: 'src/git.js',
        code: src('execFileSync(', "  'git log ' + branch,", '  [],', '  {', "    encoding: 'utf8',", '    shell: true,', '  },', ');'),
        lines: [6],
      },
    ],
  },
];

const anyLanguageCases: RuleCases[] = [
  {
    rule: 'jscr/trojan-source-bidi',
    valid: [
      { path: 'src/i18n.js', code: src("const greeting = 'مرحبا';") },
      // Right-to-left text closed inside its own string or comment lays out text, nothing else.
      { path: 'src/i18n.js', code: src("const greeting = '\u2067مرحبا\u2069';", '// \u202Bشكرا\u202C for the translation') },
      // Translation data is language: an embedding opened in a target and left to the line end.
      { path: 'translations/messages.ar.xlf', code: src('<trans-unit id="reopen">', '  <target state="translated">\u202Bإعادة الفتح</target>', '</trans-unit>') },
      { path: 'app/src/locales/ar.json', code: src('{', '  "reopen": "\u202Bإعادة الفتح"', '}') },
      { path: 'locale/he/LC_MESSAGES/django.po', code: src('msgid "Reopen"', 'msgstr "\u202Bפתח מחדש"') },
      { path: 'config/locales/fa.yml', code: src('fa:', '  reopen: "\u202Bبازگشایی"') },
      { path: 'Resources/Strings.resx', code: src('<data name="Reopen"><value>\u202Bإعادة</value></data>') },
      // Prose outside a fenced block is language.
      { path: 'README.md', code: src('plain', 'text \u2067 here') },
    ],
    invalid: [
      // Commenting-out: the override in the comment is never closed in it.
      { path: 'src/auth.js', code: src('const isAdmin = false;', 'if (isAdmin) { /*\u202E } \u2066if (isAdmin)\u2069 \u2066 begin admins only */'), lines: [2] },
      // Stretched string: the string looks closed before a comment that is really inside it.
      { path: 'src/access.js', code: src('const accessLevel = "user";', 'if (accessLevel != "user\u202E \u2066// Check if admin\u2069 \u2066") {', '  grant();', '}'), lines: [2] },
      // Early return: an isolate in code puts a return where it is not seen.
      { path: 'bank/withdraw.py', code: src('def withdraw(amount):', '    bank -= amount \u2067 ;return  # \u2069', '    audit(amount)'), lines: [2] },
      // In an identifier, and between tokens.
      { path: 'src/Main.java', code: src('int is\u202EAdmin = 0;', 'x = 1; \u2066 y = 2;'), lines: [1, 2] },
      // A string that leaves the override open (the rest of the line shows reversed).
      { path: 'tests/test_validators.py', code: src('    "//google\u202e.com",  # a hostname with an override'), lines: [1] },
      // A translation file's name does not cover code: a locale module is code.
      { path: 'src/locales/ar.js', code: src('export default { reopen: "\u202Bإعادة" };'), lines: [1] },
      // Code in a fenced block of a prose file, and markup inside a tag.
      { path: 'docs/setup.md', code: src('Run:', '```js', 'const role = "user\u202E"; // admin', '```'), lines: [3] },
      { path: 'templates/card.html', code: src('<div title="\u202Eevil">x</div>'), lines: [1] },
    ],
  },
  {
    rule: 'jscr/weak-hash-for-password',
    valid: [
      { path: 'src/etag.js', code: src("const etag = crypto.createHash('md5').update(body).digest('hex');") },
      { path: 'src/auth.py', code: src('# never use md5 for a password', 'digest = bcrypt.hashpw(password, bcrypt.gensalt())') },
      // A doctest in a docstring documents the legacy format; it is not code that hashes.
      { path: 'auth/security.py', code: src('def passwd_check(hashed, passphrase):', '    """', '    >>> passwd_check("sha1:0e11:a68d", "mypassword")', '    True', '    """') },
    ],
    invalid: [
      { path: 'src/auth.js', code: src("const hash = crypto.createHash('md5').update(password).digest('hex');"), lines: [1] },
      { path: 'app/User.php', code: src('<?php', '$hash = sha1($password);'), lines: [2] },
      { path: 'src/Auth.java', code: src('String hashed = DigestUtils.md5Hex(password);'), lines: [1] },
    ],
  },
  {
    rule: 'jscr/cors-wildcard-with-credentials',
    valid: [{ path: 'src/server.js', code: src("res.setHeader('Access-Control-Allow-Origin', '*');") }],
    invalid: [
      {
        path: 'src/server.js',
        code: src("res.setHeader('Access-Control-Allow-Origin', '*');", "res.setHeader('Access-Control-Allow-Credentials', 'true');"),
        lines: [1],
      },
      { path: 'api/index.php', code: src('<?php', 'header("Access-Control-Allow-Origin: *");', 'header("Access-Control-Allow-Credentials: true");'), lines: [2] },
    ],
  },
  {
    rule: 'jscr/node-tls-reject-unauthorized-env',
    valid: [{ path: 'src/boot.js', code: src("process.env.NODE_TLS_REJECT_UNAUTHORIZED = '1';") }],
    invalid: [
      { path: 'src/boot.js', code: src("process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';"), lines: [1] },
      { path: 'Dockerfile', code: src('FROM node:20', 'ENV NODE_TLS_REJECT_UNAUTHORIZED=0'), lines: [2] },
    ],
  },
  {
    rule: 'jscr/sql-string-concat',
    valid: [{ path: 'src/db.js', code: src("const sql = 'SELECT * FROM users WHERE id = $1';") }],
    invalid: [
      { path: 'src/db.js', code: src("const sql = 'SELECT * FROM users WHERE id = ' + id;"), lines: [1] },
      { path: 'src/Repo.java', code: src('String sql = "UPDATE accounts SET balance = " + amount;'), lines: [1] },
    ],
  },
  {
    rule: 'jscr/jwt-none-algorithm',
    valid: [{ path: 'src/auth.js', code: src("jwt.verify(token, key, { algorithms: ['RS256'] });") }],
    invalid: [
      { path: 'src/auth.js', code: src("jwt.verify(token, key, { algorithms: ['none'] });"), lines: [1] },
      { path: 'auth.py', code: src('claims = jwt.decode(token, key, algorithms=["none"])'), lines: [1] },
    ],
  },
  {
    rule: 'jscr/template-safe-filter',
    valid: [
      { path: 'templates/profile.html', code: src('<p>{{ user.bio }}</p>') },
      // Framework helpers that return escaped markup by construction.
      { path: 'templates/login.html', code: src('<form method="post">', '  {{ xsrf_form_html() | safe }}', '</form>') },
      { path: 'templates/page.html', code: src('<script>const state = {{ state|tojson|safe }};</script>') },
      // A literal, and a value escaped just before it is marked safe.
      { path: 'templates/page.html', code: src('<p>{{ "<b>New</b>"|safe }}</p>', "<p>{{ 'x'|safe }} {{ bio|force_escape|safe }}</p>") },
    ],
    invalid: [
      { path: 'templates/profile.html', code: src('<h1>Profile</h1>', '<p>{{ user.bio|safe }}</p>'), lines: [2] },
      // A safe value beside an unsafe one on the same line, and a filter after the escape.
      { path: 'templates/banner.html', code: src('{{ csrf_input()|safe }}<div>{{ banner.body|safe }}</div>', '{{ bio|escape|linebreaks|safe }}'), lines: [1, 2] },
    ],
  },
  {
    rule: 'jscr/template-autoescape-off',
    valid: [{ path: 'templates/mail.j2', code: src('{% autoescape true %}{{ body }}{% endautoescape %}') }],
    invalid: [{ path: 'templates/mail.j2', code: src('{% autoescape false %}', '{{ body }}', '{% endautoescape %}'), lines: [1] }],
  },
  {
    rule: 'jscr/vue-v-html',
    valid: [
      { path: 'src/components/Comment.vue', code: src('<template>', '  <div>{{ comment.body }}</div>', '</template>') },
      // The component sanitises in its script and binds the sanitised value.
      {
        path: 'src/components/Episode.vue',
        code: src(
          '<template>',
          '  <div class="description" v-html="safeDescription" />',
          '</template>',
          '<script setup lang="ts">',
          "import DOMPurify from 'dompurify'",
          'const safeDescription = computed(() => DOMPurify.sanitize(props.episode.description))',
          '</script>',
        ),
      },
    ],
    invalid: [{ path: 'src/components/Comment.vue', code: src('<template>', '  <div v-html="comment.body"></div>', '</template>'), lines: [2] }],
  },
  {
    rule: 'jscr/cors-reflect-origin',
    valid: [{ path: 'src/server.js', code: src('if (ALLOWED.has(req.headers.origin)) res.setHeader("Access-Control-Allow-Origin", CANONICAL_ORIGIN);') }],
    invalid: [
      { path: 'src/server.js', code: src("res.setHeader('Access-Control-Allow-Origin', req.headers.origin);"), lines: [1] },
      { path: 'api/cors.php', code: src('<?php', "header('Access-Control-Allow-Origin: ' . $_SERVER['HTTP_ORIGIN']);"), lines: [2] },
      { path: 'server/handlers.py', code: src('self.set_header("Access-Control-Allow-Origin", self.request.headers.get("Origin", ""))'), lines: [1] },
    ],
  },
  {
    rule: 'jscr/twig-raw-filter',
    valid: [
      // The application's own translated text.
      { path: 'templates/about.html.twig', code: src("<p>{{ 'help.app_description'|trans|raw }}</p>") },
      { path: 'templates/post.html.twig', code: src('<div>{{ post.content|markdown_to_html|sanitize_html|raw }}</div>') },
      // Escaped last, literals joined, a translation of a literal without parameters.
      { path: 'templates/post.html.twig', code: src('<p>{{ post.title|e|raw }} {{ post.title|escape(\'html\')|raw }}</p>', "{{ '<br>' ~ '<hr>'|raw }}", "{{- 'nav.home'|trans()|raw -}}") },
      { path: 'templates/calendar.html.twig', code: src("url: '{{ path('get_timesheets', {'user': user.id, 'full': 'true'})|raw }}',") },
      // A translation whose parameters are a literal and router URLs.
      { path: 'templates/error.html.twig', code: src("{{ 'http_error.suggestion'|trans({url: path('blog_index'), '%n%': 3})|raw }}", "{{ 'post.link'|trans({'%href%': path('post', {slug: post.slug})}, 'messages')|raw }}") },
    ],
    invalid: [
      { path: 'templates/post.html.twig', code: src('<article>', '  {{ post.content|raw }}', '</article>'), lines: [2] },
      // A filter after the escape, a translation with data in its parameters, data joined to a literal.
      {
        path: 'templates/post.html.twig',
        code: src(
          "{{ post.title|e|replace({'x': post.body})|raw }}",
          "{{ 'greeting'|trans({'%name%': user.name})|raw }}",
          "{{ '<b>' ~ user.name|raw }}",
          "{{ path('home') ~ user.name|raw }}",
          // A router URL beside a parameter from data, or a URL joined to data.
          "{{ 'x'|trans({url: path('home'), name: user.name})|raw }}",
          "{{ 'x'|trans({url: path('home') ~ user.name})|raw }}",
        ),
        lines: [1, 2, 3, 4, 5, 6],
      },
    ],
  },
  {
    rule: 'jscr/blade-unescaped-output',
    valid: [
      { path: 'resources/views/post.blade.php', code: src('<div>{{ $post->body }}</div>', '{!! csrf_field() !!}') },
      // Laravel's own helpers, a paginator, translations of literals, escaped text, literals.
      {
        path: 'resources/views/users.blade.php',
        code: src(
          "<form>{!! csrf_field() !!}{!! method_field('DELETE') !!}</form>",
          '{!! $users->links() !!}',
          "{!! $shelves->render('pagination::simple') !!}",
          "{!! trans('settings.reg_enable_desc') !!}",
          "{!! __('auth.intro', ['link' => '<a href=\"/docs\">docs</a>']) !!}",
          "{!! nl2br(e(trans('entities.tags_explain'))) !!}",
          "{!! nl2br(htmlentities(session()->get('warning'))) !!}",
          "{!! '<hr>' !!}",
          "{!! Vite::content('resources/css/app.css') !!}",
          '{!! clean($post->body) !!}',
          "{!! file_get_contents(public_path('/dist/export-styles.css')) !!}",
        ),
      },
    ],
    invalid: [
      { path: 'resources/views/post.blade.php', code: src('<div>{!! $post->body !!}</div>'), lines: [1] },
      // A variable after a safe helper, an unknown producer, a translation with data, escaping undone by concatenation.
      {
        path: 'resources/views/post.blade.php',
        code: src(
          '{!! csrf_field() !!} {!! $diff !!}',
          '{!! $chapter->descriptionHtml() !!}',
          "{!! trans('entities.by', ['name' => $user->name]) !!}",
          '{!! nl2br(e($a) . $b) !!}',
          '{!! request()->input("q") !!}',
          '{!! file_get_contents($path) !!}',
          '{!! isset($page->renderedHTML) ? $page->renderedHTML : $page->html !!}',
        ),
        lines: [1, 2, 3, 4, 5, 6, 7],
      },
    ],
  },
];

const javaCases: RuleCases[] = [
  {
    rule: 'jscr/java-runtime-exec-concat',
    valid: [
      { path: 'src/Tool.java', code: src('Process p = new ProcessBuilder("git", "log", ref).start();') },
      { path: 'src/Tool.java', code: src('Process p = new ProcessBuilder("sh", "-c", "make clean").start();') },
    ],
    invalid: [
      { path: 'src/Tool.java', code: src('Process p = Runtime.getRuntime().exec("ping -c 1 " + host);'), lines: [1] },
      { path: 'src/Tool.java', code: src('new ProcessBuilder("sh", "-c", "tar xf " + archive).start();'), lines: [1] },
      { path: 'src/Tool.java', code: src('Process p = new ProcessBuilder("bash", "-c", command).start();'), lines: [1] },
    ],
  },
  {
    rule: 'jscr/java-sql-statement-concat',
    valid: [
      { path: 'src/UserDao.java', code: src('PreparedStatement ps = conn.prepareStatement("SELECT * FROM users WHERE id = ?");') },
      // Constant pieces joined for line length are still one constant.
      { path: 'src/UserDao.java', code: src('ResultSet rs = stmt.executeQuery(', '    "SELECT id, name " +', '    "FROM users WHERE active = true");') },
    ],
    invalid: [
      { path: 'src/UserDao.java', code: src('ResultSet rs = stmt.executeQuery("SELECT * FROM users WHERE name = \'" + name + "\'");'), lines: [1] },
      { path: 'src/UserDao.java', code: src('stmt.execute(String.format("DELETE FROM t WHERE id = %s", id));'), lines: [1] },
      {
        path: 'src/UserDao.java',
        code: src('ResultSet rs = statement.executeQuery(', '    "SELECT id FROM users WHERE email = \'" + email + "\'");'),
        lines: [1],
      },
    ],
  },
  {
    rule: 'jscr/java-object-input-stream',
    valid: [{ path: 'src/Store.java', code: src('Order order = mapper.readValue(body, Order.class);') }],
    invalid: [
      {
        path: 'src/Store.java',
        code: src('ObjectInputStream in = new ObjectInputStream(socket.getInputStream());', 'Object obj = in.readObject();'),
        lines: [2],
      },
    ],
  },
  {
    rule: 'jscr/java-xml-decoder',
    valid: [{ path: 'src/Load.java', code: src('XMLEncoder enc = new XMLEncoder(out);') }],
    invalid: [{ path: 'src/Load.java', code: src('XMLDecoder dec = new XMLDecoder(request.getInputStream());'), lines: [1] }],
  },
  {
    rule: 'jscr/java-file-request-parameter',
    valid: [{ path: 'src/Download.java', code: src('File f = new File(BASE_DIR, "report.pdf");') }],
    invalid: [{ path: 'src/Download.java', code: src('File f = new File(BASE_DIR, request.getParameter("name"));'), lines: [1] }],
  },
  {
    rule: 'jscr/java-trust-all-certificates',
    valid: [
      {
        path: 'src/Tls.java',
        code: src('class Pinned implements X509TrustManager {', '  public void checkServerTrusted(X509Certificate[] chain, String type) throws CertificateException {', '    delegate.checkServerTrusted(chain, type);', '  }', '}'),
      },
    ],
    invalid: [
      {
        path: 'src/Tls.java',
        code: src('class TrustAll implements X509TrustManager {', '  @Override', '  public void checkServerTrusted(X509Certificate[] chain, String type) {', '  }', '}'),
        lines: [3],
      },
    ],
  },
  {
    rule: 'jscr/java-insecure-hostname-verifier',
    valid: [{ path: 'src/Http.java', code: src('conn.setHostnameVerifier(HttpsURLConnection.getDefaultHostnameVerifier());') }],
    invalid: [
      { path: 'src/Http.java', code: src('conn.setHostnameVerifier((hostname, session) -> true);'), lines: [1] },
      { path: 'src/Http.java', code: src('builder.setSSLHostnameVerifier(NoopHostnameVerifier.INSTANCE);'), lines: [1] },
    ],
  },
  {
    rule: 'jscr/java-weak-random-token',
    valid: [{ path: 'src/Tokens.java', code: src('Random random = new Random();', 'int dice = random.nextInt(6);') }],
    invalid: [{ path: 'src/Tokens.java', code: src('Random random = new Random();', 'long resetToken = random.nextLong();'), lines: [2] }],
  },
  {
    rule: 'jscr/java-spring-cors-any-origin-credentials',
    valid: [
      { path: 'src/WebConfig.java', code: src('config.addAllowedOriginPattern("*");', 'config.setAllowCredentials(false);') },
      { path: 'src/WebConfig.java', code: src('config.addAllowedOrigin("https://app.example.org");', 'config.setAllowCredentials(true);') },
    ],
    invalid: [
      { path: 'src/WebConfig.java', code: src('config.addAllowedOriginPattern("*");', 'config.setAllowCredentials(true);'), lines: [1] },
      {
        path: 'src/WebConfig.java',
        code: src('registry.addMapping("/api/**")', '    .allowedOriginPatterns("*")', '    .allowCredentials(true);'),
        lines: [2],
      },
    ],
  },
];

const phpCases: RuleCases[] = [
  {
    rule: 'jscr/php-command-injection',
    valid: [
      { path: 'web/ping.php', code: src('<?php', 'system("ping -c 1 " . escapeshellarg($host));') },
      { path: 'web/db.php', code: src('<?php', '$pdo->exec($sql);') },
    ],
    invalid: [
      { path: 'web/ping.php', code: src('<?php', 'system("ping -c 1 " . $_GET["host"]);'), lines: [2] },
      { path: 'web/ping.php', code: src('<?php', '$out = shell_exec("ls $dir");'), lines: [2] },
    ],
  },
  {
    rule: 'jscr/php-sql-interpolation',
    valid: [{ path: 'web/user.php', code: src('<?php', '$stmt = $pdo->prepare("SELECT * FROM users WHERE id = ?");') }],
    invalid: [
      { path: 'web/user.php', code: src('<?php', '$res = mysqli_query($conn, "SELECT * FROM users WHERE id = $id");'), lines: [2] },
      { path: 'web/user.php', code: src('<?php', "$res = $db->query('SELECT * FROM users WHERE id = ' . $id);"), lines: [2] },
    ],
  },
  {
    rule: 'jscr/php-unserialize-input',
    valid: [{ path: 'web/cart.php', code: src('<?php', '$cart = json_decode($_COOKIE["cart"], true);') }],
    invalid: [{ path: 'web/cart.php', code: src('<?php', '$cart = unserialize(base64_decode($_COOKIE["cart"]));'), lines: [2] }],
  },
  {
    rule: 'jscr/php-include-user-input',
    valid: [{ path: 'web/index.php', code: src('<?php', "include __DIR__ . '/pages/home.php';") }],
    invalid: [{ path: 'web/index.php', code: src('<?php', 'include($_GET["page"] . ".php");'), lines: [2] }],
  },
  {
    rule: 'jscr/php-ssrf-user-url',
    valid: [{ path: 'web/proxy.php', code: src('<?php', '$body = file_get_contents(__DIR__ . "/data.json");') }],
    invalid: [{ path: 'web/proxy.php', code: src('<?php', '$body = file_get_contents($_GET["url"]);'), lines: [2] }],
  },
  {
    rule: 'jscr/php-curl-ssl-verify-disabled',
    valid: [{ path: 'web/api.php', code: src('<?php', 'curl_setopt($ch, CURLOPT_SSL_VERIFYPEER, true);') }],
    invalid: [
      { path: 'web/api.php', code: src('<?php', 'curl_setopt($ch, CURLOPT_SSL_VERIFYPEER, false);', 'curl_setopt($ch, CURLOPT_SSL_VERIFYHOST, 0);'), lines: [2, 3] },
    ],
  },
  {
    rule: 'jscr/php-echo-request',
    valid: [{ path: 'web/search.php', code: src('<?php', "echo htmlspecialchars($_GET['q'], ENT_QUOTES, 'UTF-8');") }],
    invalid: [
      { path: 'web/search.php', code: src('<?php', 'echo "Results for " . $_GET["q"];'), lines: [2] },
      { path: 'web/search.php', code: src('<p><?= $_REQUEST["name"] ?></p>'), lines: [1] },
    ],
  },
  {
    rule: 'jscr/php-eval-variable',
    valid: [{ path: 'web/calc.php', code: src('<?php', "eval('return 1;');") }],
    invalid: [{ path: 'web/calc.php', code: src('<?php', 'eval($_POST["code"]);'), lines: [2] }],
  },
  {
    rule: 'jscr/php-sql-string-built',
    valid: [
      { path: 'src/Repo.php', code: src('<?php', '$sql = "SELECT * FROM {$this->table} WHERE id = :id";') },
      { path: 'src/Repo.php', code: src('<?php', "$sql = 'SELECT * FROM users WHERE id = :id';", '$stmt = $pdo->prepare($sql);') },
    ],
    invalid: [
      { path: 'src/Repo.php', code: src('<?php', '$sql = "SELECT * FROM users WHERE id = " . $_GET["id"];'), lines: [2] },
      { path: 'src/Repo.php', code: src('<?php', '$rows = $db->query(', '    "SELECT * FROM users WHERE name = \'$name\'"', ');'), lines: [3] },
      {
        path: 'src/Repository/PostRepository.php',
        code: src('<?php', "$dql = \"SELECT p FROM App\\Entity\\Post p WHERE p.title LIKE '%\" . $term . \"%'\";"),
        lines: [2],
      },
    ],
  },
  {
    rule: 'jscr/php-http-verify-false',
    valid: [{ path: 'src/Api.php', code: src('<?php', "$client = new Client(['verify' => '/etc/ssl/private-ca.pem']);") }],
    invalid: [
      { path: 'src/Api.php', code: src('<?php', "$client = new Client(['verify' => false]);"), lines: [2] },
      { path: 'src/Api.php', code: src('<?php', '$response = $http->request("GET", $url, [', "    'verify_peer' => false,", ']);'), lines: [3] },
    ],
  },
  {
    rule: 'jscr/php-weak-random-token',
    valid: [
      { path: 'src/Auth.php', code: src('<?php', '$token = bin2hex(random_bytes(32));') },
      { path: 'src/Game.php', code: src('<?php', '$roll = mt_rand(1, 6);') },
    ],
    invalid: [
      { path: 'src/Auth.php', code: src('<?php', '$token = md5(uniqid(mt_rand(), true));'), lines: [2] },
      { path: 'src/Auth.php', code: src('<?php', '$resetCode = str_shuffle("0123456789");'), lines: [2] },
    ],
  },
];

const goCases: RuleCases[] = [
  {
    rule: 'jscr/go-exec-shell-concat',
    valid: [{ path: 'cmd/run.go', code: src('cmd := exec.Command("git", "log", ref)') }],
    invalid: [
      { path: 'cmd/run.go', code: src('cmd := exec.Command("sh", "-c", "git log "+ref)'), lines: [1] },
      { path: 'cmd/run.go', code: src('cmd := exec.CommandContext(ctx, "/bin/bash", "-c", fmt.Sprintf("tar xf %s", name))'), lines: [1] },
    ],
  },
  {
    rule: 'jscr/go-sql-sprintf',
    valid: [
      { path: 'store/users.go', code: src('rows, err := db.Query("SELECT * FROM users WHERE id = $1", id)') },
      // A cache or router Get with a formatted key is not SQL.
      { path: 'web/handler.go', code: src('v, ok := c.Get(fmt.Sprintf("user_%d", id))') },
    ],
    invalid: [
      { path: 'store/users.go', code: src('rows, err := db.Query(fmt.Sprintf("SELECT * FROM users WHERE id = %s", id))'), lines: [1] },
      { path: 'store/users.go', code: src('_, err := db.ExecContext(ctx, "DELETE FROM t WHERE id = "+id)'), lines: [1] },
      {
        path: 'store/users.go',
        code: src('rows, err := db.QueryContext(ctx,', '\tfmt.Sprintf("SELECT id FROM users WHERE name = \'%s\'", name),', ')'),
        lines: [2],
      },
    ],
  },
  {
    rule: 'jscr/go-tls-insecure-skip-verify',
    valid: [{ path: 'client/http.go', code: src('cfg := &tls.Config{RootCAs: pool}') }],
    invalid: [{ path: 'client/http.go', code: src('cfg := &tls.Config{InsecureSkipVerify: true}'), lines: [1] }],
  },
  {
    rule: 'jscr/go-math-rand-token',
    valid: [{ path: 'auth/token.go', code: src('import "math/rand"', 'delay := rand.Intn(100)') }],
    invalid: [{ path: 'auth/token.go', code: src('import "math/rand"', 'resetToken := fmt.Sprint(rand.Int63())'), lines: [2] }],
  },
  {
    rule: 'jscr/go-ssrf-request-url',
    valid: [{ path: 'web/proxy.go', code: src('resp, err := http.Get(apiBase + "/status")') }],
    invalid: [
      { path: 'web/proxy.go', code: src('resp, err := http.Get(r.URL.Query().Get("url"))'), lines: [1] },
      { path: 'web/proxy.go', code: src('req, err := http.NewRequestWithContext(ctx, "GET", c.Query("target"), nil)'), lines: [1] },
    ],
  },
  {
    rule: 'jscr/go-file-request-path',
    valid: [{ path: 'web/files.go', code: src('data, err := os.ReadFile(filepath.Join(staticDir, "index.html"))') }],
    invalid: [
      { path: 'web/files.go', code: src('f, err := os.Open(filepath.Join(uploadDir, r.URL.Query().Get("name")))'), lines: [1] },
      { path: 'web/files.go', code: src('http.ServeFile(w, r, filepath.Join(root, r.FormValue("file")))'), lines: [1] },
    ],
  },
  {
    rule: 'jscr/go-jwt-parse-unverified',
    valid: [{ path: 'auth/jwt.go', code: src('tok, err := jwt.Parse(raw, keyFunc, jwt.WithValidMethods([]string{"RS256"}))') }],
    invalid: [{ path: 'auth/jwt.go', code: src('tok, _, err := jwt.NewParser().ParseUnverified(raw, claims)'), lines: [1] }],
  },
];

const shellCases: RuleCases[] = [
  {
    rule: 'jscr/curl-pipe-shell',
    valid: [{ path: 'scripts/install.sh', code: src('curl -fsSLo install.sh https://get.example.org', 'sha256sum -c install.sh.sha256') }],
    invalid: [
      { path: 'scripts/install.sh', code: src('#!/bin/sh', 'curl -fsSL https://get.example.org | bash'), lines: [2] },
      { path: 'Dockerfile', code: src('FROM debian:12', 'RUN wget -qO- https://get.example.org | sh'), lines: [2] },
    ],
  },
  {
    rule: 'jscr/chmod-777',
    valid: [{ path: 'scripts/setup.sh', code: src('chmod 755 bin/tool') }],
    invalid: [
      { path: 'scripts/setup.sh', code: src('chmod -R 777 /srv/app'), lines: [1] },
      { path: 'deploy', code: src('#!/usr/bin/env bash', 'chmod 0777 "$DIR"'), lines: [2] },
    ],
  },
  {
    rule: 'jscr/shell-eval-variable',
    valid: [{ path: 'scripts/env.sh', code: src('eval "$(ssh-agent -s)"', 'echo evaluate $x') }],
    invalid: [{ path: 'scripts/env.sh', code: src('#!/bin/bash', 'eval "$USER_COMMAND"'), lines: [2] }],
  },
  {
    rule: 'jscr/shell-tls-insecure',
    valid: [{ path: 'scripts/fetch.sh', code: src('curl -fsSL --cacert ca.pem https://internal.example.org/x') }],
    invalid: [
      { path: 'scripts/fetch.sh', code: src('curl -k https://internal.example.org/x -o x'), lines: [1] },
      { path: 'scripts/fetch.sh', code: src('wget --no-check-certificate https://internal.example.org/x'), lines: [1] },
    ],
  },
];

const dockerfileCases: RuleCases[] = [
  {
    rule: 'jscr/dockerfile-add-remote-url',
    valid: [{ path: 'Dockerfile', code: src('FROM alpine:3.20', 'ADD --checksum=sha256:0123abcd https://example.org/tool.tgz /opt/') }],
    invalid: [{ path: 'docker/api.Dockerfile', code: src('FROM alpine:3.20', 'ADD https://example.org/tool.tgz /opt/'), lines: [2] }],
  },
  {
    rule: 'jscr/dockerfile-user-root',
    valid: [{ path: 'Dockerfile', code: src('FROM node:20', 'USER root', 'RUN apt-get update', 'USER node') }],
    invalid: [{ path: 'Containerfile', code: src('FROM node:20', 'USER node', 'RUN npm ci', 'USER root', 'CMD ["node", "server.js"]'), lines: [4] }],
  },
];

const workflowHead = ['on:', '  pull_request_target:', 'jobs:', '  build:', '    runs-on: ubuntu-latest', '    steps:'];

const githubActionsCases: RuleCases[] = [
  {
    rule: 'jscr/gha-pull-request-target-checkout-head',
    valid: [
      {
        path: '.github/workflows/ci.yml',
        code: src('on: pull_request', 'jobs:', '  build:', '    steps:', '      - uses: actions/checkout@v4', '        with:', '          ref: ${{ github.event.pull_request.head.sha }}'),
      },
    ],
    invalid: [
      {
        path: '.github/workflows/ci.yml',
        code: src(...workflowHead, '      - uses: actions/checkout@v4', '        with:', '          ref: ${{ github.event.pull_request.head.sha }}', '      - run: npm ci && npm test'),
        lines: [9],
      },
      {
        path: '.github/workflows/ci.yml',
        code: src(...workflowHead, '      - uses: actions/checkout@v4', '        with:', '          ref: refs/pull/${{ github.event.pull_request.number }}/merge'),
        lines: [9],
      },
    ],
  },
  {
    rule: 'jscr/gha-script-injection',
    valid: [
      {
        path: '.github/workflows/triage.yml',
        code: src('on: issues', 'jobs:', '  triage:', '    steps:', '      - env:', '          TITLE: ${{ github.event.issue.title }}', '        run: |', '          echo "$TITLE"'),
      },
    ],
    invalid: [
      {
        path: '.github/workflows/triage.yml',
        code: src('on: issues', 'jobs:', '  triage:', '    steps:', '      - run: |', '          echo "Title: ${{ github.event.issue.title }}"', '          ./label.sh'),
        lines: [6],
      },
      {
        path: '.github/workflows/pr.yaml',
        code: src('on: pull_request', 'jobs:', '  greet:', '    steps:', '      - run: echo "${{ github.head_ref }}"'),
        lines: [5],
      },
    ],
  },
  {
    rule: 'jscr/gha-unsecure-commands',
    valid: [{ path: '.github/workflows/ci.yml', code: src('env:', '  NODE_ENV: test') }],
    invalid: [{ path: '.github/workflows/ci.yml', code: src('env:', '  ACTIONS_ALLOW_UNSECURE_COMMANDS: true'), lines: [2] }],
  },
];

export const allCases: RuleCases[] = [
  ...pythonCases,
  ...javascriptCases,
  ...anyLanguageCases,
  ...javaCases,
  ...phpCases,
  ...goCases,
  ...shellCases,
  ...dockerfileCases,
  ...githubActionsCases,
];
