/**
 * Servlet security declared in `WEB-INF/web.xml`: a `<security-constraint>` whose url-patterns cover
 * every URL a servlet is mapped to, with an `<auth-constraint>`, is a check the container makes before
 * the servlet runs. A role name is a permission check, `*` or `**` is a login check, an empty
 * auth-constraint lets nobody in. A constraint limited to some HTTP methods covers only the servlet
 * methods of those verbs; a servlet mapped to one URL no constraint covers is not covered at all.
 */
import type { DischargeKind, EntryPoint } from './types.js';

/** What web.xml says protects one servlet method, or null when nothing covers it. */
export interface ServletConstraint {
  kind: DischargeKind;
  evidence: string;
}

interface Constraint {
  patterns: string[];
  /** Verbs the constraint is limited to, or null for every verb. */
  methods: string[] | null;
  /** Verbs left out (`<http-method-omission>`). */
  omitted: string[];
  /** Role names; null when there is no auth-constraint (the constraint checks nothing). */
  roles: string[] | null;
}

export interface WebXml {
  file: string;
  /** Servlet class (simple and qualified name) -> mapped url-patterns. */
  mappings: Map<string, string[]>;
  constraints: Constraint[];
}

function blocks(text: string, tag: string): string[] {
  return [...text.matchAll(new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => m[1] ?? '');
}

function values(text: string, tag: string): string[] {
  return blocks(text, tag).map((v) => v.trim());
}

/** The servlet mappings and security constraints of one web.xml (comments removed first). */
export function parseWebXml(file: string, raw: string): WebXml {
  const text = raw.replace(/<!--[\s\S]*?-->/g, '');
  const classOf = new Map<string, string>();
  for (const servlet of blocks(text, 'servlet')) {
    const name = values(servlet, 'servlet-name')[0];
    const cls = values(servlet, 'servlet-class')[0];
    if (name && cls) classOf.set(name, cls);
  }
  const mappings = new Map<string, string[]>();
  for (const mapping of blocks(text, 'servlet-mapping')) {
    const cls = classOf.get(values(mapping, 'servlet-name')[0] ?? '');
    if (!cls) continue;
    for (const key of new Set([cls, cls.slice(cls.lastIndexOf('.') + 1)])) mappings.set(key, [...(mappings.get(key) ?? []), ...values(mapping, 'url-pattern')]);
  }
  const constraints: Constraint[] = [];
  for (const constraint of blocks(text, 'security-constraint')) {
    const auth = blocks(constraint, 'auth-constraint');
    // `<auth-constraint/>` is an auth-constraint naming no role: nobody is let in
    const roles = auth.length === 0 ? (/<auth-constraint\s*\/>/.test(constraint) ? [] : null) : auth.flatMap((a) => values(a, 'role-name'));
    for (const collection of blocks(constraint, 'web-resource-collection')) {
      const methods = values(collection, 'http-method').map((m) => m.toUpperCase());
      constraints.push({ patterns: values(collection, 'url-pattern'), methods: methods.length === 0 ? null : methods, omitted: values(collection, 'http-method-omission').map((m) => m.toUpperCase()), roles });
    }
  }
  return { file, mappings, constraints };
}

/** Servlet URL-pattern matching (Servlet spec 12.2): exact, `/prefix/*`, `*.ext`, and `/` for everything. */
function covers(pattern: string, url: string): boolean {
  if (pattern === '/' || pattern === '/*') return true;
  if (pattern.endsWith('/*')) {
    const prefix = pattern.slice(0, -2);
    return url === prefix || url.startsWith(`${prefix}/`);
  }
  if (pattern.startsWith('*.')) return url.endsWith(pattern.slice(1));
  return pattern === url;
}

/** A mapped url-pattern as a URL a request could have: `/admin/*` stands for `/admin/x`, `*.do` for `/x.do`. */
function sampleUrl(pattern: string): string {
  if (pattern.endsWith('/*')) return `${pattern.slice(0, -2)}/x`;
  if (pattern.startsWith('*.')) return `/x${pattern.slice(1)}`;
  return pattern === '' ? '/' : pattern;
}

const VERB_OF: Record<string, string[]> = { doGet: ['GET'], doPost: ['POST'], doPut: ['PUT'], doDelete: ['DELETE'], doPatch: ['PATCH'], doHead: ['HEAD', 'GET'], service: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] };

function appliesTo(c: Constraint, verb: string): boolean {
  return (c.methods === null || c.methods.includes(verb)) && !c.omitted.includes(verb);
}

/** What protects a servlet entry, when every URL it is mapped to and every verb it answers is covered. */
export function servletConstraint(entry: EntryPoint, webXmls: readonly WebXml[]): ServletConstraint | null {
  const owner = entry.function.slice(0, entry.function.lastIndexOf('.'));
  const cls = owner.slice(owner.lastIndexOf('.') + 1);
  const method = entry.function.slice(entry.function.lastIndexOf('.') + 1);
  const verbs = VERB_OF[method];
  if (!verbs) return null;
  for (const web of webXmls) {
    const urls = web.mappings.get(cls);
    if (!urls || urls.length === 0) continue;
    let weakest: DischargeKind = 'path_guard';
    const seen: string[] = [];
    for (const url of urls) {
      for (const verb of verbs) {
        // the most specific pattern wins in the spec; any covering constraint with an auth-constraint is taken as the check here
        const applying = web.constraints.filter((c) => c.roles !== null && appliesTo(c, verb) && c.patterns.some((p) => covers(p, sampleUrl(url))));
        if (applying.length === 0) return null;
        const anyRole = applying.every((c) => (c.roles ?? []).length > 0 && (c.roles ?? []).every((r) => r === '*' || r === '**'));
        if (anyRole) weakest = 'authn';
        seen.push(...applying.flatMap((c) => ((c.roles ?? []).length === 0 ? ['(nobody)'] : (c.roles ?? []))));
      }
    }
    return { kind: weakest, evidence: `web.xml security-constraint on ${urls.join(', ')}: ${weakest === 'authn' ? 'any signed-in user' : `roles ${[...new Set(seen)].join(', ')}`} (${web.file})` };
  }
  return null;
}
