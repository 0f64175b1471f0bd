/**
 * Writes the data-flow corpus, fixtures/flow/, from the templates in this folder: every family in every
 * language it exists in, each shape with both labels where both make sense. Run: npx tsx
 * tools/flow-corpus/generate.ts. The corpus is committed; this regenerates it after a template change.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TAINT, type Language } from './catalogue.js';
import { DIALECTS } from './dialects.js';
import { FRAMEWORKS, type Framework, type Parts } from './frameworks.js';
import { assemble, taintVariants, TAINT_SHAPES, type Label } from './shapes.js';
import { VALUE_SHAPES, valueCase, valueFamily } from './values.js';

const here = dirname(fileURLToPath(import.meta.url));
const OUT = join(here, '..', '..', 'fixtures', 'flow');
/**
 * Cases written by hand, as `<family>/<language>/<file>`, copied into the corpus as they are: idioms the
 * templates do not produce (each added with the engine change it tests).
 */
const WRITTEN = join(here, 'written');
const LANGUAGES: Language[] = ['python', 'java', 'javascript', 'typescript', 'php'];
const LABELS: Label[] = ['vulnerable', 'safe'];

/** Family ids, their CWEs and titles (written to families.toml), and the noun their handlers are named after. */
const FAMILIES: { id: string; cwe: number[]; title: string; noun: string }[] = [
  { id: 'sql', cwe: [89], title: 'SQL injection', noun: 'note-search' },
  { id: 'command', cwe: [78], title: 'OS command injection', noun: 'host-ping' },
  { id: 'path', cwe: [22], title: 'Path traversal', noun: 'file-download' },
  { id: 'ldap', cwe: [90], title: 'LDAP injection', noun: 'directory-lookup' },
  { id: 'xpath', cwe: [643], title: 'XPath injection', noun: 'user-email' },
  { id: 'xss', cwe: [79], title: 'Cross-site scripting', noun: 'greeting' },
  { id: 'redirect', cwe: [601], title: 'Open redirect', noun: 'login-return' },
  { id: 'trust-boundary', cwe: [501], title: 'Trust boundary violation (outside data stored in the session)', noun: 'profile-name' },
  { id: 'code-eval', cwe: [94, 95], title: 'Code injection (evaluated outside data)', noun: 'calculator' },
  { id: 'deserialisation', cwe: [502], title: 'Deserialisation of outside data', noun: 'order-import' },
  { id: 'xxe', cwe: [611], title: 'XML external entities (a parser resolving entities on outside XML)', noun: 'feed-import' },
  { id: 'header', cwe: [113], title: 'HTTP response header injection', noun: 'attachment-name' },
  { id: 'weak-hash', cwe: [328], title: 'Weak hash algorithm', noun: 'password-digest' },
  { id: 'weak-cipher', cwe: [327], title: 'Weak cipher or mode', noun: 'token-seal' },
  { id: 'weak-random', cwe: [330], title: 'Non-cryptographic random value in a security use', noun: 'token-issue' },
  { id: 'insecure-cookie', cwe: [614, 1004], title: 'Cookie without Secure or HttpOnly', noun: 'session-cookie' },
];

/** Shapes kept where a family exists only in a few cases in a language (LDAP and XPath in JavaScript). */
const FEW = new Set(['direct', 'locals', 'helper', 'constant-branch', 'constant-overwrite']);

export interface Written {
  path: string;
  text: string;
}

function fileName(shape: string, label: Label, n: number | undefined, ext: string): string {
  return `${shape}-${label}${n === undefined ? '' : `-${String(n)}`}.${ext}`;
}

/** The framework for the k-th case, skipping frameworks in which the sink does not exist. */
function pick<T>(frameworks: Framework[], k: number, accept: (fw: Framework) => T | undefined): [Framework, T] | undefined {
  for (let step = 0; step < frameworks.length; step++) {
    const fw = frameworks[(k + step) % frameworks.length];
    const got = fw && accept(fw);
    if (fw && got !== undefined) return [fw, got];
  }
  return undefined;
}

function taintCases(familyIndex: number, family: string, noun: string): Written[] {
  const out: Written[] = [];
  for (const language of LANGUAGES) {
    const fl = TAINT[family]?.[language];
    if (!fl) continue;
    const d = DIALECTS[language];
    const variants = taintVariants(fl);
    let k = familyIndex;
    for (const shape of TAINT_SHAPES) {
      if (fl.few === true && !FEW.has(shape)) continue;
      for (const label of LABELS) {
        const made: Parts[] = [];
        const all = variants[shape][label];
        // TypeScript repeats JavaScript's catalogue: one variant per shape and label is enough there.
        const take = language === 'typescript' || fl.few === true ? all.slice(0, 1) : all;
        for (const [vi, variant] of take.entries()) {
          const safeSink = shape === 'sanitised' && label === 'safe' && vi >= fl.good.length;
          const chosen = pick(FRAMEWORKS[language], k, (fw) => fl.sink(fw.id, safeSink ? 0 : k));
          if (!chosen) continue;
          const [fw, sink] = chosen;
          const src = fw.sources[(k + familyIndex) % fw.sources.length];
          if (!src) continue;
          const ctx = { d, fl, sink, fw, src, k };
          const piece = variant(ctx);
          if (!piece) continue;
          k++;
          made.push(assemble(ctx, piece));
          const parts = made[made.length - 1];
          if (parts) (parts as Parts & { fw?: Framework }).fw = fw;
        }
        made.forEach((parts, i) => {
          const fw = (parts as Parts & { fw?: Framework }).fw;
          if (!fw) return;
          const name = fileName(shape, label, made.length > 1 ? i + 1 : undefined, d.ext);
          out.push({ path: join(family, language, name), text: fw.wrap(noun, noun, parts) });
        });
      }
    }
  }
  return out;
}

function valueCases(familyIndex: number, family: string, noun: string): Written[] {
  const out: Written[] = [];
  for (const language of LANGUAGES) {
    const vf = valueFamily(family, language);
    if (!vf) continue;
    const d = DIALECTS[language];
    const frameworks = FRAMEWORKS[language].filter((fw) => vf.frameworks === undefined || vf.frameworks.includes(fw.id));
    let k = familyIndex;
    for (const shape of VALUE_SHAPES) {
      for (const label of LABELS) {
        const caseName = `${shape}-${label}`;
        const chosen = pick(frameworks, k, (fw) => {
          const src = fw.sources[(k + familyIndex) % fw.sources.length];
          return src && valueCase(vf, d, fw, src, shape, label, k, caseName);
        });
        if (!chosen) continue;
        k++;
        const [fw, made] = chosen;
        out.push({ path: join(family, language, `${caseName}.${d.ext}`), text: fw.wrap(noun, noun, made.parts) });
        if (made.properties !== undefined) out.push({ path: join(family, language, `${caseName}.properties`), text: made.properties });
      }
    }
  }
  return out;
}

function familiesToml(): string {
  const lines = ['# The data-flow corpus families: the CWEs a finding must carry to count for a case of the family.', ''];
  for (const f of FAMILIES) {
    lines.push(`[families.${f.id.includes('-') ? `"${f.id}"` : f.id}]`, `cwe = [${f.cwe.map((c) => `"CWE-${String(c)}"`).join(', ')}]`, `title = "${f.title}"`, '');
  }
  return lines.join('\n');
}

/** Every file of the corpus (cases, their .properties files, families.toml), by path under the corpus root. */
export function renderCorpus(): Written[] {
  const files: Written[] = [];
  FAMILIES.forEach((f, i) => {
    files.push(...(valueFamily(f.id, 'java') ? valueCases(i, f.id, f.noun) : taintCases(i, f.id, f.noun)));
  });
  const generated = new Set(files.map((f) => f.path));
  for (const file of writtenCases()) {
    if (generated.has(file.path)) throw new Error(`tools/flow-corpus/written/${file.path} has the name of a generated case`);
    files.push(file);
  }
  files.push({ path: 'families.toml', text: familiesToml() });
  return files;
}

function writtenCases(dir: string = WRITTEN): Written[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const abs = join(entry.parentPath, entry.name);
      return { path: relative(WRITTEN, abs), text: readFileSync(abs, 'utf8') };
    })
    .sort((a, b) => a.path.localeCompare(b.path));
}

function main(): void {
  for (const entry of readdirSync(OUT, { withFileTypes: true })) {
    if (entry.isDirectory()) rmSync(join(OUT, entry.name), { recursive: true, force: true });
  }
  const files = renderCorpus();
  for (const file of files) {
    const abs = join(OUT, file.path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, file.text);
  }
  const cases = files.filter((f) => f.path !== 'families.toml' && !f.path.endsWith('.properties')).length;
  process.stdout.write(`wrote ${String(cases)} cases under ${OUT}\n`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
