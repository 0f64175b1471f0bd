import { parse } from './src/syntax/parser.js';
const src = `package a;
import java.util.*;
@WebServlet("/x")
public class A extends HttpServlet {
  private static final String Q = "x";
  @Override
  public void doPost(HttpServletRequest request, HttpServletResponse response) throws ServletException, java.io.IOException {
    String param = "";
    java.util.Enumeration<String> headers = request.getHeaders("BenchmarkTest");
    if (headers != null && headers.hasMoreElements()) { param = headers.nextElement(); }
    String[] arr = {"a", param};
    int num = 106;
    String bar = (7 * 42) - num > 200 ? "This_should_always_happen" : param;
    char c = 'B';
    switch (c) { case 'A': bar = param; break; case 'B': bar = "bob"; break; default: bar = "x"; }
    java.util.List<String> l = new java.util.ArrayList<String>();
    l.add("safe"); l.remove(0);
    for (String s : l) { bar += s; }
    for (int i = 0; i < 3; i++) { i++; }
    try (java.sql.Statement st = conn.createStatement()) { st.execute(String.format("x %s", bar)); } catch (Exception e) { throw new ServletException(e); } finally { x = 1; }
    Runnable r = () -> System.out.println(bar);
    obj.field.x = new Foo<Bar>(a, b).go()[2];
    boolean b2 = a instanceof String && !b;
    x = (int) y;
    while ((line = r.readLine()) != null) { sb.append(line); }
    do { i--; } while (i > 0);
    this.q = Q + "y";
  }
  class Inner { String get() { return "x"; } }
}`;
const tree = await parse('java', src);
function show(n, d) { if (!n.isNamed) return; console.log('  '.repeat(d) + n.type + (n.childCount === 0 ? ' ' + JSON.stringify(n.text) : '') + fields(n)); for (const c of n.namedChildren) show(c, d + 1); }
function fields(n) { const out = []; for (let i = 0; i < n.childCount; i++) { const f = n.fieldNameForChild(i); if (f) out.push(f + ':' + n.child(i).type); } return out.length ? '  [' + out.join(' ') + ']' : ''; }
show(tree.rootNode, 0);
