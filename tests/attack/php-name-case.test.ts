/**
 * PHP reads function names and language constructs without regard to case: `SyStEm($_GET['c'])` runs
 * `system`. A dangerous call found when written in lower case is found in any case.
 */
import { describe, expect, it } from 'vitest';
import { hostileChangeReviewer } from './helpers.js';

const review = hostileChangeReviewer();

const inFunction = (line: string): string => `<?php\nfunction run() {\n    ${line}\n}\n`;

describe('attack: a PHP call written in another case', () => {
  it('system, shell_exec, eval, include, unserialize, file_get_contents and echo of request data, in upper or mixed case', async () => {
    const calls: Record<string, string> = {
      'command.php': 'SyStEm($_GET["c"]);',
      'shell.php': 'SHELL_EXEC($_GET["c"]);',
      'eval.php': 'EVAL($_GET["c"]);',
      'include.php': 'INCLUDE $_GET["page"];',
      'unserialize.php': 'return UNSERIALIZE($_COOKIE["state"]);',
      'fetch.php': 'return File_Get_Contents($_GET["url"]);',
      'echo.php': 'ECHO $_GET["name"];',
    };
    const result = await review(Object.fromEntries(Object.entries(calls).map(([path, line]) => [path, inFunction(line)])));
    expect(result.code).toBe(1);
    expect([...new Set(result.findings.filter((f) => f.line === 3).map((f) => f.path))].sort()).toEqual(Object.keys(calls).sort());
  });

  it('the escaped forms stay quiet in any case', async () => {
    const result = await review({ 'safe.php': inFunction('SYSTEM("ls " . EscapeShellArg($_GET["d"]));') });
    expect(result.where).toEqual([]);
  });
});
