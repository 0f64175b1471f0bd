/**
 * Attacks on the Trojan Source relaxation (src/rules/bidi-check.ts and the rule's not_paths): bidi
 * controls that reorder code, in files named like translation data or prose but that are run or built.
 */
import { describe, expect, it } from 'vitest';
import { hostileChangeReviewer } from './helpers.js';

const review = hostileChangeReviewer();
const BIDI = 'jscr/trojan-source-bidi';
// An early return hidden by a right-to-left override left open at the end of a comment.
const HIDDEN = '\u202E } \u2066if (isAdmin)\u2069 \u2066 begin admins only */';

async function bidiPaths(files: Record<string, string>): Promise<string[]> {
  const out = await review(files);
  return out.findings.filter((f) => f.rule === BIDI).map((f) => f.path).sort();
}

describe('attack: code named like translation data', () => {
  it('a FreeMarker template (.ftl) outside a translation folder is code', async () => {
    expect(await bidiPaths({ 'src/main/resources/templates/admin.ftl': `<#if user.admin>\n<#-- ${HIDDEN} -->\n</#if>\n` })).toEqual(['src/main/resources/templates/admin.ftl']);
  });

  it('build and package manifests inside a translation folder are code', async () => {
    const script = `{\n  "name": "i18n",\n  "scripts": { "postinstall": "node build.js /* ${HIDDEN}" }\n}\n`;
    const files = {
      'packages/i18n/package.json': script,
      'messages/pom.xml': `<project><!-- ${HIDDEN} --></project>\n`,
      'locales/composer.json': script,
      'lang/tsconfig.json': script,
    };
    expect(await bidiPaths(files)).toEqual(Object.keys(files).sort());
  });

  it('a CMakeLists.txt is a build script, not prose', async () => {
    expect(await bidiPaths({ 'CMakeLists.txt': `# ${HIDDEN}\nadd_executable(app main.c)\n` })).toEqual(['CMakeLists.txt']);
  });

  it('leaves right-to-left text in real translation data and Fluent files alone', async () => {
    const files = {
      'locales/ar/main.ftl': 'welcome = \u202Bمرحبا\u202C\n',
      'src/locales/he.json': '{ "open": "\u202Bפתח\u202C" }\n',
      'translations/messages.ar.xlf': '<target>\u202Bإعادة الفتح</target>\n',
    };
    expect(await bidiPaths(files)).toEqual([]);
  });
});
