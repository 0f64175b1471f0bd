import { describe, expect, it } from 'vitest';
import { profileChange } from '../../src/profile/profile.js';
import { PROFILE_CASES } from './cases.js';

describe('change profile table', () => {
  it('has at least 150 distinct cases', () => {
    expect(PROFILE_CASES.length).toBeGreaterThanOrEqual(150);
    expect(new Set(PROFILE_CASES.map((c) => c.name)).size).toBe(PROFILE_CASES.length);
  });
  it.each(PROFILE_CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const profile = profileChange(c.input);
    expect(profile).toMatchObject(c.expect);
    if (!profile.known) expect(profile).toMatchObject({ trivial: false, touchesPublicSurface: true, touchesData: true, language: null });
    if (profile.trivial) expect(profile.known).toBe(true);
  });
});
