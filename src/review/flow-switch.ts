/**
 * `JSCR_FLOW=off` runs the review as it was before data flow (no lowering, no flow step), so its cost
 * can be measured (bench/review.ts). The environment, not `.jscr.toml`: a reviewed repository's
 * configuration cannot switch its own analysis off.
 */
export function flowSwitchedOff(env: NodeJS.ProcessEnv): boolean {
  return ['off', '0', 'false'].includes((env.JSCR_FLOW ?? '').trim().toLowerCase());
}
