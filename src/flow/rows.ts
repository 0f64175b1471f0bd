/**
 * The rows the data-flow engine interprets, in their strict (normalised) form: sources, sinks,
 * sanitisers, guards, propagators and value checks. They are written as TOML under rules/flow/ and
 * loaded by src/rules/flow-load.ts through the one data-file loader; docs/flow.md describes the file.
 *
 * Rows match on shapes of the flow IR (src/flow/ir.ts), never on source text alone: a call's callee
 * name, its receiver's declared type or text, its arity; a field path; a parameter's annotations,
 * type or handler decorators. What a finding says to users (title, message, severity) is not here: the
 * engine reports row ids and the review joins them with the report metadata the loader keeps.
 */
import type { FlowLiteral } from './ir.js';
import type { Language } from '../syntax/languages.js';
import type { StripSyntax } from './strip.js';

/** A call (or `new`) the row applies to. Every given part must hold. */
export interface CallMatcher {
  /** Callee names (`executeQuery`), or for `new`, the constructed class (`ProcessBuilder`); `*` for any. */
  names: ReadonlySet<string>;
  /** The receiver's declared type must not be one of these (simple names). */
  notReceiverTypes: ReadonlySet<string> | null;
  /** The receiver's value must carry a taint with this label (an object built from a request). */
  receiverLabel: string | null;
  /** Only `new X(...)` (true), only plain calls (false), or both (null). */
  isNew: boolean | null;
  /**
   * The receiver's declared type, simple name without generics (`Statement`). A receiver whose type the
   * engine does not know still matches unless `strictReceiver`; a known type must be listed.
   */
  receiverTypes: ReadonlySet<string> | null;
  strictReceiver: boolean;
  /** Tested against the receiver as written (`cursor`, `Runtime.getRuntime()`). */
  receiver: RegExp | null;
  /** Tested against the callee as written (`cursor.execute`, `$db->query`). */
  calleeText: RegExp | null;
  /** Exact argument count, when given. */
  arity: number | null;
  /** The module the bare callee name was imported from (`subprocess`), tested against FlowFile.imports. */
  importedFrom: RegExp | null;
  /** The module the bare callee name was imported from must not match (DRF's `Response` is not Flask's); a name not imported still matches. */
  notImportedFrom: RegExp | null;
  /** By position: each tested against that argument's constant value; a non-constant argument fails. */
  constantArguments: readonly RegExp[];
}

/**
 * Where a value of a call comes from or goes to. `path` reads into an options object or array given
 * there (`arg2.secure`: the `secure` key of the third argument).
 */
export type CallSlot =
  | { kind: 'receiver' }
  /** The callee as written, as a constant: for a value check whose algorithm is the function (`md5(x)`, `CryptoJS.DES.encrypt`). */
  | { kind: 'callee' }
  | { kind: 'return' }
  | { kind: 'argument'; index: number; path?: readonly string[] }
  | { kind: 'arguments' }
  | { kind: 'named'; name: string; path?: readonly string[] };

export interface RowOrigin {
  file: string;
  line: number | null;
}

/** Outside data entering a function. */
export interface SourceRow {
  id: string;
  /** The taint label it gives (`input`; `weak-random` for non-cryptographic random values). */
  label: string;
  /** A mark its taint carries (`form-input`: what the page's own form holds), or null. */
  mark?: string | null;
  match:
    /**
     * `fills`: the argument the call writes the value into (`random.nextBytes(buffer)`), `receiver` for
     * the object it is called on (`parser.setFeature(feature_external_ges, True)`), or null for its return.
     */
    | { kind: 'call'; call: CallMatcher; fills?: number | 'receiver' | null }
    /** Reading this access path or anything below it (`request.args`, `$_GET`, `process.env`). */
    | {
        kind: 'field';
        paths: readonly (readonly string[])[];
        /**
         * Not a source in a function whose decorators name routes (`route`) and all of them a literal rule
         * (`literal`): there the path (`request.path`) is the rule the app wrote. Null: always a source.
         */
        fixedRoute: { route: RegExp; literal: RegExp } | null;
      }
    | {
        kind: 'parameter';
        /** Tested against each annotation as written without `@` (`RequestParam("id")`). */
        annotations: RegExp | null;
        /** Tested against the parameter's declared type. */
        types: RegExp | null;
        /** Every parameter of a function whose decorators match (route handlers), except `exceptNames`. */
        handlerDecorators: RegExp | null;
        exceptNames: ReadonlySet<string>;
        /** Only parameters without annotations (a JAX-RS resource method's entity). */
        unannotated?: boolean;
      };
  origin: RowOrigin;
}

/** A use where tainted data is a weakness. */
export interface SinkRow {
  id: string;
  /** The sink kind sanitisers and guards name (`sql`, `command`, `path`...). */
  kind: string;
  cwe: string;
  /** Labels that count here; a value carrying none of them is not reported. */
  accepts: ReadonlySet<string>;
  call: CallMatcher;
  /** The slots whose value must not be tainted. */
  slots: readonly CallSlot[];
  /**
   * The sink holds only when this named argument is the literal given (`shell=True`), or when the
   * constant in the first of `slots` the call gives matches (`arg0` is `sh`, `arg1.noent` is true);
   * with `absent`, a call that leaves the setting out holds too (the library's default is the weak one).
   */
  when:
    | { kind: 'named'; named: string; equals: string | number | boolean }
    /** `matches` tests the constant as text; `anyBits`: an integer flag set with any of these bits (`LIBXML_NOENT | LIBXML_DTDLOAD`). */
    | { kind: 'slot'; slots: readonly CallSlot[]; matches: RegExp | null; anyBits: number | null; absent: boolean }
    | null;
  /**
   * The slots form a program and its arguments (`new ProcessBuilder("ping", host)`, `exec(["ls", d])`):
   * only a tainted program, or any tainted part when the program is a shell or unknown, counts.
   */
  argv: boolean;
  /**
   * The sink holds only in a project that declares one of these packages (a view engine that prints
   * variables unescaped by default); null: always.
   */
  requiresDependency: ReadonlySet<string> | null;
  /** The sink does not hold when one of these named arguments is a constant matching (`mimetype="text/plain"`). */
  unless: { named: readonly string[]; matches: RegExp } | null;
  /**
   * The sink holds only when some file of the repository contains one of these texts (the project turns
   * its engine's escaping off: benchpress's `__escape: identity`); null: always.
   */
  requiresText: readonly string[] | null;
  /** Taints carrying this mark do not count here (`through-call`: handed to a call the engine does not know). */
  ignoresMark: string | null;
  /** An object or array the code built is sent as JSON by the framework (`ctx.body = {...}`, `res.send([...])`): it does not count. */
  collectionsAreJson: boolean;
  /**
   * The slots take text (SQL): a value of a known type not in this set (`XxlJobInfo`, `Request`), or
   * an array or object the code built (`->update(['name' => $name])`, a column map the query builder
   * binds), is data handed to the library, not text it runs. Null: every value counts.
   */
  textTypes: ReadonlySet<string> | null;
  /**
   * A value a check (a guard row) vetted for any use does not count: what is stored in the session was
   * validated (`url_has_allowed_host_and_scheme(next)`). An encoder is no validation: an HTML-escaped
   * value in the session is still outside data the server later trusts.
   */
  vettedForAny: boolean;
  origin: RowOrigin;
}

/** A call whose result is clean for some sink kinds (`"*"` clears them all). */
export interface SanitiserRow {
  id: string;
  clears: ReadonlySet<string>;
  call: CallMatcher;
  /**
   * A character-class strip (`re.sub('[^a-z0-9]', '', x)`): the result is clean only for those kinds of
   * `clears` whose harmful characters cannot survive (src/flow/strip.ts); a call whose pattern is not
   * one class, or not constant, clears nothing.
   */
  strip: { pattern: CallSlot; replacement: CallSlot; syntax: StripSyntax; everyMatch: boolean } | null;
  /**
   * The call cleans its receiver where it stands, not only its result: `ois.setObjectInputFilter(filter)`
   * makes every later `ois.readObject()` safe.
   */
  inPlace?: boolean;
  origin: RowOrigin;
}

/**
 * A call that, used as a condition, vets a value: inside the arm where it holds (or after
 * `if (!check) return;`), the vetted value is clean for `clears`. `requiresMark` names a mark an earlier
 * propagator must have put on the value (a prefix check counts only on a normalised path).
 */
export interface GuardRow {
  id: string;
  clears: ReadonlySet<string>;
  call: CallMatcher;
  vets: CallSlot;
  /**
   * The list the value is checked against (`in_array($x, $list)`): the check holds only when that list
   * carries no outside data, whatever else it holds (a menu built in the file, keys of a constant table).
   */
  against: CallSlot | null;
  /** The vetted slot holds `$list[$x]` (`isset($allowed[$x])`): the key is vetted, against the subscripted list. */
  vetsKey: boolean;
  requiresMark: string | null;
  /** The check raises when it fails (Django's `resolve`): called as a statement, what follows it in its block runs only with a vetted value. */
  raises: boolean;
  /** `vets` is a slot of the call the check is called on: `PATTERN.matcher(x).matches()` vets arg0 of `matcher`. */
  vetsInReceiver?: boolean;
  origin: RowOrigin;
}

/**
 * Operations the engine models slot by slot rather than as plain taint movement: `list-add` appends
 * its last argument (or inserts at a constant index), `get` reads a constant index or key, `put` and
 * `set` write one, `remove` deletes one, `clear` empties the receiver, `property` reads a repository
 * properties value by a constant key (argument 0; argument 1 is the default), `callback-return` gives
 * what the callback in argument 0 returns (`map`, `reduce`): outside data it reads itself, the
 * receiver's when it returns what it was handed, and the other arguments (a starting value);
 * `properties-file` gives a map whose constant keys read the repository's properties (PHP's
 * `parse_ini_file(...)['key']`), `options` gives an object holding the call's keyword arguments as its
 * settings (lxml's `XMLParser(resolve_entities=False)`), read by slots such as `arg1.resolve_entities`.
 */
export const BUILTIN_OPERATIONS = ['list-add', 'get', 'put', 'set', 'remove', 'clear', 'property', 'callback-return', 'properties-file', 'options'] as const;
export type BuiltinOperation = (typeof BUILTIN_OPERATIONS)[number];

/** How taint moves through a call the engine has no summary for. `to` empty: the result is clean. */
export interface PropagatorRow {
  id: string;
  call: CallMatcher;
  from: readonly CallSlot[];
  to: readonly CallSlot[];
  /** A mark put on what flows (`normalised`), read by guards. */
  mark: string | null;
  builtin: BuiltinOperation | null;
  origin: RowOrigin;
}

/** A configuration value that is weak in itself (an algorithm name), or an object missing a setting. */
export type CheckRow =
  | {
      id: string;
      kind: 'weak-value';
      cwe: string;
      call: CallMatcher;
      /**
       * Where the setting is: the first of these slots the call gives decides (`setcookie`'s options
       * array `arg2.secure`, else its positional flag `arg5`).
       */
      slots: readonly CallSlot[];
      /** Tested against the slot's constant value as text (folded, or read from a properties file). */
      weak: RegExp;
      /** An absent slot is weak too (`set_cookie(...)` without `secure=True`). */
      absentIsWeak: boolean;
      origin: RowOrigin;
    }
  | {
      id: string;
      kind: 'missing-setting';
      cwe: string;
      /** The call that makes the object (`new Cookie`, `DocumentBuilderFactory.newInstance`). */
      createdBy: CallMatcher;
      /** Calls on the object that make it safe, each with regexes over its constant arguments. */
      settings: ReadonlyArray<{ call: CallMatcher; arguments: readonly RegExp[] }>;
      /** `all` settings needed, or `any` one of them. */
      need: 'all' | 'any';
      /** Where the object is used and the finding goes: the object in `slot` of this call. */
      usedBy: CallMatcher;
      slot: CallSlot;
      /** When given, the use counts only if outside data is in one of these slots (a parser parsing request data). */
      tainted: readonly CallSlot[];
      origin: RowOrigin;
    };

/** A call that never returns (`abort(400)`, `System.exit(1)`): the code after it in its block does not run. */
export interface ExitRow {
  id: string;
  call: CallMatcher;
  origin: RowOrigin;
}

/** Every row for one language, merged from its files. */
export interface FlowRows {
  sources: readonly SourceRow[];
  sinks: readonly SinkRow[];
  sanitisers: readonly SanitiserRow[];
  guards: readonly GuardRow[];
  propagators: readonly PropagatorRow[];
  checks: readonly CheckRow[];
  exits: readonly ExitRow[];
  /** Named constants of the language or its libraries (PHP's `LIBXML_NOENT`), folded where read by name. */
  constants: ReadonlyMap<string, FlowLiteral>;
}

/** Rows by language, as the loader gives them. */
export type FlowRowsByLanguage = ReadonlyMap<Language, FlowRows>;

export const NO_ROWS: FlowRows = { sources: [], sinks: [], sanitisers: [], guards: [], propagators: [], checks: [], exits: [], constants: new Map() };
