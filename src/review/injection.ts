/**
 * The prompt-injection detector (seed step 6). Text on added lines that tries to steer a reviewer or
 * a model becomes a `jscr/prompt-injection-attempt` finding. It is reported, never obeyed; the real
 * control is that the model cannot act. The signals are deliberately narrow: each needs injection
 * phrasing, not a lone keyword, so `ignore = [...]` or `system: linux` never fire.
 */
import type { Finding } from '../report/finding.js';
import { makeFinding } from '../report/fingerprint.js';
import { placementRules, type Placement } from './injection-context.js';

const PROMPT_INJECTION_RULE = 'jscr/prompt-injection-attempt';

/**
 * One way text can address a model. It fires when, for some entry of `anyOf`, every regex in that
 * entry matches the (de-obfuscated) line. Co-occurrence is tested with separate regexes rather than
 * `.*` joins, which would backtrack quadratically on long lines.
 */
interface PhraseSignal {
  id: string;
  description: string;
  confidence: number;
  anyOf: RegExp[][];
}

// Words a chat-role comment must carry to count as an instruction rather than a label. A bare
// must/never/always is how parameter docs read (`# assistant: the client; never None`), so those
// count only with a verb aimed at the reader's output.
const INSTRUCTION_WORDS =
  '\\b(?:you|your|ignore|disregard|instructions?|respond|reply|approve|pretend|from now on)\\b|' +
  "\\b(?:must|always|never|do not|don't)\\s+(?:report|flag|mention|raise|approve|ignore|say|respond|reply|answer|output|follow|obey|treat|mark|consider|list)\\b";
const MODEL_NAMES =
  '(?:AI|LLMs?|GPT(?:-?\\d[\\w.]*)?|ChatGPT|Claude|Copilot|Gemini|language\\s+models?|AI\\s+models?|' +
  'AI\\s+(?:reviewer|assistant|agent|auditor|scanner)s?|automated\\s+(?:reviewer|review|scanner)s?|' +
  'security\\s+(?:scanner|reviewer|tool|bot)s?|code\\s+review\\s+bot)';
const REVIEW_OUTCOME =
  "\\b(?:(?:approve|ignore|skip|overlook|allowlist|whitelist)\\b|" +
  '(?:mark|treat|consider|classify|report|label|rate)\\s+(?:(?:this|it|the|this\\s+\\w+|the\\s+\\w+)\\s+)?(?:as\\s+)?' +
  '(?:safe|secure|benign|clean|harmless|approved|a\\s+false\\s+positive|not\\s+vulnerable|low\\s+risk)|' +
  "(?:do\\s+not|don't|never)\\s+(?:report|flag|mention|raise)|no\\s+(?:issues|vulnerabilities|findings)\\b)";

/** The phrase signals, strongest first. */
const PHRASE_SIGNALS: PhraseSignal[] = [
  {
    id: 'ignore-instructions',
    description: 'tells the reader to ignore its previous instructions',
    confidence: 0.9,
    anyOf: [[
      new RegExp(
        '\\b(?:ignore|disregard|forget|override)\\s+(?:(?:all|any|the|your|of|these|those|every|my)\\s+){0,3}' +
          '(?:(?:previous|prior|above|earlier|preceding|original|system|initial|foregoing)\\s+)?' +
          "(?:instructions|prompts?|system\\s+prompt)\\b|" +
          '\\b(?:ignore|disregard|forget|override)\\s+(?:(?:all|any|the|your|of)\\s+){0,3}' +
          '(?:previous|prior|above|earlier|preceding|original|system|initial|foregoing)\\s+' +
          '(?:rules|directions|guidelines|guidance|context|messages|constraints|commands)\\b',
        'i',
      ),
    ]],
  },
  {
    id: 'role-reassignment',
    description: 'tries to give the reader a new role',
    confidence: 0.8,
    anyOf: [[
      new RegExp(
        '\\byou\\s+are\\s+now\\s+(?:(?:a|an|the|in|my)\\s+)?(?:[\\w-]+\\s+){0,2}' +
          '(?:assistant|ai|model|reviewer|bot|agent|jailbroken|dan|unrestricted|unfiltered|mode|persona)\\b|' +
          '\\bfrom\\s+now\\s+on,?\\s+you\\s+(?:are|will|must|should)\\b',
        'i',
      ),
    ]],
  },
  {
    id: 'chat-template-token',
    description: 'contains a chat-template role token',
    confidence: 0.7,
    anyOf: [[/<\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id)\|>|\[\/?INST\]|<<\/?SYS>>/]],
  },
  {
    id: 'role-marker',
    description: 'starts a chat role (system/assistant/human) with an instruction, inside a comment or string',
    confidence: 0.7,
    anyOf: [
      [
        new RegExp(
          '^\\s*(?:\\/\\/+|#+|\\/\\*+|\\*+|<!--|--|;+)\\s*(?:system|assistant|human)\\s*:\\s*\\S' +
            `|^\\s*(?:Human|Assistant|System):\\s+\\S|<system>\\s*\\S`,
          'i',
        ),
        new RegExp(INSTRUCTION_WORDS, 'i'),
      ],
      // In a string a role marker is what an LLM application's own prompt template looks like
      // ("System: You are a support bot..."); there it counts only when it asks for a review verdict.
      [/["'`]\s*(?:system|assistant|human|user|developer)\s*:\s*\S/i, new RegExp(REVIEW_OUTCOME, 'i')],
    ],
  },
  {
    id: 'instruction-heading',
    description: 'contains an instruction-tuning heading',
    confidence: 0.6,
    anyOf: [[/###\s*(?:Instruction|System(?:\s+Prompt)?)\s*:/i]],
  },
  {
    id: 'do-not-report',
    description: 'asks for findings not to be reported',
    confidence: 0.8,
    anyOf: [[
      new RegExp(
        "\\b(?:do\\s+not|don't|dont|never)\\s+(?:report|flag|mention|raise|disclose)\\s+" +
          '(?:this|these|that|those|any|the|it|them)\\s+(?:(?:security|potential|possible|known)\\s+)?' +
          '(?:issues?|vulnerabilit(?:y|ies)|findings?|problems?|flaws?)\\b',
        'i',
      ),
    ]],
  },
  {
    id: 'addressed-to-model',
    description: 'addresses an AI, LLM or automated reviewer and asks for a verdict',
    confidence: 0.85,
    anyOf: [[
      new RegExp(
        `\\b${MODEL_NAMES}\\s*[:,]|\\b(?:hey|dear|attention|hello)\\s*,?\\s+(?:the\\s+)?${MODEL_NAMES}\\b|` +
          `\\bif\\s+you\\s+are\\s+(?:an?\\s+)?${MODEL_NAMES}\\b`,
        'i',
      ),
      new RegExp(REVIEW_OUTCOME, 'i'),
    ]],
  },
  {
    id: 'note-to-model',
    description: 'leaves a note for an AI or automated reviewer',
    confidence: 0.75,
    anyOf: [[new RegExp(`\\b(?:note|message|instructions?|reminder)\\s+(?:to|for)\\s+(?:the\\s+|any\\s+|all\\s+)?${MODEL_NAMES}\\b`, 'i')]],
  },
  {
    id: 'as-an-ai',
    description: 'speaks in the voice of an AI model',
    confidence: 0.5,
    anyOf: [[/\bas\s+an\s+AI\s+(?:language\s+model|assistant|model)\b/i]],
  },
  {
    id: 'claims-reviewed-safe',
    description: 'claims the code is safe and needs no review',
    confidence: 0.8,
    anyOf: [
      [/\bno\s+need\s+to\s+(?:review|scan|audit|flag|report|check)\s+(?:this|it|these|the)\b/i],
      [
        /\b(?:this|the)\s+(?:code|file|change|changes|function|module|diff|commit|PR|pull\s+request|snippet|script|class|method)\s+(?:is|are|has\s+been|was)\s+(?:(?:already|completely|totally|perfectly|fully|100%)\s+)?(?:safe|secure|verified|audited|vetted|reviewed|approved)\b/i,
        /\b(?:no\s+need|doesn't\s+need|does\s+not\s+need|needs\s+no|skip|without)\s+(?:(?:a|an|any|the|to|be|further|security)\s+){0,3}(?:review|reviewing|scan|scanning|audit|check|checking|analysis|flag|flagging|report|reporting)\b/i,
      ],
    ],
  },
];

// Every phrase signal needs one of these words; a line without any skips the phrase regexes.
// Keep it a superset of the signals above (the tests' positive table checks that it is).
const PHRASE_PREFILTER =
  /ignore|disregard|forget|override|you\s+are\s+now|from\s+now\s+on|<\||\[\/?INST\]|<<\/?SYS>>|system|assistant|human|user|developer|###|not|don't|dont|never|\bai|llm|gpt|claude|copilot|gemini|language\s+model|automated|security|code\s+review|as\s+an|no\s+need|safe|secure|verified|audited|vetted|reviewed|approved/i;

// Invisible characters. Tag characters (U+E0000–U+E007F) spell ASCII that no editor shows;
// zero-width characters can hide text or split keywords.
const TAG_CHAR = /[\u{E0000}-\u{E007F}]/u;
const ZERO_WIDTH_RUN = /[\u200B-\u200D\u2060\uFEFF]{2,}/;
// A single zero-width character between ASCII letters or digits has no typographic use: it splits a word.
const ZERO_WIDTH_IN_WORD = /[A-Za-z0-9][\u200B-\u200D\u2060\uFEFF][A-Za-z0-9]/;
const INVISIBLE_GLOBAL = /[\u{E0000}-\u{E007F}\u200B-\u200F\u2060-\u2064\uFEFF\u202A-\u202E\u2066-\u2069]/gu;
const HIDDEN_GLOBAL = /[\u{E0000}-\u{E007F}\u200B-\u200D\u2060\uFEFF]/gu;
const ANY_INVISIBLE = /[\u{E0000}-\u{E007F}\u200B-\u200D\u2060\uFEFF]/u;

/** Show invisible and direction-control characters as `\u{XXXX}` so the report reveals them. */
export function revealInvisible(text: string): string {
  return text.replace(INVISIBLE_GLOBAL, (char) => `\\u{${(char.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`);
}

/** The ASCII that Unicode tag characters in `text` spell (U+E0020–U+E007E map to ' '–'~'). */
export function decodeTagCharacters(text: string): string {
  let decoded = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0xe0020 && code <= 0xe007e) decoded += String.fromCharCode(code - 0xe0000);
  }
  return decoded;
}

interface Hit {
  id: string;
  description: string;
  confidence: number;
  /** Where the signal's text starts and ends in the line (UTF-16 offsets). */
  start: number;
  end: number;
}

/** The evidence is a window of the line around what matched: this much before it and after its start. */
const EVIDENCE_BEFORE = 120;
const EVIDENCE_AFTER = 240;
/** The hidden text decoded from tag characters, as shown in the finding: enough to read, never the file. */
const MAX_DECODED = 2000;

/** Where every regex of one co-occurrence entry matches in `text`, or null when one does not. */
function spansOf(all: readonly RegExp[], text: string): { start: number; end: number }[] | null {
  const spans: { start: number; end: number }[] = [];
  for (const pattern of all) {
    const found = pattern.exec(text);
    if (found === null) return null;
    spans.push({ start: found.index, end: found.index + found[0].length });
  }
  return spans;
}

/** The phrase signals present in `text`, each with the spans of what matched. */
function phraseHits(text: string): (Hit & { spans: { start: number; end: number }[] })[] {
  if (!PHRASE_PREFILTER.test(text)) return [];
  const hits: (Hit & { spans: { start: number; end: number }[] })[] = [];
  for (const signal of PHRASE_SIGNALS) {
    for (const all of signal.anyOf) {
      const spans = spansOf(all, text);
      if (spans === null) continue;
      const start = Math.min(...spans.map((span) => span.start));
      const end = Math.max(...spans.map((span) => span.end));
      hits.push({ id: signal.id, description: signal.description, confidence: signal.confidence, start, end, spans });
      break;
    }
  }
  return hits;
}

// Quoted passages: double, curly and back quotes, and single quotes that are not apostrophes.
const QUOTED = /"[^"]*"|\u201C[^\u201D]*\u201D|\u2018[^\u2019]*\u2019|`[^`]*`|(?<![\p{L}\p{N}])'[^']*'(?![\p{L}\p{N}])/gu;
// Text a rendered document does not show.
const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/g;

function rangesOf(pattern: RegExp, text: string): { start: number; end: number }[] {
  return [...text.matchAll(pattern)].map((found) => ({ start: found.index, end: found.index + found[0].length }));
}

function within(span: { start: number; end: number }, ranges: readonly { start: number; end: number }[]): boolean {
  return ranges.some((range) => span.start >= range.start && span.end <= range.end);
}

/**
 * Phrases quoted as examples: in guidance text (or a test of an injection filter), a signal whose every
 * matched piece sits inside quotation marks, not in a hidden HTML comment, on a line that says nothing
 * to the reader outside its quotes. Anything addressed to the reader outside the quotes keeps its
 * finding, so naming a file AGENTS.md hides nothing.
 */
function quotedExamples(text: string, hits: readonly (Hit & { spans: { start: number; end: number }[] })[], placement: Placement): Set<string> {
  const quoted = rangesOf(QUOTED, text);
  if (quoted.length === 0) return new Set();
  const hiddenComments = rangesOf(HTML_COMMENT, text);
  let outside = text;
  for (const range of quoted) outside = `${outside.slice(0, range.start)}${' '.repeat(range.end - range.start)}${outside.slice(range.end)}`;
  if (phraseHits(outside).length > 0) return new Set();
  // In a test the string is the filter's input; in guidance the words around the quote must say it is an example.
  if (placement === 'guidance' && !placementRules().framesExample(outside)) return new Set();
  return new Set(
    hits.filter((hit) => hit.spans.every((span) => within(span, quoted) && !within(span, hiddenComments))).map((hit) => hit.id),
  );
}

/** The signals present on one added line. `atFileStart` allows a byte-order mark there. */
function signalsOf(line: string, atFileStart: boolean, placement: Placement, quotingIsNormal: boolean): { hits: Hit[]; decoded: string } {
  const hits: Hit[] = [];
  let decoded = '';
  let visible = line;
  if (ANY_INVISIBLE.test(line)) {
    const checked = atFileStart && line.startsWith('\uFEFF') ? line.slice(1) : line;
    const offset = line.length - checked.length;
    const at = (pattern: RegExp): { start: number; end: number } => {
      const found = pattern.exec(checked);
      return { start: offset + (found?.index ?? 0), end: offset + (found?.index ?? 0) + (found?.[0].length ?? 0) };
    };
    if (TAG_CHAR.test(checked)) {
      decoded = decodeTagCharacters(checked);
      hits.push({ id: 'unicode-tag-characters', description: 'hides text in invisible Unicode tag characters', confidence: 0.95, ...at(TAG_CHAR) });
    }
    // In translation data zero-width characters are the language's typography, not hidden text.
    if (placement !== 'translation') {
      if (ZERO_WIDTH_RUN.test(checked)) {
        hits.push({ id: 'zero-width-run', description: 'contains a run of zero-width characters', confidence: 0.8, ...at(ZERO_WIDTH_RUN) });
      } else if (ZERO_WIDTH_IN_WORD.test(checked)) {
        hits.push({ id: 'zero-width-in-word', description: 'splits a word with a zero-width character', confidence: 0.6, ...at(ZERO_WIDTH_IN_WORD) });
      }
    }
    // Phrases hidden by splitting words, or spelled in tag characters, are still phrases.
    visible = line.replace(HIDDEN_GLOBAL, '');
  }
  const phrases = phraseHits(visible);
  // A phrase found only once hidden characters are removed is itself hidden: never an example.
  const examples = quotingIsNormal && visible === line ? quotedExamples(visible, phrases, placement) : new Set<string>();
  for (const { spans: _spans, ...hit } of phrases) if (!examples.has(hit.id)) hits.push(hit);
  if (decoded !== '') {
    const first = hits.find((hit) => hit.id === 'unicode-tag-characters');
    for (const { spans: _spans, ...hit } of phraseHits(decoded)) {
      if (!hits.some((known) => known.id === hit.id)) hits.push({ ...hit, start: first?.start ?? 0, end: first?.end ?? 0 });
    }
  }
  return { hits, decoded };
}

/** The text of the first signal, shown, at most one evidence window long. */
function matchedText(line: string, hits: readonly Hit[], at: number): string {
  const first = hits.find((hit) => hit.start === at);
  const end = Math.min(first?.end ?? at, at + EVIDENCE_AFTER);
  return revealInvisible(line.slice(at, Math.max(end, at + 1)));
}

/** A window of `line` around `at`, invisible characters shown, with an ellipsis where it was cut. */
function evidenceWindow(line: string, at: number): string {
  const from = Math.max(0, at - EVIDENCE_BEFORE);
  const to = Math.min(line.length, at + EVIDENCE_AFTER);
  const text = line.slice(from, to);
  const shown = from === 0 ? text.trimStart() : text;
  return `${from > 0 ? '…' : ''}${revealInvisible(to === line.length ? shown.trimEnd() : shown)}${to < line.length ? '…' : ''}`;
}

/** One file's added lines, by 1-based new-file line number. */
export interface InjectionScanFile {
  path: string;
  addedLines: Map<number, string>;
}

/** Findings for text on added lines that addresses a reviewer or a model. One finding per line. */
export function injectionFindings(files: InjectionScanFile[]): Finding[] {
  return scanInjection(files, { expired: () => false }).findings;
}

/** Lines between two looks at the clock: each line costs time linear in its length. */
const CLOCK_EVERY = 256;

/**
 * `injectionFindings` under a deadline, asked between files and every CLOCK_EVERY lines; files it did
 * not finish are listed (a finding on one of their lines may still be reported).
 */
export function scanInjection(files: InjectionScanFile[], deadline: { expired(): boolean }): { findings: Finding[]; unfinished: string[] } {
  const findings: Finding[] = [];
  const unfinished: string[] = [];
  for (const file of files) {
    if (deadline.expired()) {
      unfinished.push(file.path);
      continue;
    }
    const lines = [...file.addedLines.entries()].sort((a, b) => a[0] - b[0]);
    const placement = placementRules().placementOf(file.path);
    const quotingIsNormal = placement === 'guidance' || (placement === 'test' && placementRules().isAboutInjection(file.path, file.addedLines.values()));
    let seen = 0;
    for (const [lineNumber, text] of lines) {
      if (++seen % CLOCK_EVERY === 0 && deadline.expired()) {
        unfinished.push(file.path);
        break;
      }
      const { hits, decoded } = signalsOf(text, lineNumber === 1, placement, quotingIsNormal);
      if (hits.length === 0) continue;
      // What matched, in a window: on a 390 KB minified line the start of the line says nothing.
      const at = Math.min(...hits.map((hit) => hit.start));
      const column = at + 1;
      const evidence = evidenceWindow(text, at);
      const hidden = decoded
        ? ` The hidden tag characters decode to: "${revealInvisible(decoded).slice(0, 300)}".`
        : '';
      findings.push(
        makeFinding({
          rule: PROMPT_INJECTION_RULE,
          source: 'injection',
          severity: 'high',
          confidence: Math.max(...hits.map((hit) => hit.confidence)),
          path: file.path,
          line: lineNumber,
          end_line: lineNumber,
          title: 'Text in the change addresses the reviewer or a model',
          message:
            `This added line ${hits.map((hit) => hit.description).join('; ')} (at column ${column}).${hidden} ` +
            'jscr reports such text and never follows it; find out who added it and why.',
          evidence,
          cwe: 'CWE-1427',
          extra: { signals: hits.map((hit) => hit.id), column, matched: matchedText(text, hits, at), ...(decoded ? { decoded_hidden_text: decoded.slice(0, MAX_DECODED) } : {}) },
        }),
      );
    }
  }
  return { findings, unfinished };
}
