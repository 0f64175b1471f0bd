import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { z } from 'zod';
import { InputError } from '../errors.js';
import { readRegularFile, type CommandIO, type ExitCode } from '../io.js';
import { escapeJsonText } from '../report/escape.js';
import { check, checkedToJson } from '../guard/check.js';
import { ConsultationSchema, ProposalSchema } from '../guard/shapes.js';

export interface GuardOptions {
  repo: string;
  consultation: string;
  proposal: string;
}

/** Input files larger than this are not a consultation or a proposal. */
const MAX_INPUT_BYTES = 8 * 1024 * 1024;

async function readJsonInput<T>(file: string, what: string, schema: z.ZodType<T>): Promise<T> {
  const read = readRegularFile(file, MAX_INPUT_BYTES);
  if (!read.ok) throw new InputError(`the ${what} file ${file} ${read.problem}`);
  const text = read.bytes.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputError(`the ${what} file ${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new InputError(`the ${what} file ${file} does not have the ${what} shape: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** `jscr guard`: check one proposal against one consultation and print the Checked (SPEC 6). */
export async function guardCommand(options: GuardOptions, io: CommandIO): Promise<ExitCode> {
  const root = resolve(io.cwd, options.repo);
  const rootInfo = await stat(root).catch(() => null);
  if (!rootInfo?.isDirectory()) throw new InputError(`--repo ${options.repo} is not a directory`);
  const consultation = await readJsonInput(resolve(io.cwd, options.consultation), 'consultation', ConsultationSchema);
  const proposal = await readJsonInput(resolve(io.cwd, options.proposal), 'proposal', ProposalSchema);
  const checked = await check(consultation, proposal, root, { env: io.env });
  io.stdout.write(`${escapeJsonText(JSON.stringify(checkedToJson(checked), null, 2))}\n`);
  return checked.refusal === null ? 0 : 1;
}
