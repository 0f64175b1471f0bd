/**
 * The sink catalogue of the data-flow corpus: for each taint family and language, how a value reaches
 * the sink in each framework, which constant text surrounds the value, and which sanitisers fit (and
 * which belong to another sink kind). The shape templates (shapes-*.ts) combine these with sources.
 */

export type Language = 'python' | 'java' | 'javascript' | 'typescript' | 'php';

/** One way of cleaning a value, as an expression over the value's expression `v`. */
export interface Sanitiser {
  expr: (v: string) => string;
  imports: string[];
}

/** A sink in one framework. */
export interface Sink {
  imports: string[];
  /** Class fields (Java, PHP classes) or module-level lines (Python, JavaScript, plain PHP). */
  fields: string[];
  /** Lines at the top of the handler that prepare the sink's receiver. */
  setup: string[];
  /** The sink statement for the payload expression (one line, without its marker comment). */
  line: (payload: string) => string;
  /** Lines after the sink statement (e.g. returning the response it filled). */
  after: string[];
  /** The sink statement leaves the handler (a return). */
  returns: boolean;
  /** Extra handler parameters the sink needs (FastAPI's `response: Response`). */
  params: string[];
}

/** The language-independent text of a family's cases. */
interface FamilyText {
  /** Constant text before and after the value in the payload; string building wraps with `build`. */
  prefix: string;
  suffix: string;
  build?: [string, string];
  /** A value of the kind the sink expects that carries no outside data. */
  constant: string;
  /** The allow-list values. */
  allowed: string[];
}

/** What a family needs in one language, over all frameworks. */
export interface FamilyLanguage extends FamilyText {
  /** The sink in the framework `fw`, or undefined when that framework has none (another is used). */
  sink: (fw: string, n: number) => Sink | undefined;
  good: Sanitiser[];
  bad: Sanitiser[];
  /** Safe forms of the sink itself (bind parameters, argument vectors, safe parser settings): lines over the raw value. */
  safeSinks: ((v: string) => string[])[];
  safeSinkImports?: string[];
  /** Path families get the normalise-then-prefix-check allow-list. */
  pathCheck?: boolean;
  /** Binary or structured payloads are not built from strings. */
  noStringBuilding?: boolean;
  /** Only a few shapes in this language (LDAP and XPath in JavaScript). */
  few?: boolean;
}

/** A language's part of a family; it may override the family's text. */
type LanguageSinks = Omit<FamilyLanguage, keyof FamilyText> & Partial<FamilyText>;

const s = (imports: string[], expr: (v: string) => string): Sanitiser => ({ imports, expr });
const plain = (partial: Partial<Sink> & Pick<Sink, 'line'>): Sink => ({
  imports: [],
  fields: [],
  setup: [],
  after: [],
  returns: false,
  params: [],
  ...partial,
});

const SQL_PREFIX = 'SELECT title, body FROM notes WHERE owner_id = ';
const SQL_SUFFIX = ' ORDER BY created_at DESC';
const SQL_BOUND = 'SELECT title, body FROM notes WHERE owner_id = ? ORDER BY created_at DESC';
const CMD_PREFIX = 'ping -c 1 ';
const PATH_PREFIX = '/srv/app/uploads/';
const LDAP_PREFIX = '(uid=';
const XPATH_PREFIX = "//user[@name='";
const XPATH_SUFFIX = "']/email";
const HTML_PREFIX = '<p>Hello, ';
const HTML_SUFFIX = '</p>';
const EVAL_PREFIX = '2 * (';
const DISPOSITION = 'attachment; filename=';

/** The constant text around the value, the constant and the allow-list of each family (a language may override them). */
const TEXT: Record<string, FamilyText> = {
  sql: { prefix: SQL_PREFIX, suffix: SQL_SUFFIX, constant: '42', allowed: ['1', '2', '3'] },
  command: { prefix: CMD_PREFIX, suffix: '', constant: 'localhost', allowed: ['localhost', 'gateway.internal'] },
  path: { prefix: PATH_PREFIX, suffix: '', constant: 'report.txt', allowed: ['report.txt', 'summary.csv'] },
  ldap: { prefix: LDAP_PREFIX, suffix: ')', constant: 'jdoe', allowed: ['jdoe', 'asmith'] },
  xpath: { prefix: XPATH_PREFIX, suffix: XPATH_SUFFIX, constant: 'jdoe', allowed: ['jdoe', 'asmith'] },
  xss: { prefix: HTML_PREFIX, suffix: HTML_SUFFIX, constant: 'guest', allowed: ['guest', 'member'] },
  redirect: { prefix: '', suffix: '', build: ['', '?from=login'], constant: '/home', allowed: ['/home', '/account'] },
  'trust-boundary': { prefix: '', suffix: '', build: ['user:', ''], constant: 'guest', allowed: ['guest', 'member'] },
  'code-eval': { prefix: EVAL_PREFIX, suffix: ')', constant: '21', allowed: ['1', '2', '3'] },
  deserialisation: { prefix: '', suffix: '', constant: 'gAN9cQAu', allowed: ['gAN9cQAu'] },
  xxe: { prefix: '', suffix: '', build: ['<order>', '</order>'], constant: '<order/>', allowed: ['<order/>'] },
  header: { prefix: DISPOSITION, suffix: '', constant: 'report.pdf', allowed: ['report.pdf', 'invoice.pdf'] },
};

// ---------------------------------------------------------------- Python

const pyHtml = s(['import html'], (v) => `html.escape(${v})`);
const pyShlex = s(['import shlex'], (v) => `shlex.quote(${v})`);

const python: Record<string, LanguageSinks> = {
  sql: {
    sink: (fw, n) =>
      fw === 'django'
        ? plain({ imports: ['from django.db import connection'], setup: ['cursor = connection.cursor()'], line: (p) => `cursor.execute(${p})` })
        : plain({
            imports: ['import sqlite3'],
            setup: ['conn = sqlite3.connect("notes.db")', 'cursor = conn.cursor()'],
            line: (p) => (n % 2 === 0 ? `cursor.execute(${p})` : `rows = conn.execute(${p}).fetchall()`),
          }),
    good: [s([], (v) => `str(int(${v}))`)],
    bad: [pyHtml, pyShlex],
    safeSinks: [(v) => [`cursor.execute("${SQL_BOUND}", (${v},))`]],
  },
  command: {
    sink: (_fw, n) =>
      n % 3 === 0
        ? plain({ imports: ['import subprocess'], line: (p) => `out = subprocess.run(${p}, shell=True, capture_output=True)` })
        : n % 3 === 1
          ? plain({ imports: ['import os'], line: (p) => `os.system(${p})` })
          : // an argument list whose program is a shell, handed the command line as its script
            plain({ imports: ['import subprocess'], line: (p) => `out = subprocess.run(["sh", "-c", ${p}], capture_output=True)` }),
    good: [pyShlex],
    bad: [pyHtml],
    safeSinks: [(v) => [`out = subprocess.run(["ping", "-c", "1", ${v}], capture_output=True)`]],
    safeSinkImports: ['import subprocess'],
  },
  path: {
    sink: (fw, n) =>
      fw === 'flask' && n % 2 === 1
        ? plain({ imports: ['from flask import send_file'], line: (p) => `return send_file(${p})`, returns: true })
        : fw === 'django' && n % 2 === 1
          ? // a probe tells whether the file is there
            plain({ imports: ['import os'], line: (p) => `found = os.path.exists(${p})` })
          : fw === 'fastapi' && n % 2 === 1
            ? // pathlib's join: `/` on a Path
              plain({ imports: ['import pathlib'], line: (p) => `data = (pathlib.Path("/") / (${p})).read_bytes()` })
            : plain({ line: (p) => `data = open(${p}, "rb").read()` }),
    good: [s(['import os'], (v) => `os.path.basename(${v})`), s(['from werkzeug.utils import secure_filename'], (v) => `secure_filename(${v})`)],
    bad: [pyHtml],
    // a name without a parent step cannot leave the folder it is put under
    safeSinks: [(v) => [`if "../" in ${v}:`, '    raise ValueError("no parent folders")', `data = open("${PATH_PREFIX}" + ${v}, "rb").read()`]],
    pathCheck: true,
  },
  ldap: {
    sink: () =>
      plain({
        imports: ['import ldap'],
        setup: ['conn = ldap.initialize("ldap://directory.internal")'],
        line: (p) => `entries = conn.search_s("ou=people,dc=example,dc=org", ldap.SCOPE_SUBTREE, ${p})`,
      }),
    good: [s(['import ldap.filter'], (v) => `ldap.filter.escape_filter_chars(${v})`)],
    bad: [pyHtml],
    safeSinks: [],
  },
  xpath: {
    sink: () =>
      plain({ imports: ['from lxml import etree'], setup: ['tree = etree.parse("users.xml")'], line: (p) => `emails = tree.xpath(${p})` }),
    // every apostrophe replaced: the value cannot end the quoted literal it is put in
    good: [s([], (v) => `${v}.replace("'", "&apos;")`)],
    bad: [pyShlex],
    safeSinks: [(v) => [`emails = tree.xpath("//user[@name=$name]/email", name=${v})`]],
  },
  xss: {
    sink: (fw, n) =>
      fw === 'flask'
        ? n % 2 === 0
          ? plain({ imports: ['from flask import make_response'], line: (p) => `return make_response(${p})`, returns: true })
          : // a Flask view's returned string is served as the page
            plain({ line: (p) => `return ${p}`, returns: true })
        : fw === 'django'
          ? plain({ imports: ['from django.http import HttpResponse'], line: (p) => `return HttpResponse(${p})`, returns: true })
          : plain({ imports: ['from fastapi.responses import HTMLResponse'], line: (p) => `return HTMLResponse(${p})`, returns: true }),
    good: [pyHtml, s(['from markupsafe import escape'], (v) => `str(escape(${v}))`)],
    bad: [pyShlex, s([], (v) => `${v}.replace("<script>", "")`)],
    // Flask's (body, headers) tuple: the value is a header, not the page
    safeSinks: [(v) => [`return make_response(("<p>Saved</p>", {"X-Greeting-Name": ${v}}))`]],
    safeSinkImports: ['from flask import make_response'],
  },
  redirect: {
    sink: (fw) =>
      fw === 'flask'
        ? plain({ imports: ['from flask import redirect'], line: (p) => `return redirect(${p})`, returns: true })
        : fw === 'django'
          ? plain({ imports: ['from django.http import HttpResponseRedirect'], line: (p) => `return HttpResponseRedirect(${p})`, returns: true })
          : plain({ imports: ['from fastapi.responses import RedirectResponse'], line: (p) => `return RedirectResponse(${p})`, returns: true }),
    good: [s(['from urllib.parse import quote'], (v) => `"/search?q=" + quote(${v}, safe="")`)],
    bad: [pyHtml],
    // the target's host checked against the site's own hosts
    safeSinks: [(v) => [`target = urlparse(${v})`, 'if target.netloc not in ("shop.example", "help.shop.example"):', '    raise ValueError("not one of our hosts")', `return redirect(${v})`]],
    safeSinkImports: ['from urllib.parse import urlparse', 'from flask import redirect'],
  },
  'trust-boundary': {
    sink: (fw, n) =>
      fw === 'flask'
        ? plain({ imports: ['from flask import session'], line: (p) => (n % 2 === 0 ? `session["display_name"] = ${p}` : `session[${p}] = "seen"`) })
        : plain({ line: (p) => `request.session["display_name"] = ${p}` }),
    good: [],
    bad: [pyHtml],
    safeSinks: [],
  },
  'code-eval': {
    sink: (_fw, n) => plain({ line: (p) => (n % 2 === 0 ? `result = eval(${p})` : `exec(${p})`) }),
    good: [s([], (v) => `str(int(${v}))`)],
    bad: [pyHtml],
    safeSinks: [],
  },
  deserialisation: {
    sink: (_fw, n) =>
      n % 2 === 0
        ? plain({ imports: ['import base64', 'import pickle'], line: (p) => `order = pickle.loads(base64.b64decode(${p}))` })
        : plain({ imports: ['import yaml'], line: (p) => `order = yaml.load(${p}, Loader=yaml.Loader)` }),
    good: [],
    bad: [pyHtml],
    safeSinks: [(v) => [`order = yaml.safe_load(${v})`], (v) => [`order = json.loads(${v})`]],
    safeSinkImports: ['import yaml', 'import json'],
    noStringBuilding: true,
  },
  xxe: {
    sink: () =>
      plain({
        imports: ['from lxml import etree'],
        // The resolving parser is made on the sink line, so a safe form of the sink has none.
        line: (p) => `doc = etree.fromstring(${p}.encode(), etree.XMLParser(resolve_entities=True, no_network=False))`,
      }),
    good: [],
    bad: [],
    safeSinks: [(v) => [`doc = defused_etree.fromstring(${v})`], (v) => [`doc = etree.fromstring(${v}.encode(), etree.XMLParser(resolve_entities=False, no_network=True))`]],
    safeSinkImports: ['from defusedxml import ElementTree as defused_etree'],
  },
  header: {
    sink: (fw) =>
      fw === 'flask'
        ? plain({ imports: ['from flask import make_response'], setup: ['resp = make_response("ok")'], line: (p) => `resp.headers["Content-Disposition"] = ${p}`, after: ['return resp'], returns: true })
        : fw === 'django'
          ? plain({ imports: ['from django.http import HttpResponse'], setup: ['resp = HttpResponse("ok")'], line: (p) => `resp["Content-Disposition"] = ${p}`, after: ['return resp'], returns: true })
          : plain({ imports: ['from fastapi import Response'], line: (p) => `response.headers["Content-Disposition"] = ${p}`, params: ['response: Response'] }),
    good: [s(['from urllib.parse import quote'], (v) => `quote(${v})`), s([], (v) => `${v}.replace("\\r", "").replace("\\n", "")`)],
    bad: [pyHtml],
    safeSinks: [],
  },
};

// ---------------------------------------------------------------- Java

const jEncode = s(['import org.owasp.encoder.Encode;'], (v) => `Encode.forHtml(${v})`);
const jInt = s([], (v) => `String.valueOf(Integer.parseInt(${v}))`);
const servletSql = (n: number): Sink =>
  n % 2 === 0
    ? plain({
        imports: ['import java.sql.Connection;', 'import java.sql.ResultSet;', 'import java.sql.Statement;', 'import javax.sql.DataSource;'],
        fields: ['private DataSource dataSource;'],
        setup: ['Connection conn = dataSource.getConnection();', 'Statement stmt = conn.createStatement();'],
        line: (p) => `ResultSet rs = stmt.executeQuery(${p});`,
      })
    : plain({
        imports: ['import org.springframework.jdbc.core.JdbcTemplate;', 'import java.util.List;', 'import java.util.Map;'],
        fields: ['private JdbcTemplate jdbcTemplate;'],
        line: (p) => `List<Map<String, Object>> rows = jdbcTemplate.queryForList(${p});`,
      });

const java: Record<string, LanguageSinks> = {
  sql: {
    sink: (_fw, n) => servletSql(n),
    good: [jInt, s([], (v) => `Long.toString(Long.parseLong(${v}))`)],
    bad: [jEncode, s(['import org.apache.commons.text.StringEscapeUtils;'], (v) => `StringEscapeUtils.escapeHtml4(${v})`)],
    safeSinks: [
      (v) => [
        `java.sql.PreparedStatement ps = dataSource.getConnection().prepareStatement("${SQL_BOUND}");`,
        `ps.setString(1, ${v});`,
        'ResultSet rs = ps.executeQuery();',
      ],
    ],
  },
  command: {
    sink: (_fw, n) =>
      plain({
        imports: ['import java.io.IOException;'],
        line: (p) => (n % 2 === 0 ? `Process proc = new ProcessBuilder("sh", "-c", ${p}).start();` : `Process proc = Runtime.getRuntime().exec(new String[] {"sh", "-c", ${p}});`),
      }),
    good: [jInt],
    bad: [jEncode],
    safeSinks: [(v) => [`Process proc = new ProcessBuilder("ping", "-c", "1", ${v}).start();`]],
  },
  path: {
    sink: (_fw, n) =>
      n % 2 === 0
        ? plain({ imports: ['import java.nio.file.Files;', 'import java.nio.file.Paths;'], line: (p) => `byte[] data = Files.readAllBytes(Paths.get(${p}));` })
        : plain({ imports: ['import java.io.FileInputStream;'], line: (p) => `FileInputStream in = new FileInputStream(${p});` }),
    good: [s(['import java.io.File;'], (v) => `new File(${v}).getName()`), s(['import org.apache.commons.io.FilenameUtils;'], (v) => `FilenameUtils.getName(${v})`)],
    bad: [jEncode],
    safeSinks: [],
    pathCheck: true,
  },
  ldap: {
    sink: () =>
      plain({
        imports: ['import javax.naming.directory.DirContext;', 'import javax.naming.directory.SearchControls;', 'import javax.naming.NamingEnumeration;', 'import javax.naming.directory.SearchResult;'],
        fields: ['private DirContext directory;'],
        line: (p) => `NamingEnumeration<SearchResult> found = directory.search("ou=people,dc=example,dc=org", ${p}, new SearchControls());`,
      }),
    good: [s(['import org.springframework.ldap.support.LdapEncoder;'], (v) => `LdapEncoder.filterEncode(${v})`)],
    bad: [jEncode],
    safeSinks: [],
  },
  xpath: {
    sink: () =>
      plain({
        imports: ['import javax.xml.xpath.XPath;', 'import javax.xml.xpath.XPathFactory;', 'import org.w3c.dom.Document;'],
        fields: ['private Document users;'],
        setup: ['XPath xpath = XPathFactory.newInstance().newXPath();'],
        line: (p) => `String email = xpath.evaluate(${p}, users);`,
      }),
    good: [s(['import org.owasp.esapi.ESAPI;'], (v) => `ESAPI.encoder().encodeForXPath(${v})`)],
    bad: [s(['import org.springframework.ldap.support.LdapEncoder;'], (v) => `LdapEncoder.filterEncode(${v})`)],
    safeSinks: [],
  },
  xss: {
    sink: (_fw, n) =>
      plain({ imports: ['import java.io.PrintWriter;'], setup: ['PrintWriter out = response.getWriter();'], line: (p) => (n % 2 === 0 ? `out.println(${p});` : `out.write(${p});`) }),
    good: [jEncode, s(['import org.springframework.web.util.HtmlUtils;'], (v) => `HtmlUtils.htmlEscape(${v})`)],
    bad: [s([], (v) => `${v}.replace("<script>", "")`), s(['import java.net.URLDecoder;', 'import java.nio.charset.StandardCharsets;'], (v) => `URLDecoder.decode(${v}, StandardCharsets.UTF_8)`)],
    safeSinks: [],
  },
  redirect: {
    sink: () => plain({ line: (p) => `response.sendRedirect(${p});` }),
    good: [s(['import java.net.URLEncoder;', 'import java.nio.charset.StandardCharsets;'], (v) => `"/search?q=" + URLEncoder.encode(${v}, StandardCharsets.UTF_8)`)],
    bad: [jEncode],
    safeSinks: [],
  },
  'trust-boundary': {
    sink: (_fw, n) =>
      n % 2 === 0
        ? plain({ line: (p) => `request.getSession().setAttribute("displayName", ${p});` })
        : plain({ imports: ['import javax.servlet.http.HttpSession;'], setup: ['HttpSession session = request.getSession(true);'], line: (p) => `session.setAttribute("displayName", ${p});` }),
    good: [],
    bad: [jEncode],
    safeSinks: [],
  },
  'code-eval': {
    sink: (_fw, n) =>
      n % 2 === 0
        ? plain({
            imports: ['import javax.script.ScriptEngine;', 'import javax.script.ScriptEngineManager;'],
            setup: ['ScriptEngine engine = new ScriptEngineManager().getEngineByName("javascript");'],
            line: (p) => `Object result = engine.eval(${p});`,
          })
        : plain({
            imports: ['import org.springframework.expression.spel.standard.SpelExpressionParser;'],
            line: (p) => `Object result = new SpelExpressionParser().parseExpression(${p}).getValue();`,
          }),
    good: [jInt],
    bad: [jEncode],
    safeSinks: [],
  },
  deserialisation: {
    sink: (_fw, n) =>
      n % 2 === 0
        ? plain({
            imports: ['import java.io.ByteArrayInputStream;', 'import java.io.ObjectInputStream;', 'import java.util.Base64;'],
            line: (p) => `Object order = new ObjectInputStream(new ByteArrayInputStream(Base64.getDecoder().decode(${p}))).readObject();`,
          })
        : plain({
            imports: ['import java.beans.XMLDecoder;', 'import java.io.ByteArrayInputStream;', 'import java.nio.charset.StandardCharsets;'],
            line: (p) => `Object order = new XMLDecoder(new ByteArrayInputStream(${p}.getBytes(StandardCharsets.UTF_8))).readObject();`,
          }),
    constant: 'rO0ABXQAAA==',
    allowed: ['rO0ABXQAAA=='],
    good: [],
    bad: [jEncode],
    safeSinks: [],
    noStringBuilding: true,
  },
  xxe: {
    sink: () =>
      plain({
        imports: ['import javax.xml.parsers.DocumentBuilderFactory;', 'import org.w3c.dom.Document;', 'import org.xml.sax.InputSource;', 'import java.io.StringReader;'],
        setup: ['DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();'],
        line: (p) => `Document doc = factory.newDocumentBuilder().parse(new InputSource(new StringReader(${p})));`,
      }),
    good: [],
    bad: [],
    safeSinks: [
      (v) => [
        'factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);',
        `Document doc = factory.newDocumentBuilder().parse(new InputSource(new StringReader(${v})));`,
      ],
    ],
  },
  header: {
    sink: (_fw, n) => plain({ line: (p) => (n % 2 === 0 ? `response.setHeader("Content-Disposition", ${p});` : `response.addHeader("Content-Disposition", ${p});`) }),
    good: [s(['import java.net.URLEncoder;', 'import java.nio.charset.StandardCharsets;'], (v) => `URLEncoder.encode(${v}, StandardCharsets.UTF_8)`), s([], (v) => `${v}.replaceAll("[\\r\\n]", "")`)],
    bad: [jEncode],
    safeSinks: [],
  },
};

// ---------------------------------------------------------------- JavaScript / TypeScript

const jsEscape = s(['import escapeHtml from "escape-html";'], (v) => `escapeHtml(${v})`);
const jsInt = s([], (v) => `String(Number.parseInt(${v}, 10))`);

/**
 * A sink on the response object. `finishes`: the sink writes the response, so the handler leaves after it
 * (a later default response would replace what it wrote).
 */
function responseSink(fw: string, express: (p: string) => string, koa: (p: string) => string, app?: (p: string) => string, appImports: string[] = [], finishes = true): Sink | undefined {
  if (fw === 'koa') return plain({ line: koa, after: finishes ? ['return;'] : [], returns: finishes });
  if (fw === 'next-app') return app ? plain({ imports: appImports, line: app, returns: true }) : undefined;
  return finishes ? plain({ line: (p) => `return ${express(p)}`, returns: true }) : plain({ line: express });
}

const javascript: Record<string, LanguageSinks> = {
  sql: {
    sink: (_fw, n) =>
      n % 2 === 0
        ? plain({ imports: ['import mysql from "mysql2/promise";'], fields: ['const pool = mysql.createPool({ host: "db.internal", user: "app", database: "notes" });'], line: (p) => `const [rows] = await pool.query(${p});` })
        : plain({ imports: ['import { Sequelize } from "sequelize";'], fields: ['const sequelize = new Sequelize("postgres://app@db.internal/notes");'], line: (p) => `const rows = await sequelize.query(${p});` }),
    good: [jsInt],
    bad: [jsEscape],
    safeSinks: [(v) => [`const [rows] = await pool.query("${SQL_BOUND}", [${v}]);`]],
  },
  command: {
    sink: (_fw, n) =>
      n % 2 === 0
        ? plain({ imports: ['import { execSync } from "node:child_process";'], line: (p) => `const out = execSync(${p});` })
        : plain({ imports: ['import { exec } from "node:child_process";'], line: (p) => `exec(${p}, () => undefined);` }),
    good: [s(['import { quote } from "shell-quote";'], (v) => `quote([${v}])`)],
    bad: [jsEscape],
    safeSinks: [(v) => [`const out = execFileSync("ping", ["-c", "1", ${v}]);`]],
    safeSinkImports: ['import { execFileSync } from "node:child_process";'],
  },
  path: {
    sink: (_fw, n) =>
      n % 2 === 0
        ? plain({ imports: ['import fs from "node:fs";'], line: (p) => `const data = fs.readFileSync(${p});` })
        : plain({ imports: ['import { readFile } from "node:fs/promises";'], line: (p) => `const data = await readFile(${p});` }),
    good: [s(['import path from "node:path";'], (v) => `path.basename(${v})`)],
    bad: [jsEscape],
    safeSinks: [],
    pathCheck: true,
  },
  ldap: {
    sink: () =>
      plain({ imports: ['import ldap from "ldapjs";'], fields: ['const client = ldap.createClient({ url: "ldap://directory.internal" });'], line: (p) => `client.search("ou=people,dc=example,dc=org", { filter: ${p} }, () => undefined);` }),
    good: [],
    bad: [jsEscape],
    safeSinks: [],
    few: true,
  },
  xpath: {
    sink: () =>
      plain({
        imports: ['import xpath from "xpath";', 'import { DOMParser } from "@xmldom/xmldom";', 'import fs from "node:fs";'],
        fields: ['const users = new DOMParser().parseFromString(fs.readFileSync("users.xml", "utf8"), "text/xml");'],
        line: (p) => `const emails = xpath.select(${p}, users);`,
      }),
    good: [],
    bad: [jsEscape],
    safeSinks: [],
    few: true,
  },
  xss: {
    sink: (fw) =>
      responseSink(
        fw,
        (p) => `res.send(${p});`,
        (p) => `ctx.body = ${p};`,
        (p) => `return new Response(${p}, { headers: { "Content-Type": "text/html" } });`,
      ),
    good: [jsEscape, s(['import he from "he";'], (v) => `he.encode(${v})`)],
    bad: [s([], (v) => `JSON.stringify(${v})`), s([], (v) => `${v}.replace("<script>", "")`)],
    safeSinks: [],
  },
  redirect: {
    sink: (fw) =>
      responseSink(
        fw,
        (p) => `res.redirect(${p});`,
        (p) => `ctx.redirect(${p});`,
        (p) => `return NextResponse.redirect(new URL(${p}, request.url));`,
        ['import { NextResponse } from "next/server";'],
      ),
    good: [s([], (v) => `"/search?q=" + encodeURIComponent(${v})`)],
    bad: [jsEscape],
    safeSinks: [],
  },
  'trust-boundary': {
    sink: (fw) => (fw.startsWith('next-') ? undefined : responseSink(fw, (p) => `req.session.displayName = ${p};`, (p) => `ctx.session.displayName = ${p};`, undefined, [], false)),
    good: [],
    bad: [jsEscape],
    safeSinks: [],
  },
  'code-eval': {
    sink: (_fw, n) =>
      n % 2 === 0
        ? plain({ line: (p) => `const result = eval(${p});` })
        : plain({ imports: ['import vm from "node:vm";'], line: (p) => `const result = vm.runInNewContext(${p}, {});` }),
    good: [jsInt],
    bad: [jsEscape],
    safeSinks: [],
  },
  deserialisation: {
    sink: () => plain({ imports: ['import serialize from "node-serialize";'], line: (p) => `const order = serialize.unserialize(${p});` }),
    constant: '{"id":1}',
    allowed: ['{"id":1}'],
    good: [],
    bad: [jsEscape],
    safeSinks: [(v) => [`const order = JSON.parse(${v});`]],
    noStringBuilding: true,
  },
  xxe: {
    sink: () => plain({ imports: ['import libxmljs from "libxmljs";'], line: (p) => `const doc = libxmljs.parseXml(${p}, { noent: true });` }),
    good: [],
    bad: [],
    safeSinks: [(v) => [`const doc = libxmljs.parseXml(${v}, { noent: false, nonet: true });`]],
  },
  header: {
    sink: (fw) =>
      responseSink(
        fw,
        (p) => `res.setHeader("Content-Disposition", ${p});`,
        (p) => `ctx.set("Content-Disposition", ${p});`,
        (p) => `return new Response("ok", { headers: { "Content-Disposition": ${p} } });`,
        [],
        false,
      ),
    good: [s([], (v) => `encodeURIComponent(${v})`), s([], (v) => `${v}.replace(/[\\r\\n]/g, "")`)],
    bad: [jsEscape],
    safeSinks: [],
  },
};

// ---------------------------------------------------------------- PHP

const phpHtml = s([], (v) => `htmlspecialchars(${v}, ENT_QUOTES, 'UTF-8')`);

function phpFrameworkSink(fw: string, plainLine: (p: string) => string, symfony: (p: string) => string, laravel: (p: string) => string, returns = false, imports: Record<string, string[]> = {}): Sink {
  const line = fw === 'symfony' ? symfony : fw === 'laravel' ? laravel : plainLine;
  return plain({ line, returns: returns && fw !== 'plain', imports: imports[fw] ?? [] });
}

const php: Record<string, LanguageSinks> = {
  sql: {
    sink: (fw, n) =>
      fw === 'plain'
        ? n % 2 === 0
          ? plain({ setup: ["$conn = mysqli_connect('db.internal', 'app', getenv('DB_PASSWORD'), 'notes');"], line: (p) => `$result = mysqli_query($conn, ${p});` })
          : plain({ setup: ["$pdo = new PDO('mysql:host=db.internal;dbname=notes', 'app', getenv('DB_PASSWORD'));"], line: (p) => `$rows = $pdo->query(${p})->fetchAll();` })
        : fw === 'symfony'
          ? plain({ imports: ['use Doctrine\\DBAL\\Connection;'], line: (p) => `$rows = $this->connection->executeQuery(${p})->fetchAllAssociative();` })
          : plain({ imports: ['use Illuminate\\Support\\Facades\\DB;'], line: (p) => `$rows = DB::select(${p});` }),
    good: [s([], (v) => `intval(${v})`), s([], (v) => `(int) ${v}`)],
    bad: [phpHtml, s([], (v) => `strip_tags(${v})`)],
    safeSinks: [(v) => [`$stmt = (new PDO('mysql:host=db.internal;dbname=notes', 'app', getenv('DB_PASSWORD')))->prepare('${SQL_BOUND}');`, `$stmt->execute([${v}]);`]],
  },
  command: {
    sink: (_fw, n) => plain({ line: (p) => (n % 3 === 0 ? `$out = shell_exec(${p});` : n % 3 === 1 ? `system(${p});` : `exec(${p}, $out);`) }),
    good: [s([], (v) => `escapeshellarg(${v})`)],
    bad: [phpHtml],
    safeSinks: [],
  },
  path: {
    sink: (_fw, n) => plain({ line: (p) => (n % 2 === 0 ? `$data = file_get_contents(${p});` : `readfile(${p});`) }),
    good: [s([], (v) => `basename(${v})`)],
    bad: [phpHtml],
    safeSinks: [],
    pathCheck: true,
  },
  ldap: {
    sink: () => plain({ setup: ["$ds = ldap_connect('ldap://directory.internal');"], line: (p) => `$found = ldap_search($ds, 'ou=people,dc=example,dc=org', ${p});` }),
    good: [s([], (v) => `ldap_escape(${v}, '', LDAP_ESCAPE_FILTER)`)],
    bad: [phpHtml],
    safeSinks: [],
  },
  xpath: {
    sink: () =>
      plain({
        setup: ['$doc = new DOMDocument();', "$doc->load(__DIR__ . '/users.xml');", '$xpath = new DOMXPath($doc);'],
        line: (p) => `$emails = $xpath->query(${p});`,
      }),
    good: [],
    bad: [s([], (v) => `addslashes(${v})`)],
    safeSinks: [],
  },
  xss: {
    sink: (fw) =>
      phpFrameworkSink(fw, (p) => `echo ${p};`, (p) => `return new Response(${p});`, (p) => `return response(${p});`, true, {
        symfony: ['use Symfony\\Component\\HttpFoundation\\Response;'],
      }),
    good: [phpHtml, s([], (v) => `htmlentities(${v}, ENT_QUOTES)`)],
    bad: [s([], (v) => `addslashes(${v})`)],
    safeSinks: [],
  },
  redirect: {
    sink: (fw) =>
      phpFrameworkSink(fw, (p) => `header('Location: ' . ${p});`, (p) => `return new RedirectResponse(${p});`, (p) => `return redirect()->away(${p});`, true, {
        symfony: ['use Symfony\\Component\\HttpFoundation\\RedirectResponse;'],
      }),
    good: [s([], (v) => `'/search?q=' . rawurlencode(${v})`)],
    bad: [phpHtml],
    safeSinks: [],
  },
  'trust-boundary': {
    sink: (fw) =>
      phpFrameworkSink(
        fw,
        (p) => `$_SESSION['display_name'] = ${p};`,
        (p) => `$request->getSession()->set('display_name', ${p});`,
        (p) => `$request->session()->put('display_name', ${p});`,
      ),
    good: [],
    bad: [phpHtml],
    safeSinks: [],
  },
  'code-eval': {
    sink: () => plain({ line: (p) => `$result = eval(${p});` }),
    prefix: 'return 2 * (',
    suffix: ');',
    good: [s([], (v) => `intval(${v})`)],
    bad: [phpHtml],
    safeSinks: [],
  },
  deserialisation: {
    sink: (_fw, n) => plain({ line: (p) => (n % 2 === 0 ? `$order = unserialize(${p});` : `$order = unserialize(base64_decode(${p}));`) }),
    constant: 'a:0:{}',
    allowed: ['a:0:{}'],
    good: [],
    bad: [s([], (v) => `strip_tags(${v})`)],
    safeSinks: [(v) => [`$order = unserialize(${v}, ['allowed_classes' => false]);`], (v) => [`$order = json_decode(${v}, true);`]],
    noStringBuilding: true,
  },
  xxe: {
    sink: (_fw, n) =>
      n % 2 === 0
        ? plain({ setup: ['$doc = new DOMDocument();'], line: (p) => `$doc->loadXML(${p}, LIBXML_NOENT | LIBXML_DTDLOAD);` })
        : plain({ line: (p) => `$order = simplexml_load_string(${p}, 'SimpleXMLElement', LIBXML_NOENT);` }),
    good: [],
    bad: [],
    safeSinks: [(v) => [`$order = simplexml_load_string(${v});`]],
  },
  header: {
    sink: (fw) =>
      fw === 'symfony'
        ? plain({ imports: ['use Symfony\\Component\\HttpFoundation\\Response;'], setup: ["$response = new Response('ok');"], line: (p) => `$response->headers->set('Content-Disposition', ${p});`, after: ['return $response;'], returns: true })
        : fw === 'laravel'
          ? plain({ line: (p) => `return response('ok')->header('Content-Disposition', ${p});`, returns: true })
          : plain({ line: (p) => `header('Content-Disposition: ' . ${p});` }),
    good: [s([], (v) => `rawurlencode(${v})`), s([], (v) => `str_replace(["\\r", "\\n"], '', ${v})`)],
    bad: [phpHtml],
    safeSinks: [],
  },
};

/** Every taint family's catalogue per language (TypeScript shares JavaScript's). */
export const TAINT: Record<string, Partial<Record<Language, FamilyLanguage>>> = Object.fromEntries(
  Object.entries(TEXT).map(([family, text]) => {
    const withText = (part: LanguageSinks | undefined): FamilyLanguage | undefined => (part ? { ...text, ...part } : undefined);
    const js = withText(javascript[family]);
    return [
      family,
      {
        python: withText(python[family]),
        java: withText(java[family]),
        javascript: js,
        // LDAP and XPath in TypeScript would only repeat the few JavaScript cases.
        typescript: js?.few === true ? undefined : js,
        php: withText(php[family]),
      },
    ];
  }),
);
