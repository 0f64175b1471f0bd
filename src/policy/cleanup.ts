/**
 * What jscr leaves behind when it is interrupted: nothing. Private folders (the scanners' work copy, a
 * private git index) and running child processes are registered here while they exist; on SIGINT or
 * SIGTERM the children's process groups are killed and the folders removed, then the signal is raised
 * again with the default action, so the exit status is the conventional one (130, 143).
 */
import { rmSync } from 'node:fs';

const folders = new Set<string>();
const processGroups = new Set<number>();
let installed = false;

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function cleanUpNow(): void {
  for (const pid of processGroups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  processGroups.clear();
  for (const folder of folders) {
    try {
      rmSync(folder, { recursive: true, force: true });
    } catch {
      // nothing more can be done while exiting
    }
  }
  folders.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  cleanUpNow();
  for (const s of SIGNALS) process.removeListener(s, onSignal);
  process.kill(process.pid, signal);
}

function install(): void {
  if (installed) return;
  installed = true;
  for (const s of SIGNALS) process.on(s, onSignal);
  process.on('exit', cleanUpNow);
}

/** Remove `folder` on any exit path; the returned function unregisters it (call it after removing it). */
export function removeOnExit(folder: string): () => void {
  install();
  folders.add(folder);
  return () => {
    folders.delete(folder);
  };
}

/** Kill the process group led by `pid` if jscr is interrupted while it runs; call the result when it ends. */
export function killOnExit(pid: number): () => void {
  install();
  processGroups.add(pid);
  return () => {
    processGroups.delete(pid);
  };
}
