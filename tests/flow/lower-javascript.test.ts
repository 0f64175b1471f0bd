/** The JavaScript/TypeScript/TSX front end: each construct a flow can pass through, lowered to the IR. */
import { describe, expect, it } from 'vitest';
import type { FlowStmt } from '../../src/flow/ir.js';
import { call, first, fn, lower, show, type LoweredLanguage } from './lower-helpers.js';

const body = async (source: string, name = 'f', language: LoweredLanguage = 'javascript'): Promise<FlowStmt[]> => fn(await lower(language, source), name).body;

describe('JavaScript assignments and declarations', () => {
  it('destructures objects by key, with renames, defaults and rests', async () => {
    const [stmt] = await body("function f(req) { const { id, q: query = 'd', ...rest } = req.query; }");
    expect(stmt).toMatchObject({
      kind: 'assign',
      targets: [{ kind: 'destructure', keys: ['id', 'q'], elements: [{ name: 'id' }, { name: 'query' }], rest: { name: 'rest' } }],
    });
    expect(stmt?.kind === 'assign' && show(stmt.value)).toBe('name:req.query');
  });

  it('keeps array pattern holes in place', async () => {
    const [stmt] = await body('function f(a) { let [x, , y = 2, ...z] = a; }');
    expect(stmt).toMatchObject({ targets: [{ kind: 'destructure', keys: null, elements: [{ name: 'x' }, null, { name: 'y' }], rest: { name: 'z' } }] });
  });

  it('gives chained assignments every target and keeps augmented operators', async () => {
    const stmts = await body('function f(v) { a = b.c = v; s += v; s ??= v; }');
    expect(stmts[0]).toMatchObject({ kind: 'assign', targets: [{ kind: 'name', name: 'a' }, { kind: 'field', field: 'c' }], value: { kind: 'name', name: 'v' } });
    expect(stmts.slice(1).map((s) => s.kind === 'assign' && s.operator)).toEqual(['+=', '??=']);
  });

  it('declares names without initialisers and splits multi-declarator statements', async () => {
    const stmts = await body('function f(v) { let a, b = v; }');
    expect(stmts).toMatchObject([{ kind: 'declare', name: 'a' }, { kind: 'assign', targets: [{ name: 'b' }] }]);
  });

  it('reads x++ as an increment of its target', async () => {
    const [stmt] = await body('function f() { i++; }');
    expect(stmt).toMatchObject({ kind: 'expr', expr: { kind: 'assignment', operator: '+=', target: { name: 'i' } } });
  });
});

describe('JavaScript calls, templates and literals', () => {
  it('splits member calls into receiver and callee, through optional chains', async () => {
    const stmts = await body('function f(req, db) { db?.knex.raw(`select ${req.query.id}`, ...args); }');
    const raw = call(stmts, 'raw');
    expect(raw.calleeText).toBe('db?.knex.raw');
    expect(show(raw.receiver)).toBe('name:db.knex');
    expect(raw.arguments.map((a) => [show(a.value), a.spread])).toEqual([['tpl[lit:"select ", name:req.query.id]', false], ['name:args', true]]);
  });

  it('gives `new` its constructed class and calls a tagged template\'s tag with its text', async () => {
    const stmts = await body('function f(x) { const a = new URL(x, base); const b = sql`select ${x}`; const c = ldap.filter`(uid=${x})`; }');
    expect(show(call(stmts, 'URL'))).toBe('new URL(name:x, name:base)');
    expect(call(stmts, 'URL').constructed).toBe('URL');
    expect(show(call(stmts, 'sql'))).toBe('sql(tpl[lit:"select ", name:x])');
    expect(show(call(stmts, 'filter').receiver)).toBe('name:ldap');
  });

  it('reads a template without holes as one literal', async () => {
    const stmts = await body('function f() { const a = `fixed`; }');
    expect(show(first(stmts, 'assign').value)).toBe('lit:"fixed"');
  });

  it('reads object literals with literal, computed, shorthand and spread keys', async () => {
    const stmts = await body("function f(x, o) { const m = { k: x, 'q': 1, [x]: 2, x, ...o }; }");
    expect(show(first(stmts, 'collection'))).toBe('map{lit:"k": name:x, lit:"q": lit:1, name:x: lit:2, lit:"x": name:x, ...: name:o}');
  });

  it('lowers arrays with spreads and binary, unary and ternary operators', async () => {
    const stmts = await body('function f(a, b) { return [a, ...b, !a, a ? b : a + b, a ?? "x"]; }');
    expect(show(first(stmts, 'collection'))).toBe('list{name:a, ...name:b, !name:a, (name:a ? name:b : (name:a + name:b)), (name:a ?? lit:"x")}');
  });

  it('treats TypeScript `as`, `!` and `<T>` as casts or the value itself', async () => {
    const stmts = await body('function f(a: unknown, b: string | null) { const v = (a as string) + b! + (<any>a); }', 'f', 'typescript');
    expect(show(first(stmts, 'assign').value)).toBe('(((string)name:a + name:b) + (any)name:a)');
  });
});

describe('JavaScript control flow', () => {
  it('lowers if / else if / else', async () => {
    const [stmt] = await body('function f(a, c) { if (a) { x(); } else if (c) y(); else { z(); } }');
    expect(stmt).toMatchObject({ kind: 'if', condition: { name: 'a' }, then: [{ kind: 'expr' }], otherwise: [{ kind: 'if', condition: { name: 'c' }, otherwise: [{ kind: 'expr' }] }] });
  });

  it('binds for-of targets to elements and for-in targets to keys', async () => {
    const stmts = await body('function f(list, obj) { for (const v of list) use(v); for (const k in obj) use(k); }');
    expect(stmts[0]).toMatchObject({ kind: 'loop', target: { name: 'v' }, iterable: { kind: 'name', name: 'list' } });
    expect(stmts[1]?.kind === 'loop' && show(stmts[1].iterable)).toBe('name:Object.keys(name:obj)');
  });

  it('gives a C-style for its init, condition and update', async () => {
    const [stmt] = await body('function f(n) { for (let i = 0; i < n; i++) {} }');
    expect(stmt).toMatchObject({ kind: 'loop', init: [{ kind: 'assign', targets: [{ name: 'i' }] }], condition: { kind: 'binary', operator: '<' }, update: [{ kind: 'expr' }] });
  });

  it('lowers while and do-while loops with their conditions', async () => {
    const stmts = await body('function f(x) { while (x) break; do { x--; } while (x > 0); }');
    expect(stmts.map((s) => s.kind === 'loop' && show(s.condition))).toEqual(['name:x', '(name:x > lit:0)']);
  });

  it('marks switch arms that fall through to the next', async () => {
    const [stmt] = await body("function f(a) { switch (a) { case 'x': case 'y': b(); break; case 'z': return 1; default: c(); } }");
    expect(stmt?.kind === 'switch' && stmt.cases.map((c) => [c.values.map(show), c.fallsThrough])).toEqual([
      [['lit:"x"'], true],
      [['lit:"y"'], false],
      [['lit:"z"'], false],
      [[], true],
    ]);
  });

  it('keeps try/catch/finally with the caught name', async () => {
    const [stmt] = await body('function f() { try { a(); } catch (err) { b(err); } finally { c(); } }');
    expect(stmt).toMatchObject({ kind: 'try', handlers: [{ parameter: 'err', body: [{ kind: 'expr' }] }], finally: [{ kind: 'expr' }] });
  });

  it('lowers throw and labelled loops', async () => {
    const stmts = await body("function f(x) { outer: for (;;) { throw new Error(x); } }");
    expect(stmts[0]).toMatchObject({ kind: 'loop', body: [{ kind: 'throw', value: { kind: 'call', isNew: true, constructed: 'Error' } }] });
  });
});

describe('JavaScript functions, classes and imports', () => {
  it('lowers an Express handler arrow as its own function with its parameters', async () => {
    const file = await lower('typescript', "app.get('/u', async (req: Request, res) => { res.send(req.query.name); });");
    const handler = file.functions.find((g) => g.qualifiedName.startsWith('<lambda@L1:'));
    expect(handler?.parameters.map((p) => [p.name, p.type])).toEqual([['req', 'Request'], ['res', null]]);
    expect(handler?.modifiers).toContain('async');
    expect(show(call(fn(file, '<module>').body, 'get'))).toBe(`name:app.get(lit:"/u", fn:${handler?.qualifiedName ?? ''})`);
    expect(show(call(handler?.body, 'send'))).toBe('name:res.send(name:req.query.name)');
  });

  it('gives an expression-bodied arrow a return of that expression', async () => {
    const file = await lower('javascript', 'const clean = (s) => s.trim();');
    expect(fn(file, 'clean').body).toMatchObject([{ kind: 'return', value: { kind: 'call', callee: 'trim' } }]);
    expect(fn(file, '<module>').body).toMatchObject([{ kind: 'assign', targets: [{ name: 'clean' }], value: { kind: 'function', qualifiedName: 'clean' } }]);
  });

  it('reads parameter defaults and destructured parameters', async () => {
    const file = await lower('typescript', 'function f(p = 1, { a, b: c }: T, ...rest: string[]) {}');
    expect(fn(file, 'f').parameters.map((p) => [p.name, show(p.defaultValue), p.pattern?.kind ?? null])).toEqual([
      ['p', 'lit:1', null],
      ['{ a, b: c }', 'null', 'destructure'],
      ['rest', 'null', null],
    ]);
  });

  it('gives class fields with initialisers and static flags, and methods with decorators', async () => {
    const file = await lower('typescript', "class C extends B { q = 'x'; static s: string = 'y'; @Get(':id') find(@Param('id') id: string) { return this.q + id; } }");
    expect(file.classes[0]).toMatchObject({ name: 'C', superclass: 'B', methods: ['C.find'] });
    const withConstructor = await lower('javascript', 'class L { constructor(v) { this.v = v; } constructorish() {} }');
    expect(withConstructor.functions.map((f) => [f.name, f.qualifiedName])).toEqual([['<module>', '<module>'], ['<init>', 'L.constructor'], ['constructorish', 'L.constructorish']]);
    expect(file.classes[0]?.fields.map((f) => [f.name, f.isStatic, show(f.init)])).toEqual([['q', false, 'lit:"x"'], ['s', true, 'lit:"y"']]);
    const find = fn(file, 'C.find');
    expect(find.decorators).toEqual(["Get(':id')"]);
    expect(find.parameters[0]?.annotations).toEqual(["Param('id')"]);
    expect(show(first(find.body, 'return').value)).toBe('(name:this.q + name:id)');
  });

  it('maps import and require bindings to their modules', async () => {
    const file = await lower('javascript', "import express, { Router as R } from 'express';\nimport * as cp from 'child_process';\nconst { exec } = require('child_process');\nconst fs = require('fs');\n");
    expect(file.imports).toEqual({ express: 'express', R: 'express.Router', cp: 'child_process', exec: 'child_process.exec', fs: 'fs' });
  });

  it('lowers object methods as functions referenced from the object', async () => {
    const file = await lower('javascript', 'const handlers = { run(x) { return x; } };');
    expect(show(first(fn(file, '<module>').body, 'collection'))).toBe('map{lit:"run": fn:run}');
  });

  it('lowers TSX components, keeping JSX expressions as unknown with their children', async () => {
    const file = await lower('tsx', 'export function View({ html }: P) { return <div dangerouslySetInnerHTML={{ __html: html }} />; }');
    const ret = first(fn(file, 'View').body, 'return');
    expect(ret.value?.kind).toBe('unknown');
    expect(show(ret.value)).toContain('name:html');
  });
});
