/**
 * web.xml security constraints: a servlet every mapped URL and verb of which a constraint with an
 * auth-constraint covers is checked by the container; a URL or verb left out, a constraint without an
 * auth-constraint, or a commented-out constraint leaves it a finding.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

const SERVLET = `public class PurgeServlet extends HttpServlet {
  protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    new ProcessBuilder("purge", req.getParameter("what")).start();
  }
}
`;

function webXml(constraint: string, mapping = '<url-pattern>/admin/purge</url-pattern>'): string {
  return `<?xml version="1.0"?>
<web-app>
  <servlet><servlet-name>purge</servlet-name><servlet-class>org.example.PurgeServlet</servlet-class></servlet>
  <servlet-mapping><servlet-name>purge</servlet-name>${mapping}</servlet-mapping>
  ${constraint}
</web-app>
`;
}

const constraint = (patterns: string, auth: string, methods = ''): string =>
  `<security-constraint><web-resource-collection><web-resource-name>admin</web-resource-name>${patterns}${methods}</web-resource-collection>${auth}</security-constraint>`;

async function labels(xml: string | null): Promise<string[]> {
  const files: Record<string, string> = { 'src/main/java/org/example/PurgeServlet.java': SERVLET };
  if (xml !== null) files['src/main/webapp/WEB-INF/web.xml'] = xml;
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings.map((f) => `${f.label}${f.weakerChecks.some((w) => /web\.xml/.test(w)) ? '+webxml' : ''}`);
}

describe('web.xml security constraints', () => {
  it('a role constraint over every mapped URL discharges the servlet', async () => {
    expect(await labels(null)).toEqual(['unguarded_path']);
    expect(await labels(webXml(constraint('<url-pattern>/admin/*</url-pattern>', '<auth-constraint><role-name>admin</role-name></auth-constraint>')))).toEqual([]);
    expect(await labels(webXml(constraint('<url-pattern>/admin/purge</url-pattern>', '<auth-constraint/>')))).toEqual([]);
  });

  it('any signed-in user (*) is a login check only', async () => {
    expect(await labels(webXml(constraint('<url-pattern>/*</url-pattern>', '<auth-constraint><role-name>*</role-name></auth-constraint>')))).toEqual(['authn_only+webxml']);
  });

  it('a URL, a verb or an auth-constraint left out is no check', async () => {
    const admin = '<auth-constraint><role-name>admin</role-name></auth-constraint>';
    expect(await labels(webXml(constraint('<url-pattern>/admin/*</url-pattern>', admin), '<url-pattern>/admin/purge</url-pattern><url-pattern>/purge</url-pattern>'))).toEqual(['unguarded_path']);
    expect(await labels(webXml(constraint('<url-pattern>/admin/*</url-pattern>', admin, '<http-method>GET</http-method>')))).toEqual(['unguarded_path']);
    expect(await labels(webXml(constraint('<url-pattern>/admin/*</url-pattern>', admin, '<http-method-omission>POST</http-method-omission>')))).toEqual(['unguarded_path']);
    expect(await labels(webXml(constraint('<url-pattern>/admin/*</url-pattern>', '')))).toEqual(['unguarded_path']);
    expect(await labels(webXml(`<!-- ${constraint('<url-pattern>/*</url-pattern>', admin)} -->`))).toEqual(['unguarded_path']);
    expect(await labels(webXml(constraint('<url-pattern>*.do</url-pattern>', admin)))).toEqual(['unguarded_path']);
  });

  it('a constraint the change itself writes does not discharge the change', async () => {
    const xml = webXml(constraint('<url-pattern>/*</url-pattern>', '<auth-constraint><role-name>admin</role-name></auth-constraint>'));
    const files = [
      { path: 'src/main/java/org/example/PurgeServlet.java', text: SERVLET },
      { path: 'src/test/resources/WEB-INF/web.xml', text: xml },
    ];
    const every = (text: string) => new Set(text.split('\n').map((_, i) => i + 1));
    const both = await proveChange({ root: '/repo', files, touched: files.map((f) => ({ path: f.path, lines: every(f.text) })), maxDepth: 3, fanOut: 25 });
    expect(both.findings.map((f) => f.label)).toEqual(['unguarded_path']);
    const servletOnly = await proveChange({ root: '/repo', files, touched: [{ path: files[0]!.path, lines: every(SERVLET) }], maxDepth: 3, fanOut: 25 });
    expect(servletOnly.findings).toEqual([]);
  });
});
