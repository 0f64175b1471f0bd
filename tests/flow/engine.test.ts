/**
 * The data-flow engine on Java servlets shaped like the ones public SAST benchmarks use: each case
 * names the lines it must report (and only those), so the safe twin of every shape is checked too.
 */
import { describe, expect, it } from 'vitest';
import { analyseFile, lowerText, type FileAnalysis, type FlowBudget } from '../../src/flow/index.js';
import type { FlowRows } from '../../src/flow/rows.js';
import { loadBuiltinFlowRows, loadFlowRowSources } from '../../src/rules/flow-load.js';

const HEAD = `package t;
import javax.servlet.http.*;
public class Case extends HttpServlet {
  public void doPost(HttpServletRequest request, HttpServletResponse response) throws Exception {
    java.sql.Statement statement = connection.createStatement();
    String param = request.getParameter("q");
`;
const TAIL = `
  }
}
`;
/** Line 7 is the first body line. */
const FIRST = 7;

async function analyse(source: string, options: { budget?: FlowBudget; property?: (key: string) => string | null } = {}): Promise<FileAnalysis> {
  const lowered = await lowerText('Case.java', 'java', source, Date.now() + 10_000);
  if (lowered === null || !lowered.ok) throw new Error('did not lower');
  const rows = loadBuiltinFlowRows().byLanguage.get('java');
  if (rows === undefined) throw new Error('no java rows');
  return analyseFile(lowered.file, { rows, ...options });
}

/** One weak-value row `t-cookie-secure`: a cookie call whose Secure setting, in `slot`, is false or left out. */
function cookieCheckRows(language: 'python' | 'javascript', names: string, slot: string): FlowRows {
  const text = `languages = ["${language}"]\n[[check]]\nid = "t-cookie-secure"\nkind = "weak-value"\ncwe = "CWE-614"\ntitle = "t"\nmessage = "m"\nseverity = "low"\nconfidence = 0.5\ncall = { names = ${names} }\nslot = ${slot}\nweak = '^false$'\nabsent_is_weak = true\n`;
  const rows = loadFlowRowSources([{ file: 'rules/flow/test.toml', text }]).byLanguage.get(language);
  if (rows === undefined) throw new Error('no rows');
  return rows;
}

/** Lines (relative to the body: 0 is its first line) of SQL findings in a doPost body. */
async function sqlLines(body: string[], extra = ''): Promise<number[]> {
  const result = await analyse(`${HEAD}${body.join('\n')}\n  }\n${extra}\n}\n`);
  return result.findings.filter((f) => f.cwe === 'CWE-89').map((f) => f.line - FIRST);
}

describe('constants', () => {
  it('prunes the arm a folded condition never takes, and keeps the one it takes', async () => {
    const shape = (op: string) => ['int num = 106;', 'String bar;', `if ((7 * 42) - num ${op} 200) bar = "fixed"; else bar = param;`, 'statement.execute("select " + bar);'];
    expect(await sqlLines(shape('>'))).toEqual([3]); // 188 > 200 is false: bar is param
    expect(await sqlLines(shape('<'))).toEqual([]);
  });

  it('takes one arm of a ternary and of a switch on a constant char', async () => {
    expect(await sqlLines(['int n = 86;', 'String bar = (7 * 18) + n > 200 ? "fixed" : param;', 'statement.execute("select " + bar);'])).toEqual([]);
    const onChar = (index: number) => [
      'String guess = "ABC";',
      `char target = guess.charAt(${index});`,
      'String bar;',
      "switch (target) { case 'A': bar = param; break; case 'B': bar = \"bob\"; break; default: bar = \"x\"; }",
      'statement.execute("select " + bar);',
    ];
    expect(await sqlLines(onChar(1))).toEqual([]);
    expect(await sqlLines(onChar(0))).toEqual([4]);
  });

  it('reads a weak algorithm name from a properties value with a literal key', async () => {
    const source = `${HEAD}java.util.Properties props = new java.util.Properties();\nString alg = props.getProperty("hashAlg1", "SHA-256");\njava.security.MessageDigest.getInstance(alg);${TAIL}`;
    const weak = await analyse(source, { property: (key) => (key === 'hashAlg1' ? 'MD5' : null) });
    expect(weak.findings.map((f) => [f.rowId, f.line])).toEqual([['java-weak-hash', FIRST + 2]]);
    const strong = await analyse(source, { property: () => null });
    expect(strong.findings).toEqual([]);
  });
});

describe('collections and access paths', () => {
  it('follows list slots through add, remove and get with constant indexes', async () => {
    const list = (index: number) => ['java.util.List<String> values = new java.util.ArrayList<String>();', 'values.add("safe");', 'values.add(param);', 'values.add("moresafe");', 'values.remove(0);', `String bar = values.get(${index});`, 'statement.execute("select " + bar);'];
    expect(await sqlLines(list(1))).toEqual([]);
    expect(await sqlLines(list(0))).toEqual([6]);
  });

  it('follows map entries by constant key, and an array element overwritten by a constant', async () => {
    const map = (key: string) => ['java.util.HashMap<String, Object> map = new java.util.HashMap<String, Object>();', 'map.put("keyA", "a_Value");', 'map.put("keyB", param);', `String bar = (String) map.get("${key}");`, 'statement.execute("select " + bar);'];
    expect(await sqlLines(map('keyA'))).toEqual([]);
    expect(await sqlLines(map('keyB'))).toEqual([4]);
    expect(await sqlLines(['String[] parts = { param, "b" };', 'parts[0] = "fixed";', 'statement.execute("select " + parts[0]);'])).toEqual([]);
  });

  it('carries taint through StringBuilder appends and String.format', async () => {
    expect(await sqlLines(['StringBuilder sb = new StringBuilder("select ");', 'sb.append("x = ").append(param);', 'statement.execute(sb.toString());'])).toEqual([2]);
    expect(await sqlLines(['String sql = String.format("select %s", param);', 'statement.execute(sql);'])).toEqual([1]);
  });
});

describe('sanitisers and checks', () => {
  it('clears a value for its sink kind only, and after numeric conversion for all', async () => {
    expect(await sqlLines(['String bar = org.owasp.esapi.ESAPI.encoder().encodeForHTML(param);', 'statement.execute("select " + bar);'])).toEqual([1]);
    expect(await sqlLines(['int id = Integer.parseInt(param);', 'statement.execute("select " + id);'])).toEqual([]);
  });

  it('trusts an allow-list check that dominates the sink, and not one that does not', async () => {
    const guarded = ['if (!ALLOWED.contains(param)) return;', 'statement.execute("select " + param);'];
    expect(await sqlLines(guarded)).toEqual([]);
    expect(await sqlLines(['if (!ALLOWED.contains(param)) { log(param); }', 'statement.execute("select " + param);'])).toEqual([1]);
    expect(await sqlLines(['if (param.matches("[a-z0-9]+")) { statement.execute("select " + param); }'])).toEqual([]);
  });

  it('counts a prefix check on a path only after normalisation', async () => {
    const check = (value: string) => [`java.nio.file.Path p = ${value};`, 'if (!p.startsWith("/srv/files")) return;', 'new java.io.FileInputStream(p.toFile());'];
    const pathLines = async (body: string[]) => (await analyse(`${HEAD}${body.join('\n')}${TAIL}`)).findings.filter((f) => f.cwe === 'CWE-22' && f.line === FIRST + 2).length;
    expect(await pathLines(check('java.nio.file.Paths.get("/srv/files", param).normalize()'))).toBe(0);
    expect(await pathLines(check('somePath(param)'))).toBe(1);
  });
});

describe('same-file helpers and data classes', () => {
  it('uses summaries: a helper that passes a parameter through, and one that returns a constant', async () => {
    const helpers = `
  private static String pass(String v) { return v.trim(); }
  private static String fixed(String v) { return "fixed"; }`;
    expect(await sqlLines(['statement.execute("select " + pass(param));'], helpers)).toEqual([0]);
    expect(await sqlLines(['statement.execute("select " + fixed(param));'], helpers)).toEqual([]);
  });

  it('reports a sink inside a helper with the path through the call, and honours a helper check', async () => {
    const source = `${HEAD}run(statement, param);${TAIL.replace(/}\n$/, '')}
  private void run(java.sql.Statement st, String v) throws Exception {
    st.execute("select " + v);
  }
  private static boolean isAllowed(String v) { return ALLOWED.contains(v); }
}
`;
    const result = await analyse(source);
    const finding = result.findings.find((f) => f.rowId === 'java-sql-query');
    expect(finding?.line).toBe(FIRST + 4);
    expect(finding?.callSites).toEqual([FIRST]);
    expect(finding?.path.map((s) => s.role)).toEqual(['source', 'step', 'step', 'sink']);
    expect(await sqlLines(['if (isAllowed(param)) { statement.execute("select " + param); }'], '  private static boolean isAllowed(String v) { return ALLOWED.contains(v); }')).toEqual([]);
  });

  it('follows a value through a small data class constructor and getter', async () => {
    const holder = (getter: string) => `${HEAD}Holder h = new Holder(param, "x");\nstatement.execute("select " + h.${getter}());${TAIL}
class Holder {
  private final String a; private final String b;
  Holder(String a, String b) { this.a = a; this.b = b; }
  String getA() { return this.a; }
  String getB() { return b; }
}
`;
    expect((await analyse(holder('getA'))).findings.map((f) => f.line)).toEqual([FIRST + 1]);
    expect((await analyse(holder('getB'))).findings).toEqual([]);
  });
});

describe('budgets', () => {
  it('names a function that ran out of steps instead of passing it off as analysed', async () => {
    const result = await analyse(`${HEAD}${Array.from({ length: 50 }, (_, i) => `String v${i} = param + "${i}";`).join('\n')}${TAIL}`, { budget: { steps: 100 } });
    expect(result.limits).toEqual([expect.stringMatching(/^Case\.doPost at line 4 \(more than 100 steps\)$/)]);
    expect(result.analysed).not.toContain('Case.doPost');
  });

  it('counts the variables every branch copies, not only the statements, so a budget bounds the work', async () => {
    const body = (variables: number, branches: number) =>
      `${HEAD}${Array.from({ length: variables }, (_, i) => `String v${i} = "${i}";`).join('\n')}\n${Array.from({ length: branches }, () => 'if (param != null) { param = "a"; }').join('\n')}${TAIL}`;
    const budget = { steps: 2_500 };
    // Each alone fits: 400 variables, or 40 branches over a few.
    expect((await analyse(body(400, 0), { budget })).analysed).toContain('Case.doPost');
    expect((await analyse(body(10, 40), { budget })).analysed).toContain('Case.doPost');
    // Together, each branch copies and merges the 400 variables: past the budget, and named.
    const both = await analyse(body(400, 40), { budget });
    expect(both.analysed).not.toContain('Case.doPost');
    expect(both.limits).toEqual([expect.stringMatching(/^Case\.doPost at line 4 \(more than 2500 steps\)$/)]);
  });
});

describe('rows over hand-built IR (language-neutral)', () => {
  const at = { line: 1, column: 0 };
  const name = (n: string, line: number) => ({ kind: 'name' as const, name: n, line, column: 0 });
  const setCookie = (line: number, named: Array<{ name: string; value: boolean }>) => ({
    kind: 'expr' as const,
    line,
    column: 0,
    expr: {
      kind: 'call' as const,
      callee: 'set_cookie',
      receiver: name('resp', line),
      calleeText: 'resp.set_cookie',
      arguments: [{ value: { kind: 'literal' as const, value: 'sid', text: '"sid"', line, column: 0 }, spread: false }],
      named: named.map((n) => ({ name: n.name, value: { kind: 'literal' as const, value: n.value, text: String(n.value), line, column: 0 } })),
      isNew: false,
      constructed: null,
      line,
      column: 0,
    },
  });

  it('reports a keyword argument left out or set weak, and not one set safe', async () => {
    const rows = cookieCheckRows('python', '["set_cookie"]', '"named:secure"');
    const file = {
      path: 'app.py',
      language: 'python' as const,
      classes: [],
      imports: {},
      degradations: [],
      functions: [
        {
          name: 'view',
          qualifiedName: 'view',
          className: null,
          parameters: [],
          decorators: [],
          modifiers: [],
          returnType: null,
          endLine: 4,
          enclosingFunction: null,
          ...at,
          body: [setCookie(2, []), setCookie(3, [{ name: 'secure', value: false }]), setCookie(4, [{ name: 'secure', value: true }])],
        },
      ],
    };
    expect(analyseFile(file, { rows }).findings.map((f) => [f.rowId, f.line])).toEqual([
      ['t-cookie-secure', 2],
      ['t-cookie-secure', 3],
    ]);
  });
});

describe('settings in options objects', () => {
  it('tells a setting given, left out of an options object written in full, and unknown where the object comes from elsewhere', async () => {
    const rows = cookieCheckRows('javascript', '["cookie"]', '["arg2.secure", "arg3"]');
    const source = [
      'const base = { httpOnly: true };',
      'const off = 7 > 9;',
      'function given(res) { res.cookie("s", "v", { secure: off }); }',
      'function leftOut(res) { res.cookie("s", "v", { ...base }); }',
      'function noOptions(res) { res.cookie("s", "v"); }',
      'function later(res) { const o = { ...base, secure: true }; o.secure = false; res.cookie("s", "v", o); }',
      'function fromCaller(res, options) { res.cookie("s", "v", options); }',
      'function spreadOfUnknown(res, extra) { res.cookie("s", "v", { ...extra }); }',
      'function safe(res, extra) { res.cookie("s", "v", { ...extra, secure: true }); }',
      'function positional(res) { res.cookie("s", "v", 3600, true); }',
    ].join('\n');
    const lowered = await lowerText('app.js', 'javascript', source, Date.now() + 10_000);
    if (lowered === null || !lowered.ok) throw new Error('did not lower');
    expect(analyseFile(lowered.file, { rows }).findings.map((f) => f.line)).toEqual([3, 4, 5, 6]);
  });
});

describe('hostile shapes', () => {
  it('follows a long chain of same-file helpers without exhausting the stack', async () => {
    const helpers = Array.from({ length: 3000 }, (_, i) => `  static String h${i}(String v) { return h${i + 1}(v); }`).join('\n');
    const source = `${HEAD}statement.execute("select " + h0(param));\n  }\n${helpers}\n  static String h3000(String v) { return v; }\n}\n`;
    const result = await analyse(source);
    expect(result.findings.map((f) => f.line)).toEqual([FIRST]);
  }, 60_000);
});

describe('row file checks', () => {
  it('refuses fixed_route on a source that is not a field, naming the row file', () => {
    const text = `languages = ["python"]\n[[source]]\nid = "t-path"\ncall = { names = ["path"] }\nfixed_route = { route = 'route', literal = 'route\\("' }\n`;
    expect(() => loadFlowRowSources([{ file: 'rules/flow/test.toml', text }])).toThrow(/rules\/flow\/test\.toml.*fixed_route belongs to a field source/);
  });
});
