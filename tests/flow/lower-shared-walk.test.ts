/**
 * The review lowers each file with the function scan riding along the syntax IR's walk (one walk per
 * file); the base revision and the tests lower with a walk of their own. Both must give the same flow
 * IR, on ordinary code and on broken code alike.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lowerText, prepareLowering } from '../../src/flow/index.js';
import type { FlowFile } from '../../src/flow/ir.js';
import { buildIR } from '../../src/syntax/ir.js';
import type { Language } from '../../src/syntax/languages.js';

/** Pieces whose mixes exercise what the scan tracks: decorators before declarations, nesting, classes, methods declared apart from their type. */
const PIECES: Record<string, string[]> = {
  python: ['@app.route("/a")\n', '@staticmethod\n', 'class Box:\n', '    def get(self, k):\n', '        return self.d[k]\n', 'def outer(req):\n', '    def inner(v):\n', '        return v\n', '    return inner(req.args["q"])\n', 'h = lambda y: y\n', '# note\n', 'import os\n', '(', ':', ')'],
  javascript: ['@Get() ', 'class Svc {\n', '  run(req) { return req.query.q; }\n', '}\n', 'function outer(a) {\n', '  const inner = (b) => b + a;\n', '  return inner(a);\n', '}\n', 'const h = function named(x) { return x; };\n', "const fs = require('fs');\n", '/* c */', '{', '(', ')'],
  php: ['<?php\n', '#[Route("/a")]\n', 'class Ctl {\n', '  public function show($r) { return $r->get("q"); }\n', '}\n', 'function outer($a) {\n', '  $f = fn($b) => $b . $a;\n', '  return $f($a);\n', '}\n', 'use App\\Thing;\n', '// c\n', '{', '(', ';'],
  go: ['package main\n', 'func (s *Server) Handle(w http.ResponseWriter, r *http.Request) {\n', '  q := r.URL.Query().Get("q")\n', '  f := func(v string) string { return v }\n', '  f(q)\n', '}\n', 'type Server struct{ db string }\n', 'import "net/http"\n', '// c\n', '{', '('],
};

/** The flow IR through the review's path: the syntax IR's walk carries the scan, then the bodies are lowered. */
async function loweredAlongside(path: string, language: Language, source: string): Promise<FlowFile> {
  const prepared = prepareLowering(path, language, source);
  if (prepared === null) throw new Error(`no front end for ${language}`);
  let file: FlowFile | null = null;
  await buildIR(path, language, source, {
    ...(prepared.visitor ? { visitor: prepared.visitor } : {}),
    withTree: (root) => {
      const lowered = prepared.finish(root);
      if (!lowered.ok) throw new Error(lowered.reason);
      file = lowered.file;
    },
  });
  if (file === null) throw new Error('the tree was never handed over');
  return file;
}

async function loweredAlone(path: string, language: Language, source: string): Promise<FlowFile> {
  const lowered = await lowerText(path, language, source, Date.now() + 10_000);
  if (lowered?.ok !== true) throw new Error(lowered?.reason ?? 'no front end');
  return lowered.file;
}

describe.each(Object.keys(PIECES))('the shared walk in %s', (language) => {
  const pieces = PIECES[language] ?? [];
  const path = `case.${language === 'python' ? 'py' : language === 'javascript' ? 'js' : language}`;

  it('lowers the pieces in order exactly as a walk of its own does', async () => {
    const source = pieces.slice(0, -3).join('');
    const alongside = await loweredAlongside(path, language as Language, source);
    expect(alongside.functions.length).toBeGreaterThan(2);
    expect(alongside).toEqual(await loweredAlone(path, language as Language, source));
  });

  it('gives the same flow IR on any mix of the pieces', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), async (chosen) => {
        const source = chosen.join('');
        expect(await loweredAlongside(path, language as Language, source)).toEqual(await loweredAlone(path, language as Language, source));
      }),
      { numRuns: 60 },
    );
  });
});

describe('Java, which reads the tree top-down', () => {
  it('lowers through the same entry point without a visitor', async () => {
    const source = 'class A { String f(javax.servlet.http.HttpServletRequest r) { return r.getParameter("q"); } }';
    const prepared = prepareLowering('A.java', 'java', source);
    expect(prepared?.visitor).toBeNull();
    expect(await loweredAlongside('A.java', 'java', source)).toEqual(await loweredAlone('A.java', 'java', source));
  });
});
