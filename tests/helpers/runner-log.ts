/**
 * Reading output the way a CI runner reads its job log, to find the commands it would obey. Stricter
 * than the GitHub Actions runner: every character some reader takes for a line break splits lines.
 */

/** LF and CR (what the runner splits on), and VT, FF, NEL, U+2028 and U+2029. */
const LINE_BREAKS = /\r\n|[\n\r\u000b\u000c\u0085\u2028\u2029]/;

/** The commands a runner would take from this output: `::name ...::` lines after trimming, and `##[` / `##vso[` anywhere. */
export function runnerCommands(output: string): string[] {
  const commands: string[] = [];
  for (const line of output.split(LINE_BREAKS)) {
    const trimmed = line.replace(/^\s+/u, '');
    const modern = /^::([^:\s]+)[^]*?::/.exec(trimmed);
    if (modern) commands.push(modern[1] ?? '');
    for (const legacy of line.matchAll(/##(?:vso)?\[([^\]\s]*)/gi)) commands.push(`legacy:${legacy[1] ?? ''}`);
  }
  return commands;
}
