/**
 * The taint shapes: how a value gets from its source to the sink (directly, through locals, string
 * building, a collection, a same-file helper), and the safe twins (sanitised, allow-listed, a dead
 * constant branch, overwritten by a constant). Each variant returns the case's parts, or undefined
 * where the shape does not apply to the family.
 */
import type { FamilyLanguage, Sanitiser, Sink } from './catalogue.js';
import type { Dialect } from './dialects.js';
import type { Framework, Parts, Source } from './frameworks.js';

export type Label = 'vulnerable' | 'safe';
export const TAINT_SHAPES = ['direct', 'locals', 'string-building', 'collection', 'helper', 'sanitised', 'allow-list', 'constant-branch', 'constant-overwrite'] as const;
export type TaintShape = (typeof TAINT_SHAPES)[number];

export interface Ctx {
  d: Dialect;
  fl: FamilyLanguage;
  sink: Sink;
  fw: Framework;
  src: Source;
  /** Rotation index of this case within its family and language. */
  k: number;
}

/** What a variant adds over the source, the sink's setup and the framework. */
export interface Piece {
  body: string[];
  imports?: string[];
  fields?: string[];
  helpers?: string[];
  /** Overrides the sink's own "leaves the handler". */
  returns?: boolean;
}
type Variant = (c: Ctx) => Piece | undefined;

const name = (c: Ctx, camel: string): string => (c.d.language === 'python' ? camel.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`) : camel);
const stmt = (c: Ctx, call: string): string => (c.d.language === 'python' ? call : `${call};`);
const payload = (c: Ctx, expr: string): string => c.d.cat([c.d.lit(c.fl.prefix), expr, c.d.lit(c.fl.suffix)]);
const mark = (c: Ctx, line: string): string => line + c.d.marker;
/** The sink over `expr` wrapped in the family's constant text, then what follows it. */
const sinkAt = (c: Ctx, expr: string): string[] => [mark(c, c.sink.line(payload(c, expr))), ...c.sink.after];
const sinkWhole = (c: Ctx, whole: string): string[] => [mark(c, c.sink.line(whole)), ...c.sink.after];
const value = (c: Ctx): string => c.d.v('value');
const constant = (c: Ctx): string => c.d.lit(c.fl.constant);
const javaCollections = (c: Ctx): string[] => c.d.collectionImports;
const allowedField = (c: Ctx): string[] => [c.d.allowedDecl(c.fl.allowed)];
const nonEmptyCheck = (c: Ctx, e: string): string =>
  ({ python: e, java: `${e} != null && !${e}.isEmpty()`, javascript: e, typescript: e, php: `${e} !== ''` })[c.d.language];

function sanitisedWith(san: Sanitiser): Variant {
  return (c) => ({ body: [c.d.decl('value', san.expr(c.src.expr)), ...sinkAt(c, value(c))], imports: san.imports });
}

const direct: Record<Label, Variant[]> = {
  vulnerable: [(c) => ({ body: sinkAt(c, c.src.expr) })],
  safe: [(c) => ({ body: [c.d.decl('requested', c.src.expr), c.d.log('lookup requested for', c.d.v('requested')), ...sinkAt(c, constant(c))] })],
};

const locals: Record<Label, Variant[]> = {
  vulnerable: [
    (c) => ({ body: [c.d.decl('raw', c.src.expr), c.d.decl('copied', c.d.v('raw')), c.d.decl('value', c.d.trim(c.d.v('copied'))), ...sinkAt(c, value(c))] }),
    (c) => ({ body: [c.d.decl('raw', c.src.expr), c.d.decl('lowered', c.d.lower(c.d.v('raw'))), c.d.decl('value', c.d.v('lowered')), ...sinkAt(c, value(c))] }),
  ],
  safe: [(c) => ({ body: [c.d.decl('raw', c.src.expr), c.d.decl('value', constant(c)), c.d.log('ignoring requested value', c.d.v('raw')), ...sinkAt(c, value(c))] })],
};

function building(idiomOffset: number, label: Label): Variant {
  return (c) => {
    if (c.fl.noStringBuilding === true) return undefined;
    const [pre, suf] = c.fl.build ?? [c.fl.prefix, c.fl.suffix];
    const idiom = c.d.builds[(c.k + idiomOffset) % c.d.builds.length];
    if (!idiom) return undefined;
    const built = idiom(value(c), pre, suf);
    const head = label === 'vulnerable' ? [c.d.decl('value', c.src.expr)] : [c.d.decl('requested', c.src.expr), c.d.log('building for', c.d.v('requested')), c.d.decl('value', constant(c))];
    return { body: [...head, ...built.lines, ...sinkWhole(c, built.result)] };
  };
}

const stringBuilding: Record<Label, Variant[]> = {
  vulnerable: [building(0, 'vulnerable'), building(1, 'vulnerable')],
  safe: [building(2, 'safe')],
};

const listCase = (index: number): Variant => (c) => ({
  body: [...c.d.listNew('items', constant(c)), c.d.listAdd('items', c.src.expr), c.d.listAdd('items', c.d.lit('trailing')), c.d.decl('value', c.d.listGet('items', index)), ...sinkAt(c, value(c))],
  imports: javaCollections(c),
});
const mapCase = (key: string): Variant => (c) => ({
  body: [c.d.mapNew('options'), c.d.mapPut('options', 'mode', constant(c)), c.d.mapPut('options', 'target', c.src.expr), c.d.decl('value', c.d.mapGet('options', key)), ...sinkAt(c, value(c))],
  imports: javaCollections(c),
});
/** Python's configparser: a two-level store read back by section and option. */
const configCase = (option: string): Variant => (c) =>
  c.d.language !== 'python'
    ? undefined
    : {
        body: ['settings = configparser.ConfigParser()', 'settings.add_section("lookup")', `settings.set("lookup", "mode", ${constant(c)})`, `settings.set("lookup", "target", ${c.src.expr})`, `value = settings.get("lookup", "${option}")`, ...sinkAt(c, value(c))],
        imports: ['import configparser'],
      };
const collection: Record<Label, Variant[]> = {
  vulnerable: [listCase(1), mapCase('target'), configCase('target')],
  safe: [listCase(0), mapCase('mode'), configCase('mode')],
};

const helper: Record<Label, Variant[]> = {
  vulnerable: [
    (c) => {
      const fn = name(c, 'normaliseInput');
      return { helpers: [c.d.fn(fn, 'input', [], c.d.trim(c.d.v('input')), c.fw.member).join('\n')], body: [c.d.decl('value', c.d.call(fn, [c.src.expr], c.fw.member)), ...sinkAt(c, value(c))] };
    },
    (c) => ({ helpers: [c.d.dataClass('Lookup', 'term', undefined, c.fw.member).join('\n')], body: [c.d.decl('value', c.d.newData('Lookup', c.src.expr, 'term', c.fw.member)), ...sinkAt(c, value(c))] }),
  ],
  safe: [
    (c) => {
      const fn = name(c, 'fallbackFor');
      return {
        helpers: [c.d.fn(fn, 'input', [c.d.log('no lookup for', c.d.v('input'))], constant(c), c.fw.member).join('\n')],
        body: [c.d.decl('value', c.d.call(fn, [c.src.expr], c.fw.member)), ...sinkAt(c, value(c))],
      };
    },
    (c) => {
      const good = c.fl.good[0];
      if (!good) return undefined;
      const fn = name(c, 'cleanInput');
      return { imports: good.imports, helpers: [c.d.fn(fn, 'input', [], good.expr(c.d.v('input')), c.fw.member).join('\n')], body: [c.d.decl('value', c.d.call(fn, [c.src.expr], c.fw.member)), ...sinkAt(c, value(c))] };
    },
    (c) => ({ helpers: [c.d.dataClass('Lookup', 'term', constant(c), c.fw.member).join('\n')], body: [c.d.decl('value', c.d.newData('Lookup', c.src.expr, 'term', c.fw.member)), ...sinkAt(c, value(c))] }),
  ],
};

const sanitised = (fl: FamilyLanguage): Record<Label, Variant[]> => ({
  vulnerable: fl.bad.map(sanitisedWith),
  safe: [
    ...fl.good.map(sanitisedWith),
    ...fl.safeSinks.map(
      (safe): Variant =>
        (c) => {
          const lines = safe(value(c));
          const last = lines.pop() ?? '';
          return { body: [c.d.decl('value', c.src.expr), ...lines, mark(c, last)], imports: c.fl.safeSinkImports ?? [], returns: false };
        },
    ),
  ],
});

/** Normalise then check the prefix (safe), or check the prefix before normalising (vulnerable). */
function pathCheck(label: Label): Variant {
  return (c) => {
    if (c.fl.pathCheck !== true) return undefined;
    const safe = label === 'safe';
    const v = value(c);
    const byLanguage: Record<string, Piece> = {
      python: {
        imports: ['import os'],
        fields: ['BASE_DIR = "/srv/app/uploads"'],
        body: safe
          ? ['full = os.path.realpath(os.path.join(BASE_DIR, value))', ...c.d.ifThen('not full.startswith(BASE_DIR + os.sep)', c.fw.refuse)]
          : ['full = os.path.join(BASE_DIR, value)', ...c.d.ifThen('not full.startswith(BASE_DIR)', c.fw.refuse)],
      },
      java: {
        imports: ['import java.nio.file.Path;', 'import java.nio.file.Paths;'],
        body: safe
          ? ['Path base = Paths.get("/srv/app/uploads");', `Path resolved = base.resolve(${v}).normalize();`, ...c.d.ifThen('!resolved.startsWith(base)', c.fw.refuse), 'String full = resolved.toString();']
          : ['String full = "/srv/app/uploads/" + value;', ...c.d.ifThen('!full.startsWith("/srv/app/uploads/")', c.fw.refuse)],
      },
      javascript: {
        imports: ['import path from "node:path";'],
        fields: ['const BASE_DIR = "/srv/app/uploads";'],
        body: safe
          ? ['const full = path.resolve(BASE_DIR, value);', ...c.d.ifThen('!full.startsWith(BASE_DIR + path.sep)', c.fw.refuse)]
          : ['const full = path.join(BASE_DIR, value);', ...c.d.ifThen('!path.join(BASE_DIR, value).includes(BASE_DIR)', c.fw.refuse)],
      },
      php: {
        fields: ["const BASE_DIR = '/srv/app/uploads';"],
        body: safe
          ? ["$full = realpath(BASE_DIR . '/' . $value);", ...c.d.ifThen("$full === false || !str_starts_with($full, BASE_DIR . '/')", c.fw.refuse)]
          : ["$full = BASE_DIR . '/' . $value;", ...c.d.ifThen('!str_starts_with($full, BASE_DIR)', c.fw.refuse)],
      },
    };
    const piece = byLanguage[c.d.language === 'typescript' ? 'javascript' : c.d.language];
    if (!piece) return undefined;
    return { ...piece, body: [c.d.decl('value', c.src.expr), ...piece.body, ...sinkWhole(c, c.d.v('full'))] };
  };
}

/** A same-file `isAllowed(input)` helper over the allow-list, and its call on the value. */
function allowedHelper(c: Ctx): { piece: Omit<Piece, 'body'>; call: string } {
  const fn = name(c, 'isAllowed');
  return {
    piece: { fields: allowedField(c), imports: javaCollections(c), helpers: [c.d.fn(fn, 'input', [], c.d.inAllowed(c.d.v('input')), c.fw.member, 'boolean').join('\n')] },
    call: c.d.call(fn, [value(c)], c.fw.member),
  };
}

const allowList: Record<Label, Variant[]> = {
  vulnerable: [
    (c) => ({
      fields: allowedField(c),
      imports: javaCollections(c),
      body: [c.d.decl('value', c.src.expr), ...c.d.ifThen(c.d.not(c.d.inAllowed(value(c))), [c.d.log('unexpected value', value(c))]), ...sinkAt(c, value(c))],
    }),
    (c) => {
      const check = allowedHelper(c);
      return { ...check.piece, body: [c.d.decl('value', c.src.expr), stmt(c, check.call), ...sinkAt(c, value(c))] };
    },
    pathCheck('vulnerable'),
  ],
  safe: [
    (c) => ({ fields: allowedField(c), imports: javaCollections(c), body: [c.d.decl('value', c.src.expr), ...c.d.ifThen(c.d.not(c.d.inAllowed(value(c))), c.fw.refuse), ...sinkAt(c, value(c))] }),
    (c) => ({
      fields: allowedField(c),
      imports: javaCollections(c),
      body: [c.d.decl('value', c.src.expr), ...c.d.ifThen(c.d.inAllowed(value(c)), sinkAt(c, value(c)), c.fw.refuse)],
      returns: c.sink.returns,
    }),
    (c) => {
      const check = allowedHelper(c);
      return { ...check.piece, body: [c.d.decl('value', c.src.expr), ...c.d.ifThen(c.d.not(check.call), c.fw.refuse), ...sinkAt(c, value(c))] };
    },
    pathCheck('safe'),
  ],
};

/** `live` is which arm the constant condition takes: the constant one for safe cases. */
function ternaryCase(label: Label): Variant {
  return (c) => ({ body: [c.d.decl('value', c.d.ternary(label === 'safe' ? '7 * 18 > 100' : '7 * 18 < 100', constant(c), c.src.expr)), ...sinkAt(c, value(c))] });
}
function ifCase(label: Label): Variant {
  return (c) => {
    const [live, dead] = label === 'safe' ? [constant(c), c.src.expr] : [c.src.expr, constant(c)];
    const empty = c.d.declEmpty('value');
    return {
      body: [c.d.decl('num', '86', { type: 'int' }), ...(empty ? [empty] : []), ...c.d.ifThen(`(7 * 42) - ${c.d.v('num')} > 200`, [c.d.set('value', live)], [c.d.set('value', dead)]), ...sinkAt(c, value(c))],
    };
  };
}
function switchCase(label: Label): Variant {
  return (c) => {
    const [onB, other] = label === 'safe' ? [constant(c), c.src.expr] : [c.src.expr, constant(c)];
    const empty = c.d.declEmpty('value');
    const set = (e: string): string[] => [c.d.set('value', e)];
    return {
      body: [
        c.d.decl('choice', c.d.charAt('ABC', 1), { type: 'char' }),
        ...(empty ? [empty] : []),
        ...c.d.switchOn(c.d.v('choice'), [
          [c.d.charLit('A'), set(other)],
          [c.d.charLit('B'), set(onB)],
          [undefined, set(other)],
        ]),
        ...sinkAt(c, value(c)),
      ],
    };
  };
}
function flagCase(label: Label): Variant {
  return (c) => {
    const flag = label === 'safe' ? 'false' : 'true';
    const field = { python: `DEBUG_LOOKUPS = ${label === 'safe' ? 'False' : 'True'}`, java: `private static final boolean DEBUG_LOOKUPS = ${flag};`, javascript: `const DEBUG_LOOKUPS = ${flag};`, typescript: `const DEBUG_LOOKUPS = ${flag};`, php: `const DEBUG_LOOKUPS = ${flag};` }[c.d.language];
    const empty = c.d.declEmpty('value');
    return { fields: [field], body: [...(empty ? [empty] : []), ...c.d.ifThen('DEBUG_LOOKUPS', [c.d.set('value', c.src.expr)], [c.d.set('value', constant(c))]), ...sinkAt(c, value(c))] };
  };
}
const constantBranch: Record<Label, Variant[]> = {
  vulnerable: [ternaryCase('vulnerable'), ifCase('vulnerable'), switchCase('vulnerable'), flagCase('vulnerable')],
  safe: [ternaryCase('safe'), ifCase('safe'), switchCase('safe'), flagCase('safe')],
};

const constantOverwrite: Record<Label, Variant[]> = {
  vulnerable: [
    (c) => ({
      body: [c.d.decl('value', constant(c), { mutable: true }), c.d.decl('requested', c.src.expr), ...c.d.ifThen(nonEmptyCheck(c, c.d.v('requested')), [c.d.set('value', c.d.v('requested'))]), ...sinkAt(c, value(c))],
    }),
    (c) => ({
      body: [c.d.mapNew('options'), c.d.mapPut('options', 'target', c.src.expr), c.d.mapPut('options', 'mode', constant(c)), c.d.decl('value', c.d.mapGet('options', 'target')), ...sinkAt(c, value(c))],
      imports: javaCollections(c),
    }),
  ],
  safe: [
    (c) => ({ body: [c.d.decl('value', c.src.expr, { mutable: true }), c.d.log('received', value(c)), c.d.set('value', constant(c)), ...sinkAt(c, value(c))] }),
    (c) => ({
      body: [c.d.mapNew('options'), c.d.mapPut('options', 'target', c.src.expr), c.d.mapPut('options', 'target', constant(c)), c.d.decl('value', c.d.mapGet('options', 'target')), ...sinkAt(c, value(c))],
      imports: javaCollections(c),
    }),
  ],
};

/** The variants of each shape and label for one family in one language. */
export function taintVariants(fl: FamilyLanguage): Record<TaintShape, Record<Label, Variant[]>> {
  return {
    direct,
    locals,
    'string-building': stringBuilding,
    collection,
    helper,
    sanitised: sanitised(fl),
    'allow-list': allowList,
    'constant-branch': constantBranch,
    'constant-overwrite': constantOverwrite,
  };
}

/** Assemble a variant's piece with its source, sink and framework into the file's parts. */
export function assemble(c: Ctx, piece: Piece): Parts {
  return {
    imports: [...c.src.imports, ...c.sink.imports, ...(piece.imports ?? [])],
    fields: [...c.sink.fields, ...(piece.fields ?? [])],
    helpers: piece.helpers ?? [],
    params: [...c.src.params, ...c.sink.params],
    body: [...c.src.prelude, ...c.sink.setup, ...piece.body],
    returns: piece.returns ?? c.sink.returns,
  };
}
