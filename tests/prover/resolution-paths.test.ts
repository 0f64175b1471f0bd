import { describe, expect, it } from 'vitest';
import { buildCallerIndex, composePaths } from '../../src/prover/paths.js';
import { qualify, resolveCall, nodeAt } from '../../src/prover/resolution.js';
import { programOf } from './recogniser-tester.js';

describe('resolution', () => {
  it('gives same-name methods on different classes different keys, and overloads by arity', async () => {
    const program = await programOf({
      'src/Jobs.java': `public class Jobs {
  void purge() { }
  void purge(String name) { }
}
`,
      'src/Cache.java': 'public class Cache {\n  void purge() { }\n}\n',
      'src/Caller.java': `public class Caller {
  void run(Jobs jobs, Cache cache) {
    jobs.purge();
    jobs.purge("x");
    cache.purge();
    mystery().purge();
  }
}
`,
    });
    const keyOf = (receiver: string | null, arity: number, receiverType?: string): string => qualify({ receiver, enclosingClass: 'Caller', name: 'purge', arity, table: program.table, receiverType: receiverType ?? null });
    expect(keyOf('jobs', 0, 'Jobs')).toBe('Jobs.purge/0');
    expect(keyOf('jobs', 1, 'Jobs')).toBe('Jobs.purge/1');
    expect(keyOf('cache', 0, 'Cache')).toBe('Cache.purge');
    expect(keyOf('mystery()', 0)).toBe('purge');

    const caller = program.byPath.get('src/Caller.java')!;
    const calls = caller.ir.calls.filter((c) => c.callee === 'purge');
    const fn = nodeAt(program, caller.ir, 3)!.fn;
    const resolved = calls.map((c) => resolveCall(program, caller, fn, c));
    expect(resolved.map((r) => r.targets.map((t) => `${t.path}:${t.fn.startLine}`))).toEqual([['src/Jobs.java:2'], ['src/Jobs.java:3'], ['src/Cache.java:2'], []]);
    expect(resolved[3]?.unresolved).toBe('receiver_unresolved');
    expect(buildCallerIndex(program).unresolved.receiver_unresolved).toBe(1);
  });

  it('attaches an abstract base method through a subclass, not through an unrelated class', async () => {
    const program = await programOf({
      'src/BaseStore.java': 'public abstract class BaseStore {\n  void wipe() { Files.delete(root); }\n  abstract void name();\n}\n',
      'src/DiskStore.java': 'public class DiskStore extends BaseStore {\n  void name() { }\n}\n',
      'src/Other.java': 'public class Other {\n  void name() { }\n}\n',
      'src/Use.java': `public class Use {
  void viaSubclass(DiskStore store) { store.wipe(); }
  void viaUnrelated(Other other) { other.wipe(); }
}
`,
    });
    const index = buildCallerIndex(program);
    const wipe = [...program.functions.values()].find((f) => f.fn.qualifiedName === 'BaseStore.wipe')!;
    const callers = (index.callers.get(wipe.id) ?? []).map((s) => program.functions.get(s.callerId)?.fn.name);
    expect(callers).toEqual(['viaSubclass']);
  });
});

describe('composePaths', () => {
  // Three files: an entry calls a (depth 1), a calls b (depth 2), b calls c (depth 3), c calls d (depth 4).
  const files = {
    'app/routes.py': `from app.service import step_a, wide
def entry():
    step_a()
def entry_wide():
    wide()
`,
    'app/service.py': `from app.store import step_b
def step_a():
    step_b()
def wide():
    pass
`,
    'app/store.py': `def step_b():
    step_c()
def step_c():
    step_d()
def step_d():
    pass
def same_name():
    pass
`,
    'app/other.py': 'def same_name():\n    pass\n',
    'app/fan.py': Array.from({ length: 30 }, (_, i) => `def caller_${i}():\n    wide()\n`).join('') + 'from app.service import wide\n',
    'app/uses_same.py': 'from app.other import same_name\ndef entry_same():\n    same_name()\n',
  };

  it('finds depth 1, 2 and 3, leaves depth 4 unreached, cuts fan-out, and keeps same names apart', async () => {
    const program = await programOf(files);
    const index = buildCallerIndex(program);
    const id = (path: string, name: string): string => [...program.functions.values()].find((f) => f.path === path && f.fn.name === name)!.id;
    const entries = new Set([id('app/routes.py', 'entry'), id('app/routes.py', 'entry_wide'), id('app/uses_same.py', 'entry_same')]);
    const targets = [id('app/service.py', 'step_a'), id('app/store.py', 'step_b'), id('app/store.py', 'step_c'), id('app/store.py', 'step_d'), id('app/store.py', 'same_name'), id('app/other.py', 'same_name')];
    const result = composePaths({ callers: (f) => index.callers.get(f) ?? [], entries, targets, maxDepth: 3, fanOut: 25 });
    const depthOf = (target: string): number[] => result.paths.filter((p) => p.hops[p.hops.length - 1]?.functionId === target).map((p) => p.hops.length - 1);
    expect(depthOf(targets[0]!)).toEqual([1]);
    expect(depthOf(targets[1]!)).toEqual([2]);
    expect(depthOf(targets[2]!)).toEqual([3]);
    expect(result.unreached).toContain(targets[3]);
    // Same name in two files: only the imported one is reached.
    expect(depthOf(targets[5]!)).toEqual([1]);
    expect(result.unreached).toContain(targets[4]);
    // Paths come entry first, with the call line in each caller.
    const deep = result.paths.find((p) => p.hops[p.hops.length - 1]?.functionId === targets[2])!;
    expect(deep.hops.map((h) => h.callLine)).toEqual([3, 3, 2, null]);
    expect(deep.entry).toBe(id('app/routes.py', 'entry'));

    // 31 callers of wide(): with fan-out 25 the walk is cut and counted.
    const wide = composePaths({ callers: (f) => index.callers.get(f) ?? [], entries, targets: [id('app/service.py', 'wide')], maxDepth: 3, fanOut: 25 });
    expect(wide.fanOutCuts).toBe(1);
    const all = composePaths({ callers: (f) => index.callers.get(f) ?? [], entries, targets: [id('app/service.py', 'wide')], maxDepth: 3, fanOut: 40 });
    expect(all.fanOutCuts).toBe(0);
    expect(all.paths).toHaveLength(1);
  });
});
