/**
 * The web frameworks the corpus cases live in: where outside data enters (sources), how a handler
 * refuses a request, how it ends, and the whole file around the handler body.
 */
import type { Language } from './catalogue.js';

/** Outside data: handler parameters it needs, lines that read it, and the expression that holds it. */
export interface Source {
  params: string[];
  prelude: string[];
  expr: string;
  imports: string[];
}

/** What one case contributes to its file. */
export interface Parts {
  imports: string[];
  /** Module-level (or class-level) lines: constants, clients, fields. */
  fields: string[];
  /** Helper functions, methods and classes of the same file. */
  helpers: string[];
  params: string[];
  body: string[];
  /** The body already leaves the handler on every path. */
  returns: boolean;
}

export interface Framework {
  id: string;
  language: Language;
  /** Helpers are class members (called through `this`) rather than top-level functions. */
  member: boolean;
  sources: Source[];
  /** Statements refusing the request (they leave the handler). */
  refuse: string[];
  /** The default end of a handler that has not returned. */
  end: string[];
  wrap(name: string, route: string, parts: Parts): string;
}

const src = (expr: string, imports: string[] = [], prelude: string[] = [], params: string[] = []): Source => ({ expr, imports, prelude, params });
const indentAll = (indent: string, lines: string[]): string[] => lines.map((l) => (l === '' ? '' : indent + l));
const uniq = (lines: string[]): string[] => [...new Set(lines)];
const sortedImports = (lines: string[]): string[] => uniq(lines).sort();
const pascal = (name: string): string => name.replace(/(^|[-_])(\w)/g, (_m, _s: string, c: string) => c.toUpperCase());
const snake = (name: string): string => name.replace(/-/g, '_');
const camel = (name: string): string => pascal(name).replace(/^\w/, (c) => c.toLowerCase());
const section = (lines: string[]): string[] => (lines.length > 0 ? [...lines, ''] : []);

// ---------------------------------------------------------------- Python

function pythonFile(headerImports: string[], parts: Parts, handler: string[]): string {
  return [
    ...section(sortedImports(['import logging', ...headerImports, ...parts.imports])),
    'logger = logging.getLogger(__name__)',
    ...uniq(parts.fields),
    '',
    ...parts.helpers.flatMap((h) => (h.startsWith('def ') || h.startsWith('class ') ? ['', h] : [h])),
    ...(parts.helpers.length > 0 ? ['', ''] : ['']),
    ...handler,
    '',
  ].join('\n');
}

const pyBody = (parts: Parts, fw: Framework): string[] => indentAll('    ', [...parts.body, ...(parts.returns ? [] : fw.end)]);

const flask: Framework = {
  id: 'flask',
  language: 'python',
  member: false,
  sources: [
    src('request.args.get("owner", "")'),
    src('request.form["comment"]'),
    src('request.cookies.get("preference", "")'),
    src('request.headers.get("X-Account", "")'),
    src('request.values.get("q", "")'),
    src('request.get_json()["name"]'),
  ],
  refuse: ['abort(400)'],
  end: ['return "ok"'],
  wrap(name, route, parts) {
    return pythonFile(['from flask import Flask, abort, request'], { ...parts, fields: ['app = Flask(__name__)', ...parts.fields] }, [
      `@app.route("/${route}", methods=["GET", "POST"])`,
      `def ${snake(name)}():`,
      ...pyBody(parts, this),
    ]);
  },
};

const django: Framework = {
  id: 'django',
  language: 'python',
  member: false,
  sources: [
    src('request.GET.get("owner", "")'),
    src('request.POST["comment"]'),
    src('request.COOKIES.get("preference", "")'),
    src('request.META.get("HTTP_X_ACCOUNT", "")'),
    src('request.headers.get("X-Account", "")'),
    src('request.GET.getlist("tag")[0]'),
    src('request.GET["owner"]'),
  ],
  refuse: ['return HttpResponseBadRequest("unknown value")'],
  end: ['return HttpResponse("ok")'],
  wrap(name, _route, parts) {
    return pythonFile(['from django.http import HttpResponse, HttpResponseBadRequest', 'from django.views.decorators.http import require_http_methods'], parts, [
      '@require_http_methods(["GET", "POST"])',
      `def ${snake(name)}(request):`,
      ...pyBody(parts, this),
    ]);
  },
};

const fastapi: Framework = {
  id: 'fastapi',
  language: 'python',
  member: false,
  sources: [
    src('owner', ['from fastapi import Query'], [], ['owner: str = Query("")']),
    src('x_account', ['from fastapi import Header'], [], ['x_account: str = Header("")']),
    src('preference', ['from fastapi import Cookie'], [], ['preference: str = Cookie("")']),
    src('request.query_params.get("owner", "")'),
    src('request.headers.get("x-account", "")'),
  ],
  refuse: ['raise HTTPException(status_code=400, detail="unknown value")'],
  end: ['return {"status": "ok"}'],
  wrap(name, route, parts) {
    // Python wants parameters without a default before those with one.
    const all = uniq(['request: Request', ...parts.params]);
    const params = [...all.filter((p) => !p.includes('=')), ...all.filter((p) => p.includes('='))];
    return pythonFile(['from fastapi import FastAPI, HTTPException, Request'], { ...parts, fields: ['app = FastAPI()', ...parts.fields] }, [
      `@app.get("/${route}")`,
      `async def ${snake(name)}(${params.join(', ')}):`,
      ...pyBody(parts, this),
    ]);
  },
};

// ---------------------------------------------------------------- Java

function javaFile(pkg: string, headerImports: string[], parts: Parts, annotations: string[], className: string, extendsClause: string, method: string[]): string {
  return [
    `package ${pkg};`,
    '',
    ...section(sortedImports(['import java.util.logging.Logger;', ...headerImports, ...parts.imports])),
    ...annotations,
    `class ${className}${extendsClause} {`,
    `    private static final Logger LOG = Logger.getLogger(${className}.class.getName());`,
    ...indentAll('    ', uniq(parts.fields)),
    '',
    ...indentAll('    ', method),
    ...parts.helpers.flatMap((h) => ['', ...indentAll('    ', h.split('\n'))]),
    '}',
    '',
  ].join('\n');
}

const servletSources: Source[] = [
  src('request.getParameter("owner")'),
  src('request.getHeader("X-Account")'),
  src('param', [], ['String[] ownerValues = request.getParameterValues("owner");', 'String param = ownerValues != null && ownerValues.length > 0 ? ownerValues[0] : "";']),
  src('param', ['import java.util.Map;'], ['Map<String, String[]> paramMap = request.getParameterMap();', 'String param = paramMap.containsKey("owner") ? paramMap.get("owner")[0] : "";']),
  src('param', [], ['String qs = request.getQueryString();', 'String param = qs.substring(qs.indexOf("owner=") + 6);']),
  src(
    'param',
    ['import javax.servlet.http.Cookie;'],
    ['String param = "";', 'Cookie[] cookies = request.getCookies();', 'if (cookies != null) {', '    for (Cookie c : cookies) {', '        if ("preference".equals(c.getName())) {', '            param = c.getValue();', '        }', '    }', '}'],
  ),
  src('param', ['import java.util.Enumeration;'], ['Enumeration<String> headers = request.getHeaders("X-Account");', 'String param = headers.hasMoreElements() ? headers.nextElement() : "";']),
  src('param', ['import java.io.BufferedReader;'], ['BufferedReader reader = request.getReader();', 'String param = reader.readLine();']),
  src('request.getPathInfo()'),
];

const servlet: Framework = {
  id: 'servlet',
  language: 'java',
  member: true,
  sources: servletSources,
  refuse: ['response.sendError(HttpServletResponse.SC_BAD_REQUEST);', 'return;'],
  end: [],
  wrap(name, route, parts) {
    const className = `${pascal(name)}Servlet`;
    return javaFile(
      'com.example.web',
      ['import java.io.IOException;', 'import javax.servlet.ServletException;', 'import javax.servlet.annotation.WebServlet;', 'import javax.servlet.http.HttpServlet;', 'import javax.servlet.http.HttpServletRequest;', 'import javax.servlet.http.HttpServletResponse;'],
      parts,
      [`@WebServlet("/${route}")`],
      className,
      ' extends HttpServlet',
      [
        '@Override',
        'protected void doPost(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {',
        '    response.setContentType("text/html;charset=UTF-8");',
        '    try {',
        ...indentAll('        ', parts.body),
        '    } catch (Exception e) {',
        '        throw new ServletException(e);',
        '    }',
        '}',
        '',
        '@Override',
        'protected void doGet(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {',
        '    doPost(request, response);',
        '}',
      ],
    );
  },
};

const spring: Framework = {
  id: 'spring',
  language: 'java',
  member: true,
  sources: [
    src('owner', ['import org.springframework.web.bind.annotation.RequestParam;'], [], ['@RequestParam("owner") String owner']),
    src('account', ['import org.springframework.web.bind.annotation.RequestHeader;'], [], ['@RequestHeader("X-Account") String account']),
    src('preference', ['import org.springframework.web.bind.annotation.CookieValue;'], [], ['@CookieValue("preference") String preference']),
    src('name', ['import org.springframework.web.bind.annotation.PathVariable;'], [], ['@PathVariable("name") String name']),
    src('body', ['import org.springframework.web.bind.annotation.RequestBody;'], [], ['@RequestBody String body']),
    src('request.getParameter("owner")'),
  ],
  refuse: ['response.sendError(HttpServletResponse.SC_BAD_REQUEST);', 'return;'],
  end: [],
  wrap(name, route, parts) {
    const className = `${pascal(name)}Controller`;
    const params = [...parts.params, 'HttpServletRequest request', 'HttpServletResponse response'];
    const path = parts.params.some((p) => p.includes('@PathVariable')) ? `/${route}/{name}` : `/${route}`;
    return javaFile(
      'com.example.web',
      ['import javax.servlet.http.HttpServletRequest;', 'import javax.servlet.http.HttpServletResponse;', 'import org.springframework.web.bind.annotation.RequestMapping;', 'import org.springframework.web.bind.annotation.RestController;'],
      parts,
      ['@RestController'],
      className,
      '',
      [`@RequestMapping("${path}")`, `public void ${camel(name)}(${params.join(', ')}) throws Exception {`, ...indentAll('    ', parts.body), '}'],
    );
  },
};

// ---------------------------------------------------------------- JavaScript and TypeScript

function jsFile(headerImports: string[], parts: Parts, handler: string[]): string {
  return [
    ...section(sortedImports([...headerImports, ...parts.imports])),
    ...section(uniq(parts.fields)),
    ...parts.helpers.flatMap((h) => [h, '']),
    ...handler,
    '',
  ].join('\n');
}
const jsBody = (parts: Parts, fw: Framework): string[] => indentAll('  ', [...parts.body, ...(parts.returns ? [] : fw.end)]);

function express(typed: boolean): Framework {
  const q = (e: string): string => (typed ? `String(${e})` : e);
  return {
    id: 'express',
    language: typed ? 'typescript' : 'javascript',
    member: false,
    sources: [
      src(q('req.query.owner')),
      src(q('req.params.name')),
      src(q('req.body.comment')),
      src(q('req.cookies.preference')),
      src(q('req.get("X-Account")')),
      src(q('req.headers["x-account"]')),
      src(q('owner'), [], ['const { owner } = req.query;']),
    ],
    refuse: ['return res.status(400).send("unknown value");'],
    end: ['res.json({ ok: true });'],
    wrap(name, route, parts) {
      const sig = typed ? '(req: Request, res: Response)' : '(req, res)';
      const path = parts.body.some((l) => l.includes('req.params.name')) ? `/${route}/:name` : `/${route}`;
      return jsFile([typed ? 'import express, { type Request, type Response } from "express";' : 'import express from "express";'], { ...parts, fields: ['const app = express();', 'app.use(express.urlencoded({ extended: false }));', ...parts.fields] }, [
        `// ${name}`,
        `app.post("${path}", async ${sig} => {`,
        ...jsBody(parts, this),
        '});',
        '',
        'export default app;',
      ]);
    },
  };
}

const koa: Framework = {
  id: 'koa',
  language: 'javascript',
  member: false,
  sources: [src('ctx.query.owner'), src('ctx.request.body.comment'), src('ctx.cookies.get("preference")'), src('ctx.get("X-Account")'), src('ctx.params.name')],
  refuse: ['ctx.throw(400, "unknown value");'],
  end: ['ctx.body = { ok: true };'],
  wrap(name, route, parts) {
    const path = parts.body.some((l) => l.includes('ctx.params.name')) ? `/${route}/:name` : `/${route}`;
    return jsFile(['import Router from "@koa/router";'], { ...parts, fields: ['const router = new Router();', ...parts.fields] }, [
      `router.post("${path}", async function ${camel(name)}(ctx) {`,
      ...jsBody(parts, this),
      '});',
      '',
      'export default router;',
    ]);
  },
};

const nextApp: Framework = {
  id: 'next-app',
  language: 'typescript',
  member: false,
  sources: [
    src('request.nextUrl.searchParams.get("owner") ?? ""'),
    src('request.headers.get("x-account") ?? ""'),
    src('request.cookies.get("preference")?.value ?? ""'),
    src('String(form.get("comment") ?? "")', [], ['const form = await request.formData();']),
  ],
  refuse: ['return new Response("unknown value", { status: 400 });'],
  end: ['return NextResponse.json({ ok: true });'],
  wrap(_name, _route, parts) {
    return jsFile(['import { NextResponse, type NextRequest } from "next/server";'], parts, ['export async function POST(request: NextRequest) {', ...jsBody(parts, this), '}']);
  },
};

const nextPages: Framework = {
  id: 'next-pages',
  language: 'typescript',
  member: false,
  sources: [src('String(req.query.owner)'), src('String(req.body.comment)'), src('req.cookies.preference ?? ""'), src('String(req.headers["x-account"])')],
  refuse: ['return res.status(400).send("unknown value");'],
  end: ['res.status(200).json({ ok: true });'],
  wrap(_name, _route, parts) {
    return jsFile(['import type { NextApiRequest, NextApiResponse } from "next";'], parts, [
      'export default async function handler(req: NextApiRequest, res: NextApiResponse) {',
      ...jsBody(parts, this),
      '}',
    ]);
  },
};

// ---------------------------------------------------------------- PHP

const plainPhp: Framework = {
  id: 'plain',
  language: 'php',
  member: false,
  sources: [
    src("$_GET['owner'] ?? ''"),
    src("$_POST['comment']"),
    src("$_COOKIE['preference'] ?? ''"),
    src("$_SERVER['HTTP_X_ACCOUNT'] ?? ''"),
    src("$_REQUEST['q']"),
    src("$_SERVER['QUERY_STRING']"),
    src("(string) filter_input(INPUT_GET, 'owner')"),
  ],
  refuse: ['http_response_code(400);', 'exit;'],
  end: [],
  wrap(_name, _route, parts) {
    return ['<?php', '', 'declare(strict_types=1);', '', ...section(uniq(parts.fields)), ...parts.helpers.flatMap((h) => [h, '']), 'session_start();', '', ...parts.body, ''].join('\n');
  },
};

function phpClassFile(namespace: string, headerImports: string[], parts: Parts, className: string, ctor: string[], method: string[]): string {
  const classLevel = parts.fields.filter((f) => f.startsWith('const ') || f.startsWith('private '));
  const helpers = parts.helpers.filter((h) => !h.startsWith('final class'));
  const classes = parts.helpers.filter((h) => h.startsWith('final class'));
  return [
    '<?php',
    '',
    'declare(strict_types=1);',
    '',
    `namespace ${namespace};`,
    '',
    ...section(sortedImports([...headerImports, ...parts.imports])),
    ...classes.flatMap((c) => [c, '']),
    `final class ${className}`,
    '{',
    ...indentAll('    ', uniq(classLevel)),
    ...(classLevel.length > 0 ? [''] : []),
    ...indentAll('    ', ctor),
    ...indentAll('    ', method),
    ...helpers.flatMap((h) => ['', ...indentAll('    ', h.split('\n'))]),
    '}',
    '',
  ].join('\n');
}

const phpBody = (parts: Parts, fw: Framework): string[] => indentAll('    ', [...parts.body, ...(parts.returns ? [] : fw.end)]);

const symfony: Framework = {
  id: 'symfony',
  language: 'php',
  member: true,
  sources: [src("$request->query->get('owner', '')"), src("$request->request->get('comment', '')"), src("$request->cookies->get('preference', '')"), src("$request->headers->get('X-Account', '')")],
  refuse: ["return new Response('unknown value', 400);"],
  end: ["return new Response('ok');"],
  wrap(name, route, parts) {
    const usesConnection = parts.body.some((l) => l.includes('$this->connection'));
    return phpClassFile(
      'App\\Controller',
      ['use Symfony\\Component\\HttpFoundation\\Request;', 'use Symfony\\Component\\HttpFoundation\\Response;', 'use Symfony\\Component\\Routing\\Annotation\\Route;'],
      parts,
      `${pascal(name)}Controller`,
      usesConnection ? ['public function __construct(private Connection $connection)', '{', '}', ''] : [],
      [`#[Route('/${route}', methods: ['GET', 'POST'])]`, `public function ${camel(name)}(Request $request): Response`, '{', ...phpBody(parts, this), '}'],
    );
  },
};

const laravel: Framework = {
  id: 'laravel',
  language: 'php',
  member: true,
  sources: [src("$request->input('owner', '')"), src("$request->query('owner', '')"), src("$request->cookie('preference', '')"), src("$request->header('X-Account', '')"), src("request('q', '')")],
  refuse: ['abort(400);'],
  end: ["return response('ok');"],
  wrap(name, _route, parts) {
    return phpClassFile(
      'App\\Http\\Controllers',
      ['use Illuminate\\Http\\Request;'],
      parts,
      `${pascal(name)}Controller extends Controller`,
      [],
      [`public function ${camel(name)}(Request $request)`, '{', ...phpBody(parts, this), '}'],
    );
  },
};

export const FRAMEWORKS: Record<Language, Framework[]> = {
  python: [flask, django, fastapi],
  java: [servlet, spring],
  javascript: [express(false), koa],
  typescript: [express(true), nextApp, nextPages],
  php: [plainPhp, symfony, laravel],
};
