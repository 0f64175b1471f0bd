/**
 * Attacks on the inert-value test of the DOM and template rules (src/rules/inert-value.ts and the
 * safe_* lists of rules/*.toml): outside data put through a name, a producer, an import or a template
 * expression that the test trusts. Each must still be reported.
 */
import { describe, expect, it } from 'vitest';
import { builtinRuleAliases } from '../../src/rules/aliases.js';
import { hostileChangeReviewer } from './helpers.js';

const review = hostileChangeReviewer();
const INNER = 'jscr/js-inner-html-dynamic';

/** Review one JavaScript file and return the lines the innerHTML rule reported. */
async function innerHtmlLines(code: string, path = 'src/view.js'): Promise<number[]> {
  const out = await review({ [path]: code });
  return out.findings.filter((f) => builtinRuleAliases().names(INNER, f.rule)).map((f) => f.line);
}

describe('attack: request data through a name the inert test trusts', () => {
  it('a literal outer name shadowed by a switch-case declaration of request data', async () => {
    const code = [
      "const label = '<b>hi</b>';",
      'export function show(el, kind) {',
      '  switch (kind) {',
      '    case 1:',
      '      let label = location.hash.slice(1);',
      '      el.innerHTML = label;',
      '  }',
      '}',
    ].join('\n');
    expect(await innerHtmlLines(code)).toEqual([6]);
  });

  it('a literal outer name shadowed by a for-loop initialiser', async () => {
    const code = ["const html = '';", 'for (let html = location.search; false; ) {}', 'export function f(el) {', '  for (let html = decodeURIComponent(location.search); ; ) { el.innerHTML = html; break; }', '}'].join('\n');
    expect(await innerHtmlLines(code)).toEqual([4]);
  });

  it('a var hoisted out of a nested block over a literal of the same name', async () => {
    const code = ["const html = '';", 'export function f(el, params) {', '  if (params) { var html = params.get("q"); }', '  el.innerHTML = html;', '}'].join('\n');
    expect(await innerHtmlLines(code)).toEqual([4]);
  });

  it('a caught error (whose message can quote input) shadowing a literal', async () => {
    const code = ["const msg = 'ok';", 'export function f(el, text) {', '  try { JSON.parse(text); } catch (msg) { el.innerHTML = msg; }', '}'].join('\n');
    expect(await innerHtmlLines(code)).toEqual([3]);
  });

  it('a top-level var set to a literal, then rewritten through window', async () => {
    const code = ["var banner = '<p>Welcome</p>';", 'window.banner = location.hash;', 'function show(el) { el.innerHTML = banner; }'].join('\n');
    expect(await innerHtmlLines(code)).toEqual([3]);
  });

  it('keeps a literal name with a single binding inert (the negative case the rule relies on)', async () => {
    const code = ["const banner = '<p>Welcome</p>';", 'export function show(el) { el.innerHTML = banner; }'].join('\n');
    expect(await innerHtmlLines(code)).toEqual([]);
  });
});

describe('attack: markup "read back from the page" that is not page markup', () => {
  it('an innerHTML field of parsed JSON', async () => {
    const code = ['export async function f(el) {', "  const data = await (await fetch('/api/card')).json();", '  el.innerHTML = data.innerHTML;', '}'].join('\n');
    expect(await innerHtmlLines(code)).toEqual([3]);
  });

  it('an innerHTML field of an object literal built from the query string', async () => {
    const code = ['const fake = { innerHTML: location.search };', 'export function f(el) { el.innerHTML = fake.innerHTML; }'].join('\n');
    expect(await innerHtmlLines(code)).toEqual([2]);
  });

  it('a rewrite whose replacement callback reads this, or calls something with no matched piece', async () => {
    const code = [
      'export class Card {',
      '  render(el) {',
      '    el.innerHTML = el.innerHTML.replace(/NAME/, () => this.query);',
      "    el.innerHTML = el.innerHTML.replace(/NAME/, () => readParam('name'));",
      '  }',
      '}',
    ].join('\n');
    expect(await innerHtmlLines(code)).toEqual([3, 4]);
  });

  it('still takes an element rewritten from its own markup with a helper on the matched piece as inert', async () => {
    const code = 'comment.innerHTML = comment.innerHTML.replace(/https:\\/\\/docs\\.example\\.org\\/\\S+/g, (url) => link(url));\n';
    expect(await innerHtmlLines(code)).toEqual([]);
  });
});

describe('attack: a safe producer or safe import that is not what its name says', () => {
  it('an escaper defined in the change that returns its input', async () => {
    const code = ['function escapeHtml(s) { return s; }', 'export function f(el) { el.innerHTML = escapeHtml(location.hash); }'].join('\n');
    expect(await innerHtmlLines(code)).toEqual([2]);
  });

  it('a sanitiser object defined in the change', async () => {
    const code = ['const DOMPurify = { sanitize: (html) => html };', 'export function f(el, html) { el.innerHTML = DOMPurify.sanitize(html); }'].join('\n');
    expect(await innerHtmlLines(code)).toEqual([2]);
  });

  it('Python: a format_html defined in the change that returns its input', async () => {
    const code = ['from django.utils.safestring import mark_safe', '', 'def format_html(value):', '    return value', '', 'def banner(request):', "    return mark_safe(format_html(request.GET['msg']))", ''].join('\n');
    const out = await review({ 'app/views.py': code });
    expect(out.findings.some((f) => builtinRuleAliases().names('jscr/python-mark-safe-non-literal', f.rule) && f.path === 'app/views.py' && f.line === 7)).toBe(true);
  });

  it('Python: the real format_html on a literal stays inert', async () => {
    const code = ['from django.utils.html import format_html', 'from django.utils.safestring import mark_safe', '', 'def banner(request):', "    return mark_safe(format_html('<b>{}</b>', request.GET['msg']))", ''].join('\n');
    const out = await review({ 'app/views.py': code });
    expect(out.where.filter((w) => w.includes('mark-safe'))).toEqual([]);
  });

  it('a script module imported with a query string that ends like an asset name', async () => {
    const code = ["import payload from './payload.js?.html';", "import other from './payload.js#.svg';", 'export function f(el) {', '  el.innerHTML = payload;', '  el.outerHTML = other;', '}'].join('\n');
    expect(await innerHtmlLines(code)).toEqual([4, 5]);
  });

  it('keeps a real sanitiser import and an svg import inert', async () => {
    const code = ["import DOMPurify from 'dompurify';", "import icon from './icon.svg?raw';", 'export function f(el, html) { el.innerHTML = DOMPurify.sanitize(html); el.outerHTML = icon; }'].join('\n');
    expect(await innerHtmlLines(code)).toEqual([]);
  });
});

describe('attack: template values whose last filter escapes only the last operand', () => {
  it('Jinja: user text joined before an escaped value', async () => {
    const out = await review({
      'templates/card.html': '<div>{{ (request.args.name ~ note|escape)|safe }}</div>\n<div>{{ request.args.name ~ note|escape|safe }}</div>\n<div>{{ request.args.bio if full else note|escape|safe }}</div>\n',
    });
    expect(out.where.filter((w) => w.includes('templates/card.html')).length).toBe(3);
  });

  it('Twig: user text joined before an escaped value', async () => {
    const out = await review({ 'templates/card.html.twig': "<div>{{ app.request.get('name') ~ note|e|raw }}</div>\n<div>{{ app.request.get('bio') ~ path('home')|raw }}</div>\n" });
    expect(out.where.filter((w) => w.includes('card.html.twig')).length).toBe(2);
  });

  it('keeps an escaped value and a router URL inert', async () => {
    const out = await review({ 'templates/ok.html.twig': "<div>{{ note|e|raw }}</div>\n<a href=\"{{ path('home')|raw }}\">home</a>\n" });
    expect(out.where.filter((w) => w.includes('ok.html.twig'))).toEqual([]);
  });
});
