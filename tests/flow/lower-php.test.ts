/** The PHP front end: each construct a flow can pass through, lowered to the IR. */
import { describe, expect, it } from 'vitest';
import type { FlowStmt } from '../../src/flow/ir.js';
import { call, first, fn, lower, show } from './lower-helpers.js';

const body = async (source: string, name = 'f'): Promise<FlowStmt[]> => fn(await lower('php', `<?php\n${source}`), name).body;

describe('PHP assignments', () => {
  it('reads superglobals as names with their $ and subscripts as index', async () => {
    const [stmt] = await body("function f() { $id = $_GET['id'] ?? 'x'; }");
    expect(stmt?.kind === 'assign' && show(stmt.value)).toBe('(name:$_GET[lit:"id"] ?? lit:"x")');
    expect(stmt).toMatchObject({ targets: [{ kind: 'name', name: '$id' }] });
  });

  it('keeps .= and chained assignments', async () => {
    const stmts = await body("function f($x) { $q .= 'a' . $x; $a = $b = $x; }");
    expect(stmts[0]).toMatchObject({ kind: 'assign', operator: '.=', value: { kind: 'binary', operator: '.' } });
    expect(stmts[1]).toMatchObject({ targets: [{ name: '$a' }, { name: '$b' }], value: { name: '$x' } });
  });

  it('destructures list() and short arrays, with keys', async () => {
    const stmts = await body("function f($arr) { list($a, $b) = $arr; [$c, 'k' => $d] = $arr; }");
    expect(stmts[0]).toMatchObject({ targets: [{ kind: 'destructure', keys: null, elements: [{ name: '$a' }, { name: '$b' }] }] });
    expect(stmts[1]).toMatchObject({ targets: [{ kind: 'destructure', keys: [null, 'k'], elements: [{ name: '$c' }, { name: '$d' }] }] });
  });

  it('writes properties and static properties, and lowers an append as a call on the array', async () => {
    const stmts = await body('function f($x) { $this->q = $x; $o::$s = $x; $list[] = $x; $data[\'k\'][] = $x; }');
    expect(stmts.slice(0, 2).map((s) => s.kind === 'assign' && s.targets[0]?.kind)).toEqual(['field', 'field']);
    expect(stmts[2]).toMatchObject({ kind: 'expr', expr: { kind: 'call', callee: '__append', calleeText: '$list[]', receiver: { kind: 'name', name: '$list' }, arguments: [{ value: { name: '$x' } }] } });
    expect(stmts[3]?.kind === 'expr' && stmts[3].expr.kind === 'call' && show(stmts[3].expr.receiver ?? stmts[3].expr)).toBe('name:$data[lit:"k"]');
  });

  it('stores promoted constructor parameters in their fields before the body', async () => {
    const file = await lower('php', '<?php\nclass Lookup { public function __construct(private string $value, int $plain) { $this->n = 1; } }');
    expect(file.classes[0]?.fields).toMatchObject([{ name: 'value', type: 'string', isStatic: false }]);
    const ctor = fn(file, 'Lookup.__construct').body;
    expect(ctor[0]).toMatchObject({ kind: 'assign', targets: [{ kind: 'field', object: { name: '$this' }, field: 'value' }], value: { name: '$value' } });
    expect(ctor).toHaveLength(2);
  });
});

describe('PHP calls and strings', () => {
  it('lowers function, method, static and constructor calls with their callee text', async () => {
    const stmts = await body('function f($db, $q) { mysqli_query($db, $q); $db->query($q); DB::select($q); \\Foo\\run($q); new \\PDO($dsn); }');
    expect(call(stmts, 'mysqli_query')).toMatchObject({ receiver: null, calleeText: 'mysqli_query' });
    expect(call(stmts, 'query')).toMatchObject({ calleeText: '$db->query', receiver: { kind: 'name', name: '$db' } });
    expect(call(stmts, 'select')).toMatchObject({ calleeText: 'DB::select', receiver: { kind: 'name', name: 'DB' } });
    expect(call(stmts, 'run')).toMatchObject({ receiver: null });
    expect(call(stmts, 'PDO')).toMatchObject({ isNew: true, constructed: 'PDO' });
  });

  it('keeps named arguments and spreads apart from positional ones', async () => {
    const stmts = await body('function f($x, $rest) { g($x, ...$rest, flags: ENT_QUOTES); }');
    const g = call(stmts, 'g');
    expect(g.arguments.map((a) => [show(a.value), a.spread])).toEqual([['name:$x', false], ['name:$rest', true]]);
    expect(g.named.map((n) => [n.name, show(n.value)])).toEqual([['flags', 'name:ENT_QUOTES']]);
  });

  it('lowers interpolated strings and heredocs to templates, single-quoted strings to literals', async () => {
    const stmts = await body('function f($id, $o) { $a = "SELECT $id {$o->p}"; $b = \'raw $id\'; $c = <<<EOT\nx $id\nEOT;\n}');
    const values = stmts.map((s) => (s.kind === 'assign' ? show(s.value) : ''));
    expect(values).toEqual(['tpl[lit:"SELECT ", name:$id, lit:" ", name:$o.p]', 'lit:"raw $id"', 'tpl[lit:"x ", name:$id]']);
  });

  it('reads backticks as shell_exec and include as a call', async () => {
    const stmts = await body('function f($p) { $out = `ls $p`; include $p; }');
    expect(show(call(stmts, 'shell_exec'))).toBe('shell_exec(tpl[lit:"ls ", name:$p])');
    expect(show(call(stmts, 'include'))).toBe('include(name:$p)');
  });

  it('lowers echo and print as calls, and casts with their type', async () => {
    const stmts = await body('function f($a) { echo $a, "x"; print($a); $n = (int) $a; }');
    expect(show(call(stmts, 'echo'))).toBe('echo(name:$a, lit:"x")');
    expect(show(call(stmts, 'print'))).toBe('print(name:$a)');
    expect(show(first(stmts, 'cast'))).toBe('(int)name:$a');
  });

  it('keeps keys of array literals, numbering the positional ones', async () => {
    const stmts = await body("function f($x) { $a = ['k' => $x, 2 => 'y']; $b = [$x, 'k' => 1]; $c = [$x, ...$y]; }");
    expect(stmts.map((s) => (s.kind === 'assign' ? show(s.value) : ''))).toEqual(['map{lit:"k": name:$x, lit:2: lit:"y"}', 'map{lit:0: name:$x, lit:"k": lit:1}', 'list{name:$x, ...name:$y}']);
  });

  it('reads the short ternary and match', async () => {
    const stmts = await body("function f($a, $b) { $u = $a ?: $b; $v = match($a) { 1, 2 => 'low', default => $b }; }");
    expect(show(first(stmts, 'conditional'))).toBe('(name:$a ? name:$a : name:$b)');
    const matched = stmts[1];
    expect(matched?.kind === 'assign' && show(matched.value)).toBe('(((name:$a === lit:1) || (name:$a === lit:2)) ? lit:"low" : name:$b)');
  });
});

describe('PHP control flow', () => {
  it('nests elseif and else', async () => {
    const [stmt] = await body('function f($a, $c) { if ($a) { x(); } elseif ($c) y(); else { z(); } }');
    expect(stmt).toMatchObject({ kind: 'if', then: [{ kind: 'expr' }], otherwise: [{ kind: 'if', condition: { name: '$c' }, otherwise: [{ kind: 'expr' }] }] });
  });

  it('binds foreach values, and keys from the array keys', async () => {
    const stmts = await body('function f($arr) { foreach ($arr as $k => $v) { use($v); } foreach ($arr as $w): endforeach; }');
    expect(stmts[0]).toMatchObject({ kind: 'loop', target: { name: '$v' }, iterable: { name: '$arr' }, init: [{ targets: [{ name: '$k' }] }] });
    expect(stmts[1]).toMatchObject({ kind: 'loop', target: { name: '$w' } });
  });

  it('gives for loops their parts and switch arms their fall-through', async () => {
    const stmts = await body("function f($a) { for ($i = 0; $i < 3; $i++) {} switch ($a) { case 'x': g(); break; case 'y': h(); default: k(); } }");
    expect(stmts[0]).toMatchObject({ kind: 'loop', init: [{ kind: 'assign' }], condition: { kind: 'binary', operator: '<' }, update: [{ kind: 'expr' }] });
    expect(stmts[1]?.kind === 'switch' && stmts[1].cases.map((c) => [c.values.map(show), c.fallsThrough])).toEqual([
      [['lit:"x"'], false],
      [['lit:"y"'], true],
      [[], true],
    ]);
  });

  it('keeps catch types and names, and ends the function at exit/die', async () => {
    const stmts = await body("function f($x) { try { g(); } catch (A | B $e) { h(); } finally { k(); } if (!in_array($x, $ok)) { die('no'); } }");
    expect(stmts[0]).toMatchObject({ kind: 'try', handlers: [{ parameter: '$e', types: ['A', 'B'] }], finally: [{ kind: 'expr' }] });
    expect(stmts[1]).toMatchObject({ kind: 'if', then: [{ kind: 'expr', expr: { callee: 'die' } }, { kind: 'return', value: null }] });
    expect((await body('function f() { exit; }')).map((s) => s.kind)).toEqual(['expr', 'return']);
  });

  it('lowers throw as a statement', async () => {
    const [stmt] = await body("function f() { throw new \\RuntimeException('x'); }");
    expect(stmt).toMatchObject({ kind: 'throw', value: { kind: 'call', constructed: 'RuntimeException' } });
  });
});

describe('PHP functions, classes and imports', () => {
  it('lowers closures and arrow functions as their own functions', async () => {
    const file = await lower('php', '<?php\nfunction f($id) { $fn = function ($p) use ($id) { return $p . $id; }; $ar = fn($p) => $p . $id; }');
    expect(fn(file, 'f').body.map((s) => (s.kind === 'assign' ? show(s.value) : ''))).toEqual(['fn:f.$fn', 'fn:f.$ar']);
    expect(fn(file, 'f.$ar')).toMatchObject({ enclosingFunction: 'f', body: [{ kind: 'return', value: { kind: 'binary', operator: '.' } }] });
  });

  it('gives parameters their types, defaults and attributes', async () => {
    const file = await lower('php', '<?php\nfunction f(Request $request, int $x = 3, #[Sensitive] ...$rest) {}');
    expect(fn(file, 'f').parameters.map((p) => [p.name, p.type, show(p.defaultValue)])).toEqual([
      ['$request', 'Request', 'null'],
      ['$x', 'int', 'lit:3'],
      ['$rest', null, 'null'],
    ]);
  });

  it('gives class properties as fields without their $, and methods their class', async () => {
    const file = await lower('php', "<?php\nclass C extends B implements I { const DEBUG = false; private $p = 'x'; public static string $s; public function m() { return $this->p; } }");
    expect(file.classes[0]).toMatchObject({ name: 'C', superclass: 'B', interfaces: ['I'], methods: ['C.m'] });
    expect(file.classes[0]?.fields.map((f) => [f.name, f.isStatic, show(f.init)])).toEqual([['DEBUG', true, 'lit:false'], ['p', false, 'lit:"x"'], ['s', true, 'null']]);
    expect(show(first(fn(file, 'C.m').body, 'return').value)).toBe('name:$this.p');
  });

  it('maps use declarations, aliases and groups to their namespaces', async () => {
    const file = await lower('php', '<?php\nuse Foo\\Bar as Baz, Symfony\\Component\\HttpFoundation\\Request;\nuse App\\{Models\\User, Db};\n');
    expect(file.imports).toMatchObject({ Baz: 'Foo\\Bar', Request: 'Symfony\\Component\\HttpFoundation\\Request', User: 'App\\Models\\User', Db: 'App\\Db' });
  });

  it('runs top-level code and namespaced code in <module>', async () => {
    const file = await lower('php', "<?php\nnamespace App;\n$q = $_POST['q'];\nsystem($q);\n?>\n<p>html</p>\n");
    expect(fn(file, '<module>').body.map((s) => s.kind)).toEqual(['assign', 'expr']);
  });
});
