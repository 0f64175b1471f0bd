/**
 * The lexer cores (src/lexing/): a table of token streams per family, the state they report at the
 * end of a prefix, and a property that every core cuts any text into contiguous tokens that cover it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchLines } from '../../src/lexing/batch.js';
import { CFamilyLexer, type CFamilyLanguage } from '../../src/lexing/c-family.js';
import { PowerShellLexer } from '../../src/lexing/powershell.js';
import { PythonLexer } from '../../src/lexing/python.js';
import { ShellLexer } from '../../src/lexing/shell.js';

interface Lexer {
  next(): { kind: string; start: number; end: number; closed: boolean } | null;
}

/** `kind:text` for every token but blanks; a `!` after the kind marks an unclosed one. */
function stream(lexer: Lexer, text: string): string[] {
  const out: string[] = [];
  for (let token = lexer.next(); token !== null; token = lexer.next()) {
    if (token.kind !== 'blank') out.push(`${token.kind}${token.closed ? '' : '!'}:${text.slice(token.start, token.end)}`);
  }
  return out;
}

const cFamily = (language: CFamilyLanguage) => (text: string) => stream(new CFamilyLexer(text, language), text);
const js = cFamily('javascript');

describe('C-family core', () => {
  it.each([
    ['a / b / c', ['word:a', 'punct:/', 'word:b', 'punct:/', 'word:c']],
    ['x = /a[/]b/g.test(y)', ['word:x', 'punct:=', 'regex:/a[/]b/g', 'punct:.', 'word:test', 'punct:(', 'word:y', 'punct:)']],
    ['return /r/', ['word:return', 'regex:/r/']],
    ['x++ / 2', ['word:x', 'punct:++', 'punct:/', 'number:2']],
    ['`a` / 2', ['template:`a`', 'punct:/', 'number:2']],
    ['`a${b}c`', ['template:`a${', 'word:b', 'punct:}', 'template:c`']],
    ['`a${ {x:1} }`', ['template:`a${', 'punct:{', 'word:x', 'punct::', 'number:1', 'punct:}', 'punct:}', 'template:`']],
    ['`open ${', ['template:`open ${']],
    ['`a${b}', ['template:`a${', 'word:b', 'punct:}', 'template!:']],
    ['"a\\"b" // c', ['string:"a\\"b"', 'line-comment:// c']],
    ['"open\nx', ['string!:"open', 'newline:\n', 'word:x']],
    ['/* a */ b /* c', ['block-comment:/* a */', 'word:b', 'block-comment!:/* c']],
    ['// a\u2028b', ['line-comment:// a', 'newline:\u2028', 'word:b']],
    ['a\u00a0b', ['word:a', 'word:b']],
    ['#p = 1e+5', ['word:#p', 'punct:=', 'number:1e+5']],
  ])('javascript %j', (text, tokens) => {
    expect(js(text)).toEqual(tokens);
  });

  it.each([
    ['go', 'x := `a\n// b`', ['word:x', 'punct::', 'punct:=', 'string:`a\n// b`']],
    ['rust', "fn f<'a>(c: char) { '\\n' }", ['word:fn', 'word:f', 'punct:<', "punct:'", 'word:a', 'punct:>', 'punct:(', 'word:c', 'punct::', 'word:char', 'punct:)', 'punct:{', "string:'\\n'", 'punct:}']],
    ['rust', 'r#"a "# b"#', ['string:r#"a "#', 'word:b', 'string!:"#']],
    ['rust', 'cr"x" br"y"', ['string:cr"x"', 'string:br"y"']],
    ['rust', '/* a /* b */ c */ d', ['block-comment:/* a /* b */ c */', 'word:d']],
    ['java', 'String s = """\n// x\n""";', ['word:String', 'word:s', 'punct:=', 'string:"""\n// x\n"""', 'punct:;']],
    ['kotlin', 'val `a // b` = 1', ['word:val', 'string:`a // b`', 'punct:=', 'number:1']],
    ['csharp', 'var s = @"a\n""b";', ['word:var', 'word:s', 'punct:=', 'punct:@', 'string:"a\n""b"', 'punct:;']],
    ['csharp', 'var s = $"{a["k"]}";', ['word:var', 'word:s', 'punct:=', 'word:$', 'unreadable!:"{a["k"]}";']],
    ['csharp', 'var s = """a""";', ['word:var', 'word:s', 'punct:=', 'unreadable!:"""a""";']],
    ['c', 'auto s = R"d(a)" )d";', ['word:auto', 'word:s', 'punct:=', 'word:R', 'string:"d(a)" )d"', 'punct:;']],
  ] as const)('%s %j', (language, text, tokens) => {
    expect(cFamily(language)(text)).toEqual(tokens);
  });

  it('reports what is open at the end of a prefix', () => {
    const lexer = new CFamilyLexer('f(`a${ [b', 'javascript');
    while (lexer.next() !== null);
    expect(lexer.opened).toEqual(['(', '`', '${', '[']);
    expect(lexer.templateNesting).toBe(2);
    expect(lexer.holes).toBe(1);
  });

  it('marks a division after } as undecidable and a stray closer as closing nothing', () => {
    const lexer = new CFamilyLexer('{} / x )', 'javascript');
    const tokens = [];
    for (let token = lexer.next(); token !== null; token = lexer.next()) tokens.push(token);
    expect(tokens.find((t) => t.afterBrace === true)?.start).toBe(3);
    expect(tokens.at(-1)?.closes).toBe('nothing');
  });
});

describe('Python core', () => {
  const py = (text: string): string[] => stream(new PythonLexer(text), text);
  it.each([
    ['x = "a # b"  # c', ['name:x', 'op:=', 'string:"a # b"', 'comment:# c']],
    ["rb'\\''", ["string:rb'\\''"]],
    ['if"x"', ['name:if', 'string:"x"']],
    ['"""a\n# b\n"""', ['string:"""a\n# b\n"""']],
    ['"""open', ['string!:"""open']],
    ["'open\nx", ["string!:'open", 'newline:\n', 'name:x']],
    ['x = 1 + \\\n    2', ['name:x', 'op:=', 'number:1', 'op:+', 'continuation:\\\n', 'number:2']],
    ['a **= b // c', ['name:a', 'op:**=', 'name:b', 'op://', 'name:c']],
  ])('%j', (text, tokens) => {
    expect(py(text)).toEqual(tokens);
  });

  it('reads f-string fields: plain ones pass, ones holding their own quote, a comment or a break do not', () => {
    const first = (text: string) => new PythonLexer(text).next();
    expect(first('f"{a} and {b!r:>{w}}"')).toMatchObject({ formatted: true, closed: true });
    expect(first('f"{a} and {b!r:>{w}}"')?.fieldsUnreadable).toBeUndefined();
    expect(first('f"{d["k"]}"')).toMatchObject({ fieldsUnreadable: true });
    expect(first('f"""{a # b\n}"""')).toMatchObject({ fieldsUnreadable: true });
    expect(first('f"{{not a field"')?.fieldsUnreadable).toBeUndefined();
    expect(first('"a\\\nb"')).toMatchObject({ continued: true });
  });

  it('tracks brackets and stray closers', () => {
    const lexer = new PythonLexer('f(a, [b)');
    const closes = [];
    for (let token = lexer.next(); token !== null; token = lexer.next()) if (token.closes) closes.push(token.closes);
    expect(closes).toEqual(['nothing']);
    expect(lexer.opened).toEqual(['(', '[']);
  });
});

describe('shell cores', () => {
  const sh = (text: string): string[] => stream(new ShellLexer(text), text);
  it.each([
    ['echo a#b # c', ['word:echo', 'word:a', 'punct:#', 'word:b', 'line-comment:# c']],
    ['echo $# ${#x}', ['word:echo', 'word:$', 'punct:#', 'word:$', 'punct:{', 'punct:#', 'word:x', 'punct:}']],
    ["echo 'a\nb' \"c\"", ['word:echo', "string:'a\nb'", 'string:"c"']],
    ['x=$(date) # n', ['word:x', 'punct:=', 'substitution-open:$(', 'word:date', 'substitution-close:)', 'line-comment:# n']],
    ['cat <<-EOF\n\tbody\n\tEOF\nls', ['word:cat', 'heredoc:<<-EOF', 'newline:\n', 'heredoc-body:\tbody\n\tEOF\n', 'word:ls']],
    ['cat <<EOF\nbody', ['word:cat', 'heredoc:<<EOF', 'newline:\n', 'heredoc-body!:body']],
    ['ls (#i)a', ['word:ls', 'punct:(', 'unreadable!:#i)a']],
    ['echo `date`', ['word:echo', 'unreadable!:`date`']],
    ['a\r# b', ['word:a', 'punct:\r', 'punct:#', 'word:b']],
  ])('POSIX %j', (text, tokens) => {
    expect(sh(text)).toEqual(tokens);
  });

  it('flags double-quoted strings that run code or hold an unreadable ${', () => {
    const first = (text: string) => new ShellLexer(text).next();
    expect(first('"$(date)"')).toMatchObject({ substitutes: true });
    expect(first('"${a"b}"')).toMatchObject({ parameterTrouble: true });
    expect(first('"${a} b"')).toMatchObject({ substitutes: false, parameterTrouble: false });
    const lexer = new ShellLexer('x=$( $(a) ');
    while (lexer.next() !== null);
    expect(lexer.substitutionDepth).toBe(1);
  });

  const ps = (text: string): string[] => stream(new PowerShellLexer(text), text);
  it.each([
    ['$x = 1 # c', ['word:$x', 'punct:=', 'word:1', 'line-comment:# c']],
    ['<# a #> $y', ['block-comment:<# a #>', 'word:$y']],
    ["'it''s' \"a`\"b\"", ["string:'it''s'", 'string:"a`"b"']],
    ['$s = \u201ca # b\u201d', ['word:$s', 'punct:=', 'string:\u201ca # b\u201d']],
    ["@'\nx\n'@ # c", ["here-string:@'\nx\n'@", 'line-comment:# c']],
    ['Get-X `\n -A', ['word:Get', 'punct:-', 'word:X', 'continuation:`\n', 'punct:-', 'word:A']],
    ['$a#b', ['word:$a', 'unreadable!:#b']],
  ])('PowerShell %j', (text, tokens) => {
    expect(ps(text)).toEqual(tokens);
  });

  it('reads batch files by line: REM lines are remarks, :: labels are code', () => {
    expect(batchLines('@echo off\n  @ rem one\r\n:: two\n\nREMARK').map((line) => line.kind)).toEqual(['code', 'remark', 'code', 'blank', 'code']);
    expect(batchLines('rem a b')[0]?.body).toBe(' a b');
  });
});

describe('every core covers its text with contiguous tokens', () => {
  const pieces = ['a', '1', ' ', '\n', '\r', '\r\n', '/', '*', '#', '"', "'", '`', '$', '{', '}', '(', ')', '[', ']', '<', '@', '\\', 'r', 'f', '\u2028', '\u00a0', '\u201c', ';', '-', '<<', '$(', '${', '<#', '#>', '"""', 'EOF'];
  const cores: [string, (text: string) => Lexer][] = [
    ...(['javascript', 'go', 'rust', 'java', 'kotlin', 'csharp', 'c'] as const).map((l): [string, (text: string) => Lexer] => [l, (text) => new CFamilyLexer(text, l)]),
    ['python', (text) => new PythonLexer(text)],
    ['shell', (text) => new ShellLexer(text)],
    ['powershell', (text) => new PowerShellLexer(text)],
  ];
  it.each(cores)('%s', (_name, make) => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        const lexer = make(text);
        let at = 0;
        for (let token = lexer.next(); token !== null; token = lexer.next()) {
          expect(token.start).toBe(at);
          // an empty token is only the report that a template is left open at the very end
          if (token.end === token.start) expect(token.end).toBe(text.length);
          else expect(token.end).toBeGreaterThan(token.start);
          at = token.end;
        }
        expect(at).toBe(text.length);
      }),
      { numRuns: 2000, seed: 12 },
    );
  });
});
