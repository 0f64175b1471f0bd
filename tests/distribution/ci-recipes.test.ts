/**
 * What a CI system loads as YAML: the Action's metadata (action.yml), the README's GitHub Actions and
 * GitLab CI recipes, and the workflow `jscr init --github` writes. A plain scalar holding ": " is a
 * YAML error that GitHub reports only when a workflow first uses the Action, so each is parsed here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTION_REF } from '../../src/distribution.js';
import { workflowFile } from '../../src/init/files.js';
import { CHECKOUT } from '../helpers/binary.js';

// js-yaml comes with eslint (a scanner jscr adapts); it has no type declarations of its own.
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface ActionMetadata {
  inputs: Record<string, { description?: unknown; default?: unknown; required?: unknown }>;
  outputs: Record<string, { description?: unknown; value?: unknown }>;
  runs: { using: string; steps: Step[] };
}
interface Workflow {
  on: unknown;
  permissions?: Record<string, string>;
  jobs: Record<string, { 'runs-on': string; steps: Step[] }>;
}
interface GitLabJob {
  image: string;
  script: string[];
  artifacts: { when: string; paths: string[] };
}

const readme = readFileSync(join(CHECKOUT, 'README.md'), 'utf8');

/** The README's fenced blocks of one language, in order. */
function fencedBlocks(language: string): string[] {
  return [...readme.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((match) => match[1] ?? '');
}

function expectJscrWorkflow(workflow: Workflow): void {
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
  expect(steps.find((step) => step.uses?.startsWith('actions/checkout@'))?.with).toMatchObject({ 'fetch-depth': 0 });
  expect(steps.map((step) => step.uses)).toContain(ACTION_REF);
  // upload-sarif needs the token to write security events; without it the Action's upload step fails.
  expect(workflow.permissions).toMatchObject({ contents: 'read', 'security-events': 'write' });
}

describe('YAML that CI systems load', () => {
  it('action.yml is valid YAML: every input documented with a default, every script it runs shipped', () => {
    const action = yaml.load(readFileSync(join(CHECKOUT, 'action.yml'), 'utf8')) as ActionMetadata;
    expect(Object.keys(action.inputs).sort()).toEqual(['config', 'fail-on', 'format', 'range', 'sarif']);
    for (const [name, input] of Object.entries(action.inputs)) {
      expect(typeof input.description, name).toBe('string');
      expect(typeof input.default, name).toBe('string');
    }
    for (const output of Object.values(action.outputs)) expect(typeof output.description).toBe('string');
    expect(action.runs.using).toBe('composite');
    for (const step of action.runs.steps) {
      const script = /"\$GITHUB_ACTION_PATH\/([^"]+)"/.exec(step.run ?? '')?.[1];
      if (script !== undefined) expect(existsSync(join(CHECKOUT, script)), script).toBe(true);
    }
    // CodeQL Action v3 is deprecated from December 2026.
    expect(action.runs.steps.map((step) => step.uses).filter((uses) => uses !== undefined)).toEqual(['github/codeql-action/upload-sarif@v4']);
  });

  it("the README's GitHub Actions recipe is a workflow using the Action with a full clone", () => {
    const workflows = fencedBlocks('yaml').map((text) => yaml.load(text) as Partial<Workflow>).filter((doc) => doc.jobs !== undefined);
    expect(workflows).toHaveLength(1);
    expectJscrWorkflow(workflows[0] as Workflow);
  });

  it("the README's GitLab CI recipe installs the scoped package and keeps the report it writes", () => {
    const jobs = fencedBlocks('yaml')
      .map((text) => yaml.load(text) as Record<string, Partial<GitLabJob>>)
      .flatMap((doc) => Object.values(doc).filter((job): job is GitLabJob => Array.isArray(job.script)));
    expect(jobs).toHaveLength(1);
    const job = jobs[0] as GitLabJob;
    expect(job.script.some((line) => /^npm install --global @jscr\/cli@\d+\.\d+\.\d+$/.test(line))).toBe(true);
    const output = /--output (\S+)/.exec(job.script.join('\n'))?.[1];
    expect(output).toBeDefined();
    expect(job.artifacts).toEqual({ when: 'always', paths: [output] });
  });

  it('the workflow jscr init --github writes is valid YAML of the same shape', () => {
    expectJscrWorkflow(yaml.load(workflowFile()) as Workflow);
  });
});
