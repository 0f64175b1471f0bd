/**
 * Spring Security's URL authorization, bound to Spring MVC entries by their route: the rules of
 * `SecurityFilterChain` beans and of `WebSecurityConfigurerAdapter.configure(HttpSecurity)`
 * (`authorizeHttpRequests(a -> a.requestMatchers("/admin/**").hasRole("ADMIN").anyRequest().authenticated())`,
 * the older `authorizeRequests().antMatchers(...)`/`mvcMatchers(...)`, WebFlux `authorizeExchange().pathMatchers(...)`),
 * and `web.ignoring().requestMatchers(...)`. Spring tries a chain's rules in order and the first matching
 * one decides; a chain limited by `securityMatcher(...)` serves only the paths it names, and chains are
 * tried by `@Order`. `permitAll()` (and `web.ignoring()`) makes the entry public; `authenticated()` is a
 * login; a role or authority is a permission, except the everybody role `USER`, which is a login. Rules
 * naming an HTTP method cover an entry only when its mapping names that one verb.
 */
import type { Program } from './resolution.js';
import type { DischargeKind, EntryPoint, ProgramFile, Witness } from './types.js';

/** One `matchers(...).decision(...)` rule. */
interface UrlRule {
  /** null for `anyRequest()`. */
  patterns: RegExp[] | null;
  method: string | null;
  decision: DischargeKind | null;
  text: string;
}

/** One filter chain: its rules in order, the paths it serves, and where it is. */
interface FilterChain {
  rules: UrlRule[];
  /** `securityMatcher(...)` patterns; null when the chain serves every path. */
  serves: RegExp[] | null;
  order: number;
  where: string;
}

const AUTHORIZE = /\b(authorizeHttpRequests|authorizeRequests|authorizeExchange)\b/;
const IGNORING = /\bignoring\s*\(\s*\)/;
const TOKEN = /\.?\b(requestMatchers|antMatchers|mvcMatchers|regexMatchers|pathMatchers|securityMatcher|securityMatchers|anyRequest|anyExchange|permitAll|anonymous|authenticated|fullyAuthenticated|rememberMe|denyAll|hasRole|hasAnyRole|hasAuthority|hasAnyAuthority|access|hasIpAddress|ignoring)\s*\(/g;
const MATCHERS = new Set(['requestMatchers', 'antMatchers', 'mvcMatchers', 'regexMatchers', 'pathMatchers']);
/** The role every signed-in user has: requiring it is a login, not a permission. */
const EVERYBODY_ROLE = /^(ROLE_)?USER$/;
const VERBS: Record<string, string> = { GetMapping: 'GET', PostMapping: 'POST', PutMapping: 'PUT', DeleteMapping: 'DELETE', PatchMapping: 'PATCH' };

/** Router witnesses (and public entries) of the filter chains for every Spring entry with a route. */
export function springChainWitnesses(program: Program, entries: readonly EntryPoint[]): { witnesses: Witness[]; publicEntries: string[] } {
  const out = { witnesses: [] as Witness[], publicEntries: [] as string[] };
  const chains: FilterChain[] = [];
  const ignored: { patterns: RegExp[]; where: string }[] = [];
  for (const file of program.files) {
    if (file.factsLanguage !== 'java' || !(AUTHORIZE.test(file.text) || IGNORING.test(file.text))) continue;
    for (const fn of file.ir.functions) {
      if (fn.isLambda || developmentProfile(file, fn.startLine)) continue;
      const text = withoutComments(file.lines.slice(fn.bodyStartLine - 1, fn.endLine).join('\n'));
      const where = `${file.path}:${fn.startLine}`;
      if (AUTHORIZE.test(text)) chains.push(parseChain(text, fn.decorators, where));
      else if (IGNORING.test(text)) {
        const patterns = ignoredPatterns(text);
        if (patterns.length > 0) ignored.push({ patterns, where });
      }
    }
  }
  if (chains.length === 0 && ignored.length === 0) return out;
  // Chains with a securityMatcher are tried before the catch-all ones at the same order (Spring requires the catch-all last).
  chains.sort((a, b) => a.order - b.order || Number(a.serves === null) - Number(b.serves === null));
  for (const entry of entries) {
    if (entry.framework !== 'spring' || entry.route === undefined) continue;
    const path = entry.route.replace(/\{[^}]*\}/g, 'x');
    if (ignored.some((i) => i.patterns.some((p) => p.test(path)))) {
      out.publicEntries.push(entry.functionId);
      continue;
    }
    const chain = chains.find((c) => c.serves === null || c.serves.some((p) => p.test(path)));
    if (!chain) continue;
    const verb = verbOf(program, entry);
    const rule = chain.rules.find((r) => (r.method === null || r.method === verb) && (r.patterns === null || r.patterns.some((p) => p.test(path))));
    if (!rule || rule.decision === null) continue;
    if (rule.decision === 'public') out.publicEntries.push(entry.functionId);
    else out.witnesses.push({ kind: rule.decision, scope: 'router', functionId: entry.functionId, line: null, dischargerId: 'spring.filter-chain', evidence: `Spring Security rule ${rule.text} in ${chain.where} (route ${entry.route})` });
  }
  return out;
}

/** A profile only developers run (`@Profile("dev")` on H2's console chain): not the chain deployed servers apply. */
const DEVELOPMENT_PROFILE = /^Profile\s*\(\s*(?:value\s*=\s*)?\{?\s*"(dev|development|local|test|h2|debug|demo)"\s*\}?\s*\)/;

/** True when the class declaring the method at `line` (or the method's own configuration class) is limited to a development profile. */
function developmentProfile(file: ProgramFile, line: number): boolean {
  return file.ir.classes.some((cls) => cls.startLine <= line && cls.endLine >= line && cls.decorators.some((d) => DEVELOPMENT_PROFILE.test(d)));
}

/** The rules of one chain method, in the order written. */
function parseChain(text: string, decorators: readonly string[], where: string): FilterChain {
  const rules: UrlRule[] = [];
  let serves: RegExp[] | null = null;
  let pending: { patterns: RegExp[] | null; method: string | null; text: string } | null = null;
  for (const match of text.matchAll(TOKEN)) {
    const name = match[1] ?? '';
    const args = argumentText(text, (match.index ?? 0) + match[0].length);
    if (name === 'securityMatcher' || name === 'securityMatchers') {
      const patterns = stringsOf(args).map((s) => antPattern(s));
      if (patterns.length > 0) serves = [...(serves ?? []), ...patterns];
    } else if (MATCHERS.has(name)) {
      const strings = stringsOf(args);
      const regex = name === 'regexMatchers';
      pending = { patterns: strings.map((s) => (regex ? new RegExp(`^${s.replace(/^\^|\$$/g, '')}$`) : antPattern(s, name === 'mvcMatchers'))), method: /HttpMethod\.(\w+)/.exec(args)?.[1] ?? null, text: `${name}(${args.trim()})` };
      // `requestMatchers(HttpMethod.OPTIONS)` with no path covers every path of that verb.
      if (strings.length === 0 && pending.method === null) pending = null;
      else if (strings.length === 0) pending.patterns = null;
    } else if (name === 'anyRequest' || name === 'anyExchange') {
      pending = { patterns: null, method: null, text: `${name}()` };
    } else if (pending !== null && name !== 'ignoring') {
      rules.push({ ...pending, decision: decisionOf(name, args), text: `${pending.text}.${name}(${args.trim()})` });
      pending = null;
    }
  }
  const order = Number(/^Order\(\s*(-?\d+)/.exec(decorators.find((d) => d.startsWith('Order(')) ?? '')?.[1] ?? 0);
  return { rules, serves, order, where };
}

/** What a rule's decision proves. */
function decisionOf(name: string, args: string): DischargeKind | null {
  switch (name) {
    case 'permitAll':
    case 'anonymous':
      return 'public';
    case 'authenticated':
    case 'fullyAuthenticated':
    case 'rememberMe':
      return 'authn';
    case 'denyAll':
      return 'path_guard';
    case 'hasRole':
    case 'hasAnyRole':
    case 'hasAuthority':
    case 'hasAnyAuthority': {
      const roles = stringsOf(args);
      return roles.length > 0 && roles.every((r) => EVERYBODY_ROLE.test(r)) ? 'authn' : 'path_guard';
    }
    case 'access':
      // An expression string is judged by what it asks; an AuthorizationManager decides about the caller.
      return /^\s*"?\s*(isAuthenticated|isFullyAuthenticated)\(\)\s*"?\s*$/.test(args.replace(/new\s+\w+\s*\(|\)\s*$/g, '')) ? 'authn' : /permitAll/.test(args) ? 'public' : 'path_guard';
    default:
      return null;
  }
}

/** `web.ignoring().requestMatchers("/public/**")`: these paths bypass the security filters. */
function ignoredPatterns(text: string): RegExp[] {
  const out: RegExp[] = [];
  for (const match of text.matchAll(/\bignoring\s*\(\s*\)\s*\.\s*(?:requestMatchers|antMatchers|mvcMatchers)\s*\(/g)) {
    out.push(...stringsOf(argumentText(text, (match.index ?? 0) + match[0].length)).map((s) => antPattern(s)));
  }
  return out;
}

/** The verb an entry's mapping names, or null when it takes every verb. */
function verbOf(program: Program, entry: EntryPoint): string | null {
  const decorators = program.functions.get(entry.functionId)?.fn.decorators ?? [];
  for (const d of decorators) {
    const name = /^\w+/.exec(d)?.[0] ?? '';
    if (VERBS[name]) return VERBS[name];
    if (name === 'RequestMapping') {
      const methods = [...d.matchAll(/RequestMethod\.(\w+)/g)].map((m) => m[1]);
      return methods.length === 1 ? (methods[0] ?? null) : null;
    }
  }
  return null;
}

/** An Ant-style path pattern as a regular expression: `**` any segments, `*` within one, `{x}` one segment. */
export function antPattern(pattern: string, mvc = false): RegExp {
  let out = '';
  const p = pattern.startsWith('/') ? pattern : `/${pattern}`;
  for (let i = 0; i < p.length; i++) {
    const ch = p[i] ?? '';
    if (p.startsWith('/**', i)) {
      out += '(/.*)?';
      i += 2;
    } else if (p.startsWith('**', i)) {
      out += '.*';
      i += 1;
    } else if (ch === '*') out += '[^/]*';
    else if (ch === '?') out += '[^/]';
    else if (ch === '{') {
      const close = p.indexOf('}', i);
      out += '[^/]+';
      i = close < 0 ? p.length : close;
    } else out += ch.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  // An MVC matcher also matches the path with a trailing slash.
  return new RegExp(`^${out}${mvc ? '/?' : ''}$`);
}

/** The text inside the parentheses opening at `from` (balanced). */
function argumentText(text: string, from: number): string {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      const close = text.indexOf('"', i + 1);
      i = close < 0 ? text.length : close;
    } else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return text.slice(from, i);
  }
  return text.slice(from);
}

function stringsOf(args: string): string[] {
  return [...args.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1] ?? '');
}

function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:"])\/\/[^\n]*/g, '$1');
}


/** Which method-security annotations Spring enforces in this program. */
interface MethodSecurity {
  prePost: boolean;
  secured: boolean;
  jsr250: boolean;
}

const METHOD_SECURITY_ANNOTATION = /^(PreAuthorize|Secured|RolesAllowed|PermitAll|DenyAll)\b/;

/**
 * A reader of method-security annotations in a Spring Security application: the reason an annotation
 * is inert there, or null when Spring enforces it (or the program is no Spring Security application,
 * so another container may: JAX-RS reads `@RolesAllowed` itself). `@EnableMethodSecurity` turns on
 * `@PreAuthorize` (unless `prePostEnabled = false`), `securedEnabled = true` adds `@Secured` and
 * `jsr250Enabled = true` the JSR-250 annotations; `@EnableGlobalMethodSecurity` has all three off by
 * default.
 */
export function methodSecurityReader(program: Program): (file: ProgramFile, annotation: string) => string | null {
  const java = program.files.filter((f) => f.factsLanguage === 'java');
  if (!java.some((f) => /\b(EnableWebSecurity|EnableWebFluxSecurity|SecurityFilterChain|WebSecurityConfigurerAdapter)\b/.test(f.text))) return () => null;
  const enabled: MethodSecurity = { prePost: false, secured: false, jsr250: false };
  for (const file of java) {
    for (const match of file.text.matchAll(/@Enable(Global|Reactive)?MethodSecurity\b(\([^)]*\))?/g)) {
      const args = match[2] ?? '';
      const global = match[1] === 'Global';
      enabled.prePost ||= global ? /prePostEnabled\s*=\s*true/.test(args) : !/prePostEnabled\s*=\s*false/.test(args);
      enabled.secured ||= /securedEnabled\s*=\s*true/.test(args);
      enabled.jsr250 ||= /jsr250Enabled\s*=\s*true/.test(args);
    }
  }
  return (file, annotation) => {
    const name = METHOD_SECURITY_ANNOTATION.exec(annotation)?.[1];
    if (name === undefined || !/\borg\.springframework\b/.test(file.text)) return null;
    const on = name === 'PreAuthorize' ? enabled.prePost : name === 'Secured' ? enabled.secured : enabled.jsr250;
    return on ? null : `@${annotation} is inert: method security for it is not enabled (${name === 'PreAuthorize' ? '@EnableMethodSecurity' : name === 'Secured' ? 'securedEnabled = true' : 'jsr250Enabled = true'})`;
  };
}
