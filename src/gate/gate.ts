/**
 * The edit gate's decision flow (gate-reference §2, "Order of checks"): per target, first rule wins:
 * no path / Claude settings / exempt glob → subagent → already checked → sensitive or hard-linked →
 * prior-search credit → trivial edit → sibling collapse → denial cap → deny.
 */
import { readdirSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { changeInputFor, editToolOf, entriesOf, isRecord, type EditTool } from '../profile/payload.js';
import { readTargetText } from '../profile/filetext.js';
import { changedNames } from '../profile/changed-names.js';
import { profileChange, UNKNOWN_PROFILE, type ChangeInput, type ChangeProfile } from '../profile/profile.js';
import { questionIdsFor, type QuestionId, type TargetClass } from '../profile/questions.js';
import {
  canonicalKey,
  classifyTarget,
  classPathOf,
  isClaudeSettings,
  isHardLinked,
  isNewFile,
  isSensitivePath,
  realLocation,
} from './classify.js';
import { globMatches } from './glob.js';
import { condensedDenial, creditNote, fullDenial, LOCK_WARNING, sanitisePath, siblingNote, STATE_WARNING, trivialNote, type TargetNote } from './messages.js';
import { appendMetrics, type DecisionRecord } from './metrics.js';
import { isOffWord, loadSettings, type GateSettings } from './settings.js';
import { loadState, pruneStale, stateLocation, updateState, type GateState, type StateLocation } from './state.js';
import { sha256Hex } from './hash.js';
import { currentTurn, findCredit, findNearMiss, readTranscriptTail, type NearMiss, type Turn } from './transcript.js';

/** Largest payload the gate reads; more is refused with exit 2. */
export const MAX_INPUT_BYTES = 1024 * 1024;
/** Sibling collapse without a transcript: new files within this window count as one batch. */
const SIBLING_NO_TURN_WINDOW_MS = 120_000;
/** A checked lookup refreshes the state when its last write is older than this. */
const HEARTBEAT_MS = 60_000;
/** Updates that decide nothing (the heartbeat, the trivial-pass counter) wait for the lock only briefly and give up quietly. */
const COURTESY_LOCK_WAIT_MS = 50;

/** What the command prints and returns. */
export interface GateOutcome {
  stdout: string;
  stderr: string[];
  exitCode: 0 | 2;
}

/** The facts about the world a decision may depend on, passed in so tests control them. */
export interface GateContext {
  env: NodeJS.ProcessEnv;
  processCwd: string;
  now: number;
}

interface Target {
  rawPath: string;
  absolute: string;
  key: string;
}

/** Everything a denial needs that is known before the state is locked. */
interface Denial {
  targetClass: TargetClass;
  displayPath: string;
  isWrite: boolean;
  note: TargetNote;
  profile: ChangeProfile | null;
  /** The key the denial marks checked (the file's, or a subagent's own). */
  checkedKey: string;
  /** The metrics reason when there is no near miss. */
  reason: string;
  nearMiss: NearMiss | null;
  siblingKey: string | null;
}

type Verdict =
  | { kind: 'pass'; note: string | null; record: Omit<DecisionRecord, 'tool'> }
  | { kind: 'deny'; reason: string; record: Omit<DecisionRecord, 'tool'> }
  | { kind: 'state-error'; warning: string; record: Omit<DecisionRecord, 'tool'> };

/** A verdict reached on the state under its lock, and whether the state changed. */
interface Settled {
  verdict: Verdict;
  changed: boolean;
}

function firstString(...values: unknown[]): string | null {
  for (const value of values) if (typeof value === 'string' && value.length > 0) return value;
  return null;
}

function denyJson(reason: string): string {
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } })}\n`;
}

function noteJson(notes: readonly string[]): string {
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: notes.join('\n') } })}\n`;
}

/** Run the gate on one payload. Never throws for bad input: malformed JSON passes through unchanged. */
export function runGate(input: Buffer | 'too_large', context: GateContext): GateOutcome {
  const disabledByEnv = isOffWord(context.env.JSCR_GATE ?? '');
  if (input === 'too_large') {
    if (disabledByEnv) return { stdout: '', stderr: [], exitCode: 0 };
    return { stdout: '', stderr: ['jscr gate: blocked: the hook input is larger than 1 MiB'], exitCode: 2 };
  }
  const raw = input.toString('utf8');
  // A pass prints nothing: the tool call goes ahead with its input unchanged. Claude Code validates a
  // hook's stdout against its output schema, so echoing the input back is reported as a hook error on
  // every call (docs/adr/0007).
  const passThrough: GateOutcome = { stdout: '', stderr: [], exitCode: 0 };
  let payload: unknown;
  try {
    payload = JSON.parse(raw);
  } catch {
    return passThrough;
  }
  if (!isRecord(payload)) return passThrough;
  const tool = editToolOf(payload.tool_name);
  if (tool === null || !isRecord(payload.tool_input)) return passThrough;

  const payloadCwd = typeof payload.cwd === 'string' && isAbsolute(payload.cwd) ? payload.cwd : null;
  const projectDir = firstString(context.env.CLAUDE_PROJECT_DIR);
  const root = projectDir ?? payloadCwd ?? context.processCwd;
  const settings = loadSettings(context.env, root);
  if (!settings.enabled) return passThrough;

  const gate = new GateRun(payload, tool, payload.tool_input, settings, context, root, payloadCwd ?? projectDir ?? context.processCwd);
  return gate.run();
}

class GateRun {
  private state: GateState | null = null;
  private location: StateLocation;
  private turnCache: Turn | null | undefined;
  private readonly changeInputs = new Map<string, ChangeInput | null>();
  private realRoot: string | undefined;
  private readonly records: DecisionRecord[] = [];
  private readonly stderr: string[];

  constructor(
    private readonly payload: Record<string, unknown>,
    private readonly tool: EditTool,
    private readonly toolInput: Record<string, unknown>,
    private readonly settings: GateSettings,
    private readonly context: GateContext,
    private readonly root: string,
    private readonly base: string,
  ) {
    const session = isRecord(payload.session) ? payload.session.id : undefined;
    const sessionId = firstString(payload.session_id, payload.sessionId, session, context.env.CLAUDE_SESSION_ID);
    const transcript = this.transcriptPath();
    this.location = stateLocation(settings.stateDir, sessionId, transcript === null ? null : resolve(base, transcript), root);
    this.stderr = [...settings.warnings];
  }

  private transcriptPath(): string | null {
    return firstString(this.payload.transcript_path, this.payload.transcriptPath, this.context.env.CLAUDE_TRANSCRIPT_PATH);
  }

  private isSubagent(): boolean {
    return firstString(this.payload.agent_id, this.payload.agentId, this.payload.parent_tool_use_id, this.payload.parentToolUseId) !== null;
  }

  /** The state as last read, without the lock: enough to pass a target already checked. */
  private loadedState(): GateState {
    this.state ??= loadState(this.location, this.context.now);
    return this.state;
  }

  /**
   * Reach a decision on the freshest state, under the session's lock: `onState` reads and changes the
   * state and says what it decided. When the lock cannot be had in time or the state cannot be written,
   * the call passes with a one-line warning (`failed` says which record to keep for metrics).
   */
  private settle(failed: Omit<DecisionRecord, 'tool' | 'decision' | 'reason'>, onState: (state: GateState) => Settled): Verdict {
    const result = updateState(this.location, this.settings.stateDir, this.context.now, (state) => {
      const settled = onState(state);
      return { value: settled, changed: settled.changed };
    });
    if (!result.ok) {
      return { kind: 'state-error', warning: result.why === 'locked' ? LOCK_WARNING : STATE_WARNING, record: { ...failed, decision: 'pass', reason: 'state-error' } };
    }
    this.state = result.state;
    if (result.value.changed) this.sweep();
    return result.value.verdict;
  }

  /**
   * Stale sessions are swept only by a call that wrote state anyway, so a pass of a checked target
   * (most calls) costs no directory listing.
   */
  private sweep(): void {
    try {
      pruneStale(this.settings.stateDir, readdirSync(this.settings.stateDir), this.context.now);
    } catch {
      // another hook swept it first
    }
  }

  /** The current human turn from the transcript: undefined when there is no transcript path. */
  private turn(): Turn | null | undefined {
    if (this.turnCache !== undefined) return this.turnCache;
    const path = this.transcriptPath();
    if (path === null) return undefined;
    const tail = readTranscriptTail(isAbsolute(path) ? path : resolve(this.base, path));
    this.turnCache = tail === null ? null : currentTurn(tail);
    return this.turnCache;
  }

  private targets(): Target[] {
    const paths: (string | null)[] = [];
    if (this.tool === 'NotebookEdit') paths.push(firstString(this.toolInput.notebook_path));
    else if (this.tool === 'MultiEdit') {
      const entries = entriesOf('MultiEdit', this.toolInput);
      if (entries.length === 0) paths.push(firstString(this.toolInput.file_path));
      for (const entry of entries) paths.push(entry.filePath);
    } else paths.push(firstString(this.toolInput.file_path));
    const seen = new Set<string>();
    const targets: Target[] = [];
    for (const rawPath of paths) {
      if (rawPath === null) {
        if (!seen.has('')) targets.push({ rawPath: '', absolute: '', key: '' });
        seen.add('');
        continue;
      }
      const absolute = resolve(this.base, rawPath);
      const key = canonicalKey(absolute);
      if (seen.has(key)) continue;
      seen.add(key);
      targets.push({ rawPath, absolute, key });
    }
    return targets;
  }

  run(): GateOutcome {
    const notes: string[] = [];
    let outcome: GateOutcome | null = null;
    for (const target of this.targets()) {
      const verdict = this.decide(target);
      this.records.push({ tool: this.tool, ...verdict.record });
      if (verdict.kind === 'state-error') {
        outcome = { stdout: '', stderr: [verdict.warning], exitCode: 0 };
        break;
      }
      if (verdict.kind === 'deny') {
        outcome = { stdout: denyJson(verdict.reason), stderr: [], exitCode: 0 };
        break;
      }
      if (verdict.note !== null) notes.push(verdict.note);
    }
    outcome ??= { stdout: notes.length > 0 ? noteJson(notes) : '', stderr: [], exitCode: 0 };
    if (this.settings.metrics) appendMetrics(this.settings.stateDir, this.location.key, this.records, this.context.now);
    return { ...outcome, stderr: [...this.stderr, ...outcome.stderr] };
  }

  /** The change to one target as the profile reads it (read once: the file text is read from disk). */
  private changeInput(target: Target): ChangeInput | null {
    const cached = this.changeInputs.get(target.key);
    if (cached !== undefined) return cached;
    const isEdit = this.tool === 'Edit' || this.tool === 'MultiEdit';
    const fileText = isEdit ? readTargetText(target.absolute) : null;
    const belongs = (entryPath: string | null): boolean => entryPath !== null && canonicalKey(resolve(this.base, entryPath)) === target.key;
    const input = changeInputFor(this.tool, this.toolInput, target.rawPath, belongs, fileText);
    this.changeInputs.set(target.key, input);
    return input;
  }

  private profileFor(target: Target, targetClass: TargetClass): ChangeProfile | null {
    if (this.tool === 'NotebookEdit') return null;
    const isEdit = this.tool === 'Edit' || this.tool === 'MultiEdit';
    const needed = targetClass === 'code' || (isEdit && (targetClass === 'test' || targetClass === 'prose')) || this.settings.metrics;
    if (!needed) return null;
    // The trivial check treats the target as code: tests and prose in a supported language can pass too.
    const input = this.changeInput(target);
    return input === null ? { ...UNKNOWN_PROFILE } : profileChange(input);
  }

  /** The functions and classes an Edit of a code or test file changes: a search for one credits too. */
  private searchableNames(target: Target, targetClass: TargetClass, profile: ChangeProfile | null): string[] {
    if ((this.tool !== 'Edit' && this.tool !== 'MultiEdit') || (targetClass !== 'code' && targetClass !== 'test')) return [];
    if (profile === null || profile.language === null) return [];
    const input = this.changeInput(target);
    if (input === null || input.kind !== 'edit') return [];
    try {
      return changedNames(input.fileText, input.edits, profile.language);
    } catch {
      return [];
    }
  }

  private decide(target: Target): Verdict {
    const pass = (decision: string, reason: string, targetClass: TargetClass | null, note: string | null = null, extra: Partial<DecisionRecord> = {}): Verdict => ({
      kind: 'pass',
      note,
      record: { targetClass, decision, reason, questions: null, sensitive: false, profile: null, ...extra },
    });
    if (target.key === '') return pass('pass', 'no-path', null);
    const classPath = classPathOf(target.absolute, this.root);
    if (isClaudeSettings(classPath)) return pass('pass', 'claude-settings', null);
    const absoluteLower = target.key.toLowerCase();
    if (this.settings.exemptGlobs.some((glob) => globMatches(glob, classPath) || globMatches(glob, absoluteLower))) {
      return pass('pass-exempt', 'exempt-glob', null);
    }
    const targetClass = classifyTarget(classPath);
    const subagent = this.isSubagent();
    // The usual call retries or revisits a checked target: answer it from the state as read, before
    // any path resolution, stat or lock.
    const known = this.loadedState();
    if (!subagent && known.checked.includes(target.key)) {
      if (this.context.now - known.lastActive > HEARTBEAT_MS) {
        const refreshed = updateState(this.location, this.settings.stateDir, this.context.now, () => ({ value: null, changed: true }), COURTESY_LOCK_WAIT_MS);
        if (refreshed.ok) this.state = refreshed.state;
      }
      return pass('pass-checked', 'checked', targetClass);
    }
    const real = realLocation(target.absolute);
    const sensitive = isSensitivePath(classPath) || real === null || isSensitivePath(this.realClassPath(real));
    const hardLinked = !sensitive && isHardLinked(target.absolute);
    const note: TargetNote = sensitive ? 'sensitive' : hardLinked ? 'hard-linked' : null;
    const isWrite = this.tool === 'Write';
    const displayPath = sanitisePath(target.rawPath);
    const checkedPass: Settled = { verdict: pass('pass-checked', 'checked', targetClass), changed: false };
    const denial = { targetClass, displayPath, isWrite, note };

    if (subagent) {
      if (note === null) return pass('pass-subagent', 'subagent', targetClass);
      const subagentKey = `__subagent__${sha256Hex(target.key).slice(0, 16)}`;
      if (known.checked.includes(subagentKey) || known.checked.includes(target.key)) return checkedPass.verdict;
      const failed = { targetClass, questions: null, sensitive: true, profile: null };
      return this.settle(failed, (state) =>
        state.checked.includes(subagentKey) || state.checked.includes(target.key)
          ? checkedPass
          : this.deny(state, { ...denial, profile: null, checkedKey: subagentKey, reason: `subagent-${note}`, nearMiss: null, siblingKey: null }),
      );
    }

    if (note !== null) {
      const failed = { targetClass, questions: null, sensitive: true, profile: null };
      return this.settle(failed, (state) =>
        state.checked.includes(target.key) ? checkedPass : this.deny(state, { ...denial, profile: null, checkedKey: target.key, reason: note, nearMiss: null, siblingKey: null }),
      );
    }

    const profile = this.profileFor(target, targetClass);
    const turn = this.turn();
    const failed = { targetClass, questions: null, sensitive: false, profile };

    // A transcript with no human-turn boundary in reach has no current turn, so nothing in it credits.
    if (turn && turn.id !== null) {
      const toolUseId = firstString(this.payload.tool_use_id);
      const credit = findCredit(turn, target.key, targetClass === 'test', this.base, toolUseId, this.searchableNames(target, targetClass, profile));
      if (credit !== null) {
        return this.settle(failed, (state) => {
          if (state.checked.includes(target.key)) return checkedPass;
          state.checked.push(target.key);
          state.counters.credited++;
          state.creditedByClass[targetClass] = (state.creditedByClass[targetClass] ?? 0) + 1;
          return { verdict: pass('credit', 'prior-search', targetClass, creditNote(displayPath, credit.tool, credit.detail, credit.callsAgo), { profile }), changed: true };
        });
      }
    }

    const trivialEligible = (this.tool === 'Edit' || this.tool === 'MultiEdit') && (targetClass === 'code' || targetClass === 'test' || targetClass === 'prose');
    if (trivialEligible && profile !== null && profile.known && profile.trivial) {
      // a lost counter is harmless: the target is not marked checked either way
      updateState(
        this.location,
        this.settings.stateDir,
        this.context.now,
        (state) => {
          state.counters.trivial_allows++;
          return { value: null, changed: true };
        },
        COURTESY_LOCK_WAIT_MS,
      );
      return pass('trivial', 'comment-whitespace', targetClass, trivialNote(displayPath), { profile });
    }

    const siblingKey = this.siblingKey(target, targetClass, classPath, isWrite);
    const turnId = turn === undefined ? null : (turn?.id ?? undefined);
    const nearMiss = this.nearMiss(target, targetClass);
    return this.settle(failed, (state) => {
      if (state.checked.includes(target.key)) return checkedPass;
      const gate = siblingKey === null ? undefined : state.dirGates[siblingKey];
      const sameBatch =
        gate !== undefined &&
        gate.at <= this.context.now &&
        gate.ordinal >= 1 &&
        turnId !== undefined &&
        (turnId === null ? gate.turn === null && this.context.now - gate.at <= SIBLING_NO_TURN_WINDOW_MS : gate.turn === turnId);
      if (sameBatch) {
        state.checked.push(target.key);
        state.counters.sibling_allows++;
        return { verdict: pass('sibling', 'same-turn-dir', targetClass, siblingNote(gate.first, gate.ordinal), { profile }), changed: true };
      }
      // the cap is judged on the same fresh count the denial would raise
      if (this.settings.maxDenials !== null && state.counters.denials >= this.settings.maxDenials) {
        state.checked.push(target.key);
        state.counters.cap_allows++;
        return { verdict: pass('cap', 'max-denials', targetClass, null, { profile }), changed: true };
      }
      return this.deny(state, { ...denial, profile, checkedKey: target.key, reason: 'first-touch', nearMiss, siblingKey });
    });
  }

  /**
   * A real location as a class path: relative to the project's own real root, so that a project kept
   * under a directory named `auth` or `billing` is not sensitive throughout, while a symlink into such a
   * directory still is. Outside the root it stays absolute.
   */
  private realClassPath(real: string): string {
    this.realRoot ??= realLocation(this.root) ?? this.root;
    return classPathOf(real, this.realRoot);
  }

  /** New-file Writes of code, test or prose in an ordinary directory can collapse with siblings. */
  private siblingKey(target: Target, targetClass: TargetClass, classPath: string, isWrite: boolean): string | null {
    if (!isWrite || (targetClass !== 'code' && targetClass !== 'test' && targetClass !== 'prose')) return null;
    const segments = classPath.split('/');
    if (segments.some((s) => s.startsWith('.') || /~\d/.test(s))) return null;
    if (!isNewFile(target.absolute)) return null;
    const realDir = realLocation(dirname(target.absolute));
    if (realDir === null || isSensitivePath(this.realClassPath(realDir))) return null;
    return `${targetClass}\u0000${realDir}`;
  }

  /** Count a denial on the (locked, fresh) state and build its message with the ordinal it got. */
  private deny(state: GateState, d: Denial): Settled {
    const questions: QuestionId[] = questionIdsFor(d.targetClass, d.isWrite, d.profile, { externalContract: this.settings.externalContract });
    state.checked.push(d.checkedKey);
    state.counters.denials++;
    state.denialsByClass[d.targetClass] = (state.denialsByClass[d.targetClass] ?? 0) + 1;
    const ordinal = state.counters.denials;
    if (d.siblingKey !== null) {
      const turn = this.turn();
      const turnId = turn === undefined ? null : (turn?.id ?? null);
      state.dirGates[d.siblingKey] = { turn: turnId, at: this.context.now, first: d.displayPath, ordinal };
    }
    const message =
      ordinal > this.settings.fullDenials
        ? condensedDenial(d.displayPath, d.isWrite, ordinal, questions, d.note, d.nearMiss)
        : fullDenial(d.displayPath, d.isWrite, questions, d.note, d.nearMiss);
    const record = { targetClass: d.targetClass, questions, sensitive: d.note !== null, profile: d.profile };
    return { verdict: { kind: 'deny', reason: message, record: { ...record, decision: 'deny', reason: d.nearMiss === null ? d.reason : `near-miss:${d.nearMiss.why}` } }, changed: true };
  }

  /** For an ordinary denial: the search of this turn that named the target but did not count. */
  private nearMiss(target: Target, targetClass: TargetClass): NearMiss | null {
    const turn = this.turn();
    if (!turn || turn.id === null) return null;
    return findNearMiss(turn, target.key, targetClass === 'test', this.base, firstString(this.payload.tool_use_id));
  }
}
