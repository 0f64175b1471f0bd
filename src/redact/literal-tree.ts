/**
 * The generic secret's "is this a literal value" test by the syntax tree, for files whose language has
 * a grammar: the value must sit inside a string literal node (not in a template's hole, not the
 * condition of a ternary), or in a comment, where it is an example. Files without a grammar keep the
 * quoting test of src/redact/findings.ts; config and env files take an unquoted value as a literal.
 */
import type { Node, Tree } from 'web-tree-sitter';
import type { Finding } from '../report/finding.js';
import { parse, ParseStopped } from '../syntax/parser.js';
import { languageForPath, type Language } from '../syntax/languages.js';
import { secretFindings, type LiteralKind, type SecretScanFile } from './findings.js';
import { joinedSecretFindings, learnJoinedSecretsOfTree } from './joined-literals.js';
import type { SecretBook } from './mask.js';

/** String literal nodes across the grammars jscr parses (and the pieces inside them). */
const STRING_NODES = new Set([
  'string', 'string_fragment', 'string_content', 'template_string', 'string_literal', 'interpreted_string_literal',
  'raw_string_literal', 'encapsed_string', 'string_value', 'heredoc', 'heredoc_body', 'nowdoc', 'nowdoc_body',
  'character_literal', 'text_block', 'escape_sequence', 'multiline_string_fragment', 'raw_string',
]);
/** Holes in a string: what is inside one is an expression again. */
const HOLES = new Set(['template_substitution', 'interpolation', 'string_interpolation']);
/** What a condition may be wrapped in on its way up to the ternary. */
const CONDITION_PARTS = new Set(['binary_expression', 'binary_operator', 'comparison_operator', 'parenthesized_expression', 'boolean_operator']);
const TERNARIES = new Set(['ternary_expression', 'conditional_expression']);

/** How the value at [start, end) is written in `tree`. */
function literalKindAt(tree: Tree, start: number, end: number): LiteralKind {
  let node: Node | null = tree.rootNode.descendantForIndex(start, Math.max(start, end - 1));
  let literal: Node | null = null;
  for (; node !== null; node = node.parent) {
    if (node.type.includes('comment')) return 'comment';
    if (HOLES.has(node.type)) return 'code';
    if (STRING_NODES.has(node.type)) literal = node;
    else if (literal !== null) break;
  }
  if (literal === null) return 'code';
  // `secret === 'x' ? a : b`: a quoted value compared in a condition is not the value assigned.
  let part: Node = literal;
  while (part.parent !== null && CONDITION_PARTS.has(part.parent.type)) part = part.parent;
  const parent = part.parent;
  const inCondition =
    parent !== null &&
    ((TERNARIES.has(parent.type) && parent.childForFieldName('condition')?.id === part.id) || (parent.type === 'conditional_expression' && parent.namedChildren[1]?.id === part.id));
  // ...unless what it is compared with is a credential: `token === '...' ? grant() : deny()` is a hard-coded backdoor.
  if (inCondition && !comparedWithCredential(literal)) return 'code';
  return 'literal';
}

/** Names a credential goes by, as the other side of a comparison. */
const CREDENTIAL_NAME = /(pass(word|wd|phrase)?|secret|token|api_?key|credential|signature)/i;

/** Whether `literal` is one side of an equality whose other side names a credential. */
function comparedWithCredential(literal: Node): boolean {
  let side: Node = literal;
  while (side.parent !== null && side.parent.type === 'parenthesized_expression') side = side.parent;
  const comparison = side.parent;
  if (comparison === null || !CONDITION_PARTS.has(comparison.type)) return false;
  return comparison.namedChildren.some((operand) => operand !== null && operand.id !== side.id && CREDENTIAL_NAME.test(operand.text));
}

/** How long one file's parse for the secret test may take; a slower one keeps the quoting test. */
const PARSE_MS = 5_000;

/**
 * `secretFindings` with the syntax-tree literal test for files that have a grammar and a generic
 * candidate (the only ones that need a parse), and the secrets of joined literals (src/redact/joined-literals.ts).
 */
export async function secretFindingsBySyntax(files: SecretScanFile[], book: SecretBook): Promise<Finding[]> {
  const findings: Finding[] = [];
  const generic = new Set(book.rules.rules.filter((rule) => rule.generic).map((rule) => rule.id));
  for (const file of files) {
    const language = languageForPath(file.path);
    const needsTree = language !== null && book.rules.isCodePath(file.path) && book.scan(file.path, file.text).matches.some((match) => generic.has(match.rule));
    const tree = needsTree ? await parseWithin(language, file.text) : null;
    try {
      // A tree parsed here is read for joined literals too, so that reading needs no parse of its own.
      if (tree !== null && language !== null) learnJoinedSecretsOfTree(book, file.text, language, tree.rootNode);
      findings.push(...(await joinedSecretFindings(file, book)));
      const scanned = tree === null ? file : { ...file, literalAt: (start: number, end: number) => literalKindAt(tree, start, end) };
      findings.push(...secretFindings([scanned], book));
    } finally {
      tree?.delete();
    }
  }
  return findings;
}

/** The file's tree, or null when the parse took longer than PARSE_MS (the quoting test is kept then). */
async function parseWithin(language: Language, text: string): Promise<Tree | null> {
  try {
    return await parse(language, text, { stopAt: Date.now() + PARSE_MS });
  } catch (error) {
    if (error instanceof ParseStopped) return null;
    throw error;
  }
}
