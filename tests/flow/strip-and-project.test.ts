/**
 * Character-class strips (what survives decides what the result is clean for) and sinks that hold only
 * in some projects (a view engine that prints raw, a project that turns its escaping off).
 */
import { describe, expect, it } from 'vitest';
import { analyseFile, lowerText } from '../../src/flow/index.js';
import { kindsClearedByStrip, type StripSyntax } from '../../src/flow/strip.js';
import { loadBuiltinFlowRows } from '../../src/rules/flow-load.js';
import type { Language } from '../../src/syntax/languages.js';

const KINDS = new Set(['path', 'xss', 'sql', 'command', 'header', 'redirect', 'code']);
const cleared = (pattern: string, syntax: StripSyntax = 'plain', replacement = '', everyMatch = true) => [...kindsClearedByStrip({ pattern, replacement, syntax, everyMatch }, KINDS)].sort();

describe('a character-class strip', () => {
  it('clears every kind whose harmful characters the kept class cannot hold, never code evaluation', () => {
    expect(cleared('[^a-z0-9_]+')).toEqual(['command', 'header', 'path', 'redirect', 'sql', 'xss']);
  });

  it('keeping dots leaves `..`: not clean for paths, still clean for markup', () => {
    const kinds = cleared('[^\\w.-]+');
    expect(kinds).not.toContain('path');
    expect(kinds).toContain('xss');
  });

  it('removing a class keeps its complement: stripping `.`, `/` and `\\` is enough for paths only', () => {
    expect(cleared('[./\\\\]')).toEqual(['path']);
  });

  it('is judged by the language: a JavaScript literal needs `g`, PHP delimiters and flags are read', () => {
    expect(cleared('/[^a-z0-9]/', 'regex-literal', '', false)).toEqual([]);
    expect(cleared('/[^a-z0-9]/gi', 'regex-literal', '', false)).toContain('path');
    expect(cleared('#[^a-z0-9]+#i', 'delimited')).toContain('path');
    expect(cleared('/[^a-z ]/x', 'delimited')).toEqual([]);
  });

  it('cleans nothing when the pattern is a sequence, or the replacement brings the harm back', () => {
    expect(cleared('\\.\\./')).toEqual([]);
    expect(cleared('../')).toEqual([]);
    expect(cleared('[^a-z]', 'plain', '/')).not.toContain('path');
    expect(cleared('[^a-z')).toEqual([]);
  });
});

async function findings(language: Language, path: string, source: string, project: { dependencies?: Set<string>; projectTexts?: Set<string> } = {}): Promise<string[]> {
  const lowered = await lowerText(path, language, source, Date.now() + 10_000);
  if (lowered === null || !lowered.ok) throw new Error('did not lower');
  const rows = loadBuiltinFlowRows().byLanguage.get(language);
  if (rows === undefined) throw new Error(`no ${language} rows`);
  return analyseFile(lowered.file, { rows, ...project }).findings.map((f) => `${f.rowId}@${f.line}`);
}

describe('strips in real code', () => {
  it('follows a route parameter through a dot-keeping filter to send_from_directory, and not through a strict one', async () => {
    const view = (pattern: string) => `import os, re
@app.route("/static/<group>/<filename>")
def static_content(group, filename):
    filename = re.sub(r'${pattern}', '', filename.lower())
    return make_response(send_from_directory(os.path.join(DATA, filename), "shot.png"))
`;
    expect(await findings('python', 'app.py', view('[^\\w.-]+'))).toEqual(['python-path@5']);
    expect(await findings('python', 'app.py', view('[^a-z0-9_]+'))).toEqual([]);
  });

  it('does not take one pass of replace("../", "") for a sanitiser', async () => {
    const code = `import flask, os
@bp.route("/json/edit_package", methods=["POST"])
def edit_package():
    folder = flask.request.form["pack_folder"].lstrip(os.path.sep).replace(".." + os.path.sep, "")
    return open(os.path.join("/srv/packages", folder)).read()
`;
    expect(await findings('python', 'app.py', code)).toEqual(['python-path@5']);
  });
});

describe('render sinks that depend on the project', () => {
  const controller = `tagsController.getTag = function (req, res) {
  const tag = req.params.tag;
  res.render('tag', { tag: tag, topics: topics.forTag(tag) });
};
`;

  it('holds for an engine that prints raw, only in a project that declares it', async () => {
    expect(await findings('javascript', 'tags.js', controller, { dependencies: new Set(['templates.js']) })).toEqual(['js-render-unescaped@3']);
    expect(await findings('javascript', 'tags.js', controller, { dependencies: new Set(['ejs', 'express']) })).toEqual([]);
    expect(await findings('javascript', 'tags.js', controller)).toEqual([]);
  });

  it('holds for benchpress only where the project replaces its escaping with identity', async () => {
    expect(await findings('javascript', 'tags.js', controller, { dependencies: new Set(['benchpressjs']) })).toEqual([]);
    expect(await findings('javascript', 'tags.js', controller, { dependencies: new Set(['benchpressjs']), projectTexts: new Set(['__escape: identity']) })).toEqual(['js-render-escape-off@3']);
  });
});

describe('callbacks', () => {
  const nested = (value: string) => `const validator = require('validator');
tagsController.getTag = function (req, res, next) {
  const tag = ${value};
  topics.getTagTids(tag, 0, 20, function (err, tids) {
    topics.getTopics('tag:' + tag, tids, function (err, data) {
      data.tag = tag;
      res.render('tag', data);
    });
  });
};
`;

  it('read what the function around them held where they were made, through every level', async () => {
    const deps = { dependencies: new Set(['templates.js']) };
    expect(await findings('javascript', 'tags.js', nested('req.params.tag'), deps)).toEqual(['js-render-unescaped@7']);
    expect(await findings('javascript', 'tags.js', nested('validator.escape(req.params.tag)'), deps)).toEqual([]);
  });
});

describe('trust boundaries', () => {
  it('do not count a value a check vetted before it was stored, but do count an encoded one', async () => {
    const view = (check: string) => `from django.utils.http import url_has_allowed_host_and_scheme
def login(request):
    target = request.GET.get("next")
    ${check}
    request.session["next"] = target
`;
    expect(await findings('python', 'v.py', view('pass'))).toEqual(['python-session-store@5', 'python-session-write@5']);
    expect(await findings('python', 'v.py', view('if target and not url_has_allowed_host_and_scheme(target, allowed_hosts=None): target = None'))).toEqual([]);
    expect(await findings('python', 'v.py', view('target = html.escape(target)'))).toEqual(['python-session-store@5', 'python-session-write@5']);
  });
});
