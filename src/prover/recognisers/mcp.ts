/**
 * Model Context Protocol tools: each tool a server registers is an endpoint that any connected client
 * (a model acting for whoever talks to it) calls with arguments it chooses, and the handler runs with
 * the server's rights. TypeScript (`@modelcontextprotocol/sdk`): `server.tool(name, [description],
 * [schema], handler)`, `server.registerTool(name, config, handler)`, and the low-level
 * `server.setRequestHandler(CallToolRequestSchema, handler)`; Python (`mcp`'s FastMCP, `fastmcp`):
 * functions decorated `@mcp.tool()` / `@server.tool`. Only files that import an MCP SDK are read.
 * The handler is judged by what it calls, like any entry: a tool that deletes or runs commands with
 * no check in its body (or a helper it calls) is reported.
 */
import type { FunctionRef, ProgramFile } from '../types.js';
import type { Program } from '../resolution.js';
import { functionStartingAt, namedFunction } from './js-handlers.js';
import { nothing, type Recogniser } from './types.js';

/** Modules whose import marks a file as an MCP server. */
const MCP_MODULES = /^(@modelcontextprotocol\/sdk(\/.*)?|mcp(\.server(\.\w+)*)?|fastmcp(\.\w+)*)$/;
const TS_REGISTRATIONS = new Set(['tool', 'registerTool']);
/** A Python decorator that registers a tool: `mcp.tool()`, `server.tool`, `app.tool(name="x")`. */
const PY_TOOL_DECORATOR = /^[A-Za-z_]\w*\.tool\b(\s*\(.*\))?$/s;

function importsMcp(file: ProgramFile): boolean {
  return file.ir.imports.some((imp) => MCP_MODULES.test(imp.module));
}

export const mcp: Recogniser = {
  id: 'mcp',
  languages: ['typescript', 'python'],
  recognise(file, { program }) {
    const result = nothing();
    if (!importsMcp(file)) return result;
    const add = (handler: FunctionRef, evidence: string, line: number): void => {
      if (result.entries.some((e) => e.functionId === handler.id)) return;
      result.entries.push({ functionId: handler.id, path: handler.path, function: handler.fn.qualifiedName, line: handler.fn.startLine, framework: 'mcp', kind: 'route', access: 'protected', evidence, registeredBy: `${file.path}:${line}` });
    };
    if (file.language === 'python') {
      for (const fn of file.ir.functions) {
        const decorator = fn.decorators.find((d) => PY_TOOL_DECORATOR.test(d.trim()));
        const ref = decorator === undefined ? undefined : program.nodeOf.get(fn);
        if (ref && decorator !== undefined) add(ref, `MCP tool registered by @${decorator.trim()}`, fn.startLine);
      }
      return result;
    }
    for (const call of file.ir.calls) {
      const lowLevel = call.callee === 'setRequestHandler' && /\(\s*CallToolRequestSchema\s*,/.test(call.text);
      if (call.receiver === null || (!TS_REGISTRATIONS.has(call.callee) && !lowLevel)) continue;
      const handler = handlerOf(program, file, call.line, call.text);
      if (!handler) {
        result.unresolved.handler_unresolved = (result.unresolved.handler_unresolved ?? 0) + 1;
        continue;
      }
      const name = /^[^(]*\(\s*(['"`])([^'"`]+)\1/.exec(call.text)?.[2];
      add(handler, lowLevel ? `MCP tools/call handler set at ${file.path}:${call.line}` : `MCP tool ${name === undefined ? '' : `"${name}" `}registered by ${call.receiver}.${call.callee}() at ${file.path}:${call.line}`, call.line);
    }
    return result;
  },
};

/**
 * The handler of a registration starting at `line`: the last argument, a function written in place
 * (the first function that starts on a later line of the call, or on its own line after the name) or
 * a name the file or its imports define.
 */
function handlerOf(program: Program, file: ProgramFile, line: number, text: string): FunctionRef | null {
  const named = /,\s*([A-Za-z_$][\w$.]*)\s*\)\s*;?\s*$/.exec(text.replace(/\s+/g, ' '));
  if (named?.[1] && !/^(async|function)$/.test(named[1])) return namedFunction(program, file, named[1]);
  for (let at = line; at <= Math.min(file.lines.length, line + 40); at++) {
    const found = functionStartingAt(program, file, at);
    if (found && found.fn.startLine >= line) return found;
    // The next registration starts: this one's handler is not written in place.
    if (at > line && /\.\s*(tool|registerTool|setRequestHandler)\s*\(/.test(file.lines[at - 1] ?? '')) return null;
  }
  return null;
}
