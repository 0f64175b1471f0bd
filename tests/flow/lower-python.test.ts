/** The Python front end: each construct a flow can pass through is lowered to the IR node the engine reads. */
import { describe, expect, it } from 'vitest';
import type { FlowStmt } from '../../src/flow/ir.js';
import { call, first, fn, lower, show } from './lower-helpers.js';

const body = async (source: string, name = 'f'): Promise<FlowStmt[]> => fn(await lower('python', source), name).body;

describe('Python assignments', () => {
  it('gives a chained assignment one statement with every target', async () => {
    const [stmt] = await body('def f(request):\n    a = b = request.args["q"]\n');
    expect(stmt).toMatchObject({ kind: 'assign', operator: '=', targets: [{ kind: 'name', name: 'a' }, { kind: 'name', name: 'b' }], line: 2 });
    expect(stmt?.kind === 'assign' && show(stmt.value)).toBe('name:request.args[lit:"q"]');
  });

  it('keeps the operator of an augmented assignment', async () => {
    const [, stmt] = await body('def f(x):\n    q = "select "\n    q += x\n');
    expect(stmt).toMatchObject({ kind: 'assign', operator: '+=', targets: [{ kind: 'name', name: 'q' }] });
  });

  it('destructures tuples, nested patterns and starred rests by position', async () => {
    const [stmt] = await body('def f(t):\n    a, (b, *c) = t\n');
    expect(stmt).toMatchObject({
      kind: 'assign',
      targets: [{ kind: 'destructure', keys: null, rest: null, elements: [{ kind: 'name', name: 'a' }, { kind: 'destructure', elements: [{ kind: 'name', name: 'b' }], rest: { kind: 'name', name: 'c' } }] }],
    });
  });

  it('writes attributes and subscripts as field and index targets', async () => {
    const stmts = await body('def f(self, d, v):\n    self.name = v\n    d["k"] = v\n');
    expect(stmts[0]).toMatchObject({ targets: [{ kind: 'field', field: 'name', object: { kind: 'name', name: 'self' } }] });
    expect(stmts[1]).toMatchObject({ targets: [{ kind: 'index', index: { kind: 'literal', value: 'k' } }] });
  });

  it('lowers the walrus operator as an assignment expression', async () => {
    const stmts = await body('def f(x):\n    if (n := x.strip()):\n        run(n)\n');
    const walrus = first(stmts, 'assignment');
    expect(walrus.target).toMatchObject({ kind: 'name', name: 'n' });
    expect(show(walrus.value)).toBe('name:x.strip()');
  });

  it('declares an annotated name without a value', async () => {
    expect(await body('def f():\n    s: str\n')).toEqual([expect.objectContaining({ kind: 'declare', name: 's', type: 'str' })]);
  });
});

describe('Python calls and strings', () => {
  it('splits a method call into receiver, callee, positional and keyword arguments', async () => {
    const stmts = await body('def f(cmd):\n    subprocess.run(cmd, *rest, shell=True, **kw)\n');
    const run = call(stmts, 'run');
    expect(run.calleeText).toBe('subprocess.run');
    expect(show(run.receiver)).toBe('name:subprocess');
    expect(run.arguments.map((a) => [show(a.value), a.spread])).toEqual([['name:cmd', false], ['name:rest', true], ['name:kw', true]]);
    expect(run.named).toEqual([{ name: 'shell', value: expect.objectContaining({ kind: 'literal', value: true }) }]);
  });

  it('lowers an f-string to a template of its literal parts and holes', async () => {
    const stmts = await body('def f(name):\n    q = f"select * from t where n = \'{name!r}\' limit {n:>3}"\n');
    expect(show(first(stmts, 'template'))).toBe('tpl[lit:"select * from t where n = \'", name:name, lit:"\' limit ", name:n]');
  });

  it('keeps % formatting a binary and .format a call on the string', async () => {
    const stmts = await body('def f(x):\n    a = "id=%s" % x\n    b = "id={}".format(x)\n');
    expect(show(first(stmts, 'binary'))).toBe('(lit:"id=%s" % name:x)');
    expect(show(call(stmts, 'format'))).toBe('lit:"id={}".format(name:x)');
  });

  it('folds adjacent string literals and reads numbers, booleans and None', async () => {
    const stmts = await body('def f():\n    a = "x" "y"\n    b = (0x1F, 1_000, True, None)\n');
    expect(show(first(stmts, 'literal'))).toBe('lit:"xy"');
    expect(show(first(stmts, 'collection'))).toBe('tuple{lit:31, lit:1000, lit:true, lit:null}');
  });
});

describe('Python collections', () => {
  it('keeps literal keys of a dict and its ** spread', async () => {
    const stmts = await body('def f(x, o):\n    d = {"k": x, 2: "y", **o}\n');
    expect(show(first(stmts, 'collection'))).toBe('map{lit:"k": name:x, lit:2: lit:"y", ...: name:o}');
  });

  it('lowers list and set literals with their spreads', async () => {
    const stmts = await body('def f(x, xs):\n    a = [x, *xs]\n    b = {x}\n');
    expect(show(first(stmts, 'collection', (c) => c.shape === 'list'))).toBe('list{name:x, ...name:xs}');
    expect(show(first(stmts, 'collection', (c) => c.shape === 'set'))).toBe('set{name:x}');
  });

  it('lets a comprehension element carry what its iterable and body carry', async () => {
    const stmts = await body('def f(xs):\n    a = [x.strip() for x in xs if x]\n');
    expect(show(first(stmts, 'collection'))).toBe('list{unknown[name:x.strip(), name:xs]}');
  });
});

describe('Python control flow', () => {
  it('nests elif and else as ifs in the else arm', async () => {
    const [stmt] = await body('def f(a, b):\n    if a:\n        x = 1\n    elif b:\n        x = 2\n    else:\n        x = 3\n');
    expect(stmt).toMatchObject({ kind: 'if', condition: { kind: 'name', name: 'a' }, then: [{ kind: 'assign' }], otherwise: [{ kind: 'if', condition: { kind: 'name', name: 'b' }, otherwise: [{ kind: 'assign' }] }] });
  });

  it('reads `not in` and `is not` as one operator, and chains as `and`', async () => {
    const stmts = await body('def f(x, y):\n    a = x not in ALLOWED\n    b = x is not None\n    c = 0 < x < 9\n');
    const binaries = stmts.map((s) => (s.kind === 'assign' ? show(s.value) : ''));
    expect(binaries).toEqual(['(name:x not in name:ALLOWED)', '(name:x is not lit:null)', '((lit:0 < name:x) and (name:x < lit:9))']);
  });

  it('binds the for-each target from the iterable, and runs the loop else after it', async () => {
    const stmts = await body('def f(d):\n    for k, v in d.items():\n        use(v)\n    else:\n        done()\n');
    expect(stmts[0]).toMatchObject({ kind: 'loop', condition: null, target: { kind: 'destructure', elements: [{ name: 'k' }, { name: 'v' }] } });
    expect(stmts[0]?.kind === 'loop' && show(stmts[0].iterable)).toBe('name:d.items()');
    expect(stmts[1]).toMatchObject({ kind: 'expr', expr: { kind: 'call', callee: 'done' } });
  });

  it('gives a while loop its condition', async () => {
    const [stmt] = await body('def f(x):\n    while x:\n        break\n');
    expect(stmt).toMatchObject({ kind: 'loop', target: null, condition: { kind: 'name', name: 'x' }, body: [{ kind: 'break' }] });
  });

  it('lowers match arms with literal values, unions and the wildcard default', async () => {
    const [stmt] = await body('def f(x):\n    match x:\n        case "a" | "b":\n            y = 1\n        case 3:\n            y = 2\n        case _:\n            y = 3\n');
    expect(stmt?.kind).toBe('switch');
    if (stmt?.kind !== 'switch') return;
    expect(stmt.cases.map((c) => c.values.map(show))).toEqual([['lit:"a"', 'lit:"b"'], ['lit:3'], []]);
    expect(stmt.cases.every((c) => !c.fallsThrough)).toBe(true);
  });

  it('keeps try bodies, handler names and types, and finally', async () => {
    const [stmt] = await body('def f():\n    try:\n        a()\n    except (KeyError, ValueError) as e:\n        b(e)\n    else:\n        c()\n    finally:\n        d()\n');
    expect(stmt).toMatchObject({ kind: 'try', handlers: [{ parameter: 'e', types: ['KeyError', 'ValueError'] }], finally: [{ kind: 'expr' }] });
    expect(stmt?.kind === 'try' && stmt.body.map((s) => (s.kind === 'expr' ? show(s.expr) : ''))).toEqual(['a()', 'c()']);
  });

  it('binds each with resource to its `as` target', async () => {
    const [stmt] = await body('def f(p):\n    with open(p) as fh, lock:\n        fh.read()\n');
    expect(stmt).toMatchObject({ kind: 'with', resources: [{ target: { kind: 'name', name: 'fh' } }, { target: null, value: { kind: 'name', name: 'lock' } }] });
  });

  it('reads assert as a check that stops the function when it fails', async () => {
    const [stmt] = await body('def f(x):\n    assert x in ALLOWED\n');
    expect(stmt).toMatchObject({ kind: 'if', then: [], otherwise: [{ kind: 'throw' }] });
  });

  it('lowers return and raise with their values', async () => {
    const stmts = await body('def f(x):\n    if x:\n        raise ValueError(x)\n    return x\n');
    expect(stmts[0]).toMatchObject({ then: [{ kind: 'throw', value: { kind: 'call', callee: 'ValueError' } }] });
    expect(stmts[1]).toMatchObject({ kind: 'return', value: { kind: 'name', name: 'x' } });
  });
});

describe('Python functions, classes and imports', () => {
  it('lowers a lambda as its own function, referenced where it is written', async () => {
    const file = await lower('python', 'def f(xs):\n    key = lambda q: q.lower()\n    return sorted(xs, key=lambda v: v)\n');
    expect(show(first(fn(file, 'f').body, 'assign').value)).toBe('fn:f.key');
    expect(fn(file, 'f.key')).toMatchObject({ enclosingFunction: 'f', parameters: [{ name: 'q', index: 0 }], body: [{ kind: 'return' }] });
    // The keyword names the second lambda too (as in the syntax IR); its qualified name stays unique.
    const second = file.functions.find((g) => g.qualifiedName.startsWith('f.key@L3:'));
    expect(second?.parameters.map((p) => p.name)).toEqual(['v']);
    expect(show(call(fn(file, 'f').body, 'sorted').named[0]?.value)).toBe(`fn:${second?.qualifiedName ?? ''}`);
  });

  it('binds a nested def to its name so calls to it can be followed', async () => {
    const file = await lower('python', 'def outer(x):\n    def inner(y):\n        return y\n    return inner(x)\n');
    expect(fn(file, 'outer').body[0]).toMatchObject({ kind: 'assign', targets: [{ name: 'inner' }], value: { kind: 'function', qualifiedName: 'outer.inner' } });
    expect(fn(file, 'outer.inner').enclosingFunction).toBe('outer');
  });

  it('keeps route decorators, parameter types, annotations and defaults', async () => {
    const file = await lower('python', '@app.route("/u/<name>")\n@login_required\ndef show_user(name: str, page: int = Query(1), *args, **kw) -> str:\n    return name\n');
    const handler = fn(file, 'show_user');
    expect(handler.decorators).toEqual(['app.route("/u/<name>")', 'login_required']);
    expect(handler.returnType).toBe('str');
    expect(handler.parameters.map((p) => [p.name, p.index, p.type, show(p.defaultValue)])).toEqual([
      ['name', 0, 'str', 'null'],
      ['page', 1, 'int', 'Query(lit:1)'],
      ['args', 2, null, 'null'],
      ['kw', 3, null, 'null'],
    ]);
  });

  it('gives class attributes as fields with their initialisers and lists the methods', async () => {
    const file = await lower('python', 'class Q(Base, Mixin):\n    table = "users"\n    limit: int = 10\n    def run(self, x):\n        return self.table\n');
    expect(file.classes).toEqual([
      expect.objectContaining({ name: 'Q', superclass: 'Base', interfaces: ['Mixin'], methods: ['Q.run'], fields: [expect.objectContaining({ name: 'table', init: expect.objectContaining({ value: 'users' }) }), expect.objectContaining({ name: 'limit', type: 'int' })] }),
    ]);
    expect(fn(file, 'Q.run').className).toBe('Q');
  });

  it('reads a call of a class of the file as a construction, and names its __init__ <init>', async () => {
    const file = await lower('python', 'class Lookup:\n    def __init__(self, v):\n        self.v = v\ndef f(x):\n    a = Lookup(x)\n    b = dict(x)\n');
    expect(fn(file, 'Lookup.__init__').name).toBe('<init>');
    expect(call(fn(file, 'f').body, 'Lookup')).toMatchObject({ isNew: true, constructed: 'Lookup' });
    expect(call(fn(file, 'f').body, 'dict')).toMatchObject({ isNew: false, constructed: null });
  });

  it('maps imported names to their full module path', async () => {
    const file = await lower('python', 'import os.path\nimport subprocess as sp\nfrom flask import request as rq, session\nfrom . import views\n');
    expect(file.imports).toEqual({ os: 'os', sp: 'subprocess', rq: 'flask.request', session: 'flask.session', views: '.views' });
  });

  it('puts top-level code in <module>, with the functions bound by name', async () => {
    const file = await lower('python', 'import os\nq = os.environ["Q"]\ndef f():\n    pass\n');
    expect(file.functions.map((g) => g.qualifiedName)).toEqual(['<module>', 'f']);
    expect(fn(file, '<module>').body.map((s) => s.kind)).toEqual(['assign', 'assign']);
  });

  it('gives redefined functions distinct qualified names', async () => {
    const file = await lower('python', 'if X:\n    def f(): pass\nelse:\n    def f(): pass\n');
    const names = file.functions.map((g) => g.qualifiedName);
    expect(names).toHaveLength(3);
    expect(new Set(names).size).toBe(3);
    expect(names[2]).toMatch(/^f@L4:4$/);
  });
});

describe('Python constructs not lowered', () => {
  it('keeps an unknown expression with its children, so data still flows', async () => {
    const stmts = await body('def f(x):\n    y = (yield x)\n');
    expect(show(first(stmts, 'assign').value)).toBe('unknown[name:x]');
  });

  it('names a depth limit in the degradations instead of overflowing', async () => {
    const deep = `def f(x):\n    y = ${'('.repeat(400)}x${')'.repeat(400)} + ${'['.repeat(300)}x${']'.repeat(300)}\n`;
    const file = await lower('python', deep);
    expect(file.degradations.some((d) => /^depth_limit:\d+ at line 2 in f$/.test(d))).toBe(true);
    expect(first(fn(file, 'f').body, 'assign').targets).toEqual([expect.objectContaining({ name: 'y' })]);
  });
});

describe('Python string literals', () => {
  it('reads the escapes of a plain string as what they stand for, and leaves a raw string as written', async () => {
    const values = async (line: string) => {
      const [stmt] = await body(`def f():\n    s = ${line}\n`);
      return stmt?.kind === 'assign' && stmt.value.kind === 'literal' ? stmt.value.value : null;
    };
    expect(await values("'\\''")).toBe("'");
    expect(await values('"a\\r\\nb\\x41\\u00e9\\d"')).toBe('a\r\nbA\u00e9\\d');
    expect(await values("r'\\n\\d'")).toBe('\\n\\d');
  });
});

describe('Python path joins', () => {
  it('lowers base / name as pathlib\'s join, a call, and keeps a division by a number arithmetic', async () => {
    const [join, half] = await body('def f(base, name, n):\n    p = base / name\n    h = n / 2\n');
    expect(join?.kind === 'assign' && join.value).toMatchObject({ kind: 'call', callee: '__truediv__', receiver: { kind: 'name', name: 'base' } });
    expect(half?.kind === 'assign' && half.value).toMatchObject({ kind: 'binary', operator: '/' });
  });
});
