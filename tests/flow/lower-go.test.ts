/** The Go front end: each construct a flow can pass through, lowered to the IR. */
import { describe, expect, it } from 'vitest';
import type { FlowStmt } from '../../src/flow/ir.js';
import { call, first, fn, lower, show } from './lower-helpers.js';

const body = async (source: string, name = 'f'): Promise<FlowStmt[]> => fn(await lower('go', `package main\n${source}`), name).body;

describe('Go assignments', () => {
  it('destructures a multi-value call and drops the blank identifier', async () => {
    const [stmt] = await body('func f(db *sql.DB, q string) { rows, _ := db.Query(q) }');
    expect(stmt).toMatchObject({ kind: 'assign', targets: [{ kind: 'destructure', elements: [{ name: 'rows' }, null] }], value: { kind: 'call', callee: 'Query' } });
  });

  it('assigns value lists pairwise and keeps += on strings', async () => {
    const stmts = await body('func f(x string) { a, b := x, "y"; a += b }');
    expect(stmts.map((s) => s.kind === 'assign' && [s.targets.map((t) => (t.kind === 'name' ? t.name : t.kind)), s.operator, show(s.value)])).toEqual([
      [['a'], '=', 'name:x'],
      [['b'], '=', 'lit:"y"'],
      [['a'], '+=', 'name:b'],
    ]);
  });

  it('lowers var declarations with and without values', async () => {
    const stmts = await body('func f(id string) { var q string = "SELECT " + id; var n int }');
    expect(stmts[0]).toMatchObject({ kind: 'assign', targets: [{ name: 'q' }], value: { kind: 'binary', operator: '+' } });
    expect(stmts[1]).toMatchObject({ kind: 'declare', name: 'n', type: 'int' });
  });

  it('sees through & and * and reads x++ as an increment', async () => {
    const stmts = await body('func f(x string) { p := &x; z := *p; i++ }');
    expect(stmts.map((s) => s.kind === 'assign' && show(s.value))).toEqual(['name:x', 'name:p', 'lit:1']);
  });
});

describe('Go calls and literals', () => {
  it('splits a request read into its receiver chain', async () => {
    const stmts = await body('func f(w http.ResponseWriter, r *http.Request) { id := r.URL.Query().Get("id") }');
    const get = call(stmts, 'Get');
    expect(get.calleeText).toBe('r.URL.Query().Get');
    expect(show(get.receiver)).toBe('name:r.URL.Query()');
  });

  it('keeps fmt.Sprintf arguments in order, and conversions as casts', async () => {
    const stmts = await body('func f(w http.ResponseWriter, id string) { q := fmt.Sprintf("id=%s", id); w.Write([]byte(q)) }');
    expect(show(call(stmts, 'Sprintf'))).toBe('name:fmt.Sprintf(lit:"id=%s", name:id)');
    expect(show(call(stmts, 'Write'))).toBe('name:w.Write(([]byte)name:q)');
  });

  it('reads map literals by key, struct literals by field name, slices by position', async () => {
    const stmts = await body('func f(id string) { m := map[string]string{"k": id}; c := T{A: id}; l := []string{id, `raw`} }');
    expect(stmts.map((s) => s.kind === 'assign' && show(s.value))).toEqual(['map{lit:"k": name:id}', 'map{lit:"A": name:id}', 'list{name:id, lit:"raw"}']);
  });

  it('keeps variadic arguments as spreads', async () => {
    const stmts = await body('func f(args []string) { exec.Command("ls", args...) }');
    expect(call(stmts, 'Command').arguments.map((a) => a.spread)).toEqual([false, true]);
  });
});

describe('Go control flow', () => {
  it('runs an if initialiser before the if, and nests else-if', async () => {
    const stmts = await body('func f(m map[string]string) { if v, ok := m["k"]; ok { use(v) } else if len(m) > 1 { } else { } }');
    expect(stmts[0]).toMatchObject({ kind: 'assign', targets: [{ kind: 'destructure' }] });
    expect(stmts[1]).toMatchObject({ kind: 'if', condition: { name: 'ok' }, otherwise: [{ kind: 'if', otherwise: [] }] });
  });

  it('binds range values to elements and keys to the keys', async () => {
    const [stmt] = await body('func f(m map[string]string) { for k, v := range m { use(k, v) } }');
    expect(stmt).toMatchObject({ kind: 'loop', target: { name: 'v' }, iterable: { name: 'm' }, init: [{ targets: [{ name: 'k' }] }] });
  });

  it('gives three-clause and condition-only for loops their parts', async () => {
    const stmts = await body('func f(x bool) { for i := 0; i < 3; i++ {}; for x { break } }');
    expect(stmts[0]).toMatchObject({ kind: 'loop', init: [{ kind: 'assign' }], condition: { kind: 'binary' }, update: [{ kind: 'assign', operator: '+=' }] });
    expect(stmts[1]).toMatchObject({ kind: 'loop', condition: { name: 'x' }, body: [{ kind: 'break' }] });
  });

  it('falls through only on an explicit fallthrough', async () => {
    const stmts = await body('func f(id string) { switch t := id; t { case "a", "b": fallthrough; case "c": g(); default: h() } }');
    expect(stmts[0]).toMatchObject({ kind: 'assign', targets: [{ name: 't' }] });
    expect(stmts[1]?.kind === 'switch' && stmts[1].cases.map((c) => [c.values.map(show), c.fallsThrough])).toEqual([
      [['lit:"a"', 'lit:"b"'], true],
      [['lit:"c"'], false],
      [[], false],
    ]);
  });

  it('binds a type switch alias to the subject without making arms prunable', async () => {
    const stmts = await body('func f(v interface{}) { switch y := v.(type) { case string: use(y) } }');
    expect(stmts[0]).toMatchObject({ kind: 'assign', targets: [{ name: 'y' }], value: { name: 'v' } });
    expect(stmts[1]).toMatchObject({ kind: 'switch', subject: { kind: 'unknown' } });
  });

  it('lowers defer and go calls, and sends as writes into the channel', async () => {
    const stmts = await body('func f(ch chan string, id string) { defer rows.Close(); go run(id); ch <- id }');
    expect(stmts.map((s) => s.kind)).toEqual(['expr', 'expr', 'assign']);
    expect(stmts[2]).toMatchObject({ targets: [{ kind: 'index', object: { name: 'ch' } }], value: { name: 'id' } });
  });
});

describe('Go functions, types and imports', () => {
  it('names methods after their receiver type and lowers closures on their own', async () => {
    const file = await lower('go', 'package main\ntype Server struct { db *sql.DB; name string }\nfunc (s *Server) Handle(w http.ResponseWriter, r *http.Request) { f := func(x string) string { return x }; f(r.URL.Path) }');
    const handle = fn(file, 'Server.Handle');
    expect(handle.className).toBe('Server');
    expect(handle.parameters.map((p) => [p.name, p.type])).toEqual([['w', 'http.ResponseWriter'], ['r', '*http.Request']]);
    expect(show(first(handle.body, 'assign').value)).toBe('fn:Server.Handle.f');
    expect(fn(file, 'Server.Handle.f').body).toMatchObject([{ kind: 'return', value: { name: 'x' } }]);
    expect(file.classes[0]).toMatchObject({ name: 'Server', methods: ['Server.Handle'] });
    expect(file.classes[0]?.fields.map((f) => [f.name, f.type])).toEqual([['db', '*sql.DB'], ['name', 'string']]);
  });

  it('maps imports, with aliases, to their package paths', async () => {
    const file = await lower('go', 'package main\nimport (\n  "net/http"\n  sq "database/sql"\n  _ "embed"\n)\n');
    expect(file.imports).toEqual({ http: 'net/http', sq: 'database/sql' });
  });
});
