/** The Java front end: the parts of the flow IR the engine relies on, and no throw on token soup. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lowerText } from '../../src/flow/index.js';
import type { FlowFile, FlowStmt } from '../../src/flow/ir.js';

async function lower(source: string): Promise<FlowFile> {
  const lowered = await lowerText('A.java', 'java', source, Date.now() + 10_000);
  if (lowered === null || !lowered.ok) throw new Error('not lowered');
  return lowered.file;
}

function body(file: FlowFile, name: string): FlowStmt[] {
  const fn = file.functions.find((f) => f.qualifiedName === name);
  if (fn === undefined) throw new Error(`no ${name} in ${file.functions.map((f) => f.qualifiedName).join(', ')}`);
  return fn.body;
}

describe('the Java front end', () => {
  it('lowers methods, constructors, lambdas and nested classes, with annotated, typed parameters', async () => {
    const file = await lower(`
import java.util.List;
@RestController class A {
  private static final String Q = "select";
  A(String s) { this.s = s; }
  @GetMapping("/x") String get(@RequestParam("id") String id, HttpServletRequest request) { Runnable r = () -> run(id); return id; }
  class Inner { int n() { return 1; } }
}`);
    expect(file.functions.map((f) => f.qualifiedName)).toEqual(['<module>', 'A.<init>', 'A.get', '<lambda@L6:105>', 'A.Inner.n']);
    const get = file.functions.find((f) => f.qualifiedName === 'A.get');
    expect(get?.parameters.map((p) => [p.name, p.type, p.annotations])).toEqual([['id', 'String', ['RequestParam("id")']], ['request', 'HttpServletRequest', []]]);
    expect(get?.decorators).toEqual(['GetMapping("/x")']);
    expect(file.imports).toEqual({ List: 'java.util.List' });
    expect(file.classes.find((c) => c.name === 'A')?.fields).toMatchObject([{ name: 'Q', isStatic: true, init: { kind: 'literal', value: 'select' } }]);
  });

  it('gives declarations their type, for-each its element type, and switch arms their fall-through', async () => {
    const file = await lower(`class A { void f(Cookie[] cs) {
  java.util.List<String> l = new java.util.ArrayList<>();
  for (Cookie c : cs) { l.add(c.getValue()); }
  switch (k) { case 'A': x = 1; case 'B': x = 2; break; default: x = 3; }
} }`);
    const stmts = body(file, 'A.f');
    expect(stmts.slice(0, 2)).toMatchObject([{ kind: 'declare', name: 'l', type: 'java.util.List<String>' }, { kind: 'assign', value: { kind: 'call', isNew: true, constructed: 'java.util.ArrayList' } }]);
    expect(stmts[2]).toMatchObject({ kind: 'declare', name: 'c', type: 'Cookie' });
    expect(stmts[3]).toMatchObject({ kind: 'loop', target: { kind: 'name', name: 'c' }, iterable: { kind: 'name', name: 'cs' } });
    const sw = stmts[4];
    expect(sw?.kind === 'switch' ? sw.cases.map((c) => [c.values.map((v) => (v.kind === 'literal' ? v.value : '?')), c.fallsThrough]) : null).toEqual([[['A'], true], [['B'], false], [[], true]]);
  });

  it('decodes literals: escapes, text blocks, numbers in every base, chars', async () => {
    const file = await lower('class A { void f() { a = "x\\ty\\u0041"; b = 0x1F + 0b11 + 017 + 1_000L; c = \'B\'; d = """\n  hi\n  """; } }');
    const values = body(file, 'A.f').map((s) => (s.kind === 'assign' ? s.value : null));
    expect(values[0]).toMatchObject({ kind: 'literal', value: 'x\tyA' });
    expect(values[2]).toMatchObject({ kind: 'literal', value: 'B' });
    expect(values[3]).toMatchObject({ kind: 'literal', value: '  hi\n  ' });
    const b = values[1];
    const leaves: number[] = [];
    const walk = (e: unknown): void => {
      const node = e as { kind?: string; value?: unknown; left?: unknown; right?: unknown };
      if (node.kind === 'literal' && typeof node.value === 'number') leaves.push(node.value);
      if (node.kind === 'binary') {
        walk(node.left);
        walk(node.right);
      }
    };
    walk(b);
    expect(leaves).toEqual([31, 3, 15, 1000]);
  });

  it('never throws on token soup and names deep nesting it cut', async () => {
    const tokens = ['class', 'A', '{', '}', '(', ')', 'void', 'f', ';', '=', '"s"', 'new', 'x', '.', '+', 'if', 'else', 'for', ':', 'switch', 'case', '->', 'try', 'catch', 'return', '@A', ',', '[', ']', 'lambda', '<', '>'];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...tokens), { maxLength: 60 }), async (soup) => {
        const file = await lower(`class Z { void g() { ${soup.join(' ')} } }`);
        expect(file.functions.length).toBeGreaterThan(0);
      }),
      { numRuns: 150 },
    );
    const deep = await lower(`class D { void f() { x = ${'('.repeat(2000)}1${')'.repeat(2000)}; } }`);
    expect(deep.degradations).toEqual(['nesting deeper than 400 at line 1']);
  });
});
