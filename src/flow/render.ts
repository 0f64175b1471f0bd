/** Short source-like text for flow IR expressions: what a finding's path shows at each step. */
import type { FlowExpr, FlowTarget } from './ir.js';

const MAX_TEXT = 80;

function clip(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 3)}...` : text;
}

function renderInner(e: FlowExpr, depth: number): string {
  if (depth > 4) return '...';
  const r = (x: FlowExpr) => renderInner(x, depth + 1);
  switch (e.kind) {
    case 'literal':
      return e.text !== '' ? e.text : JSON.stringify(e.value);
    case 'name':
      return e.name;
    case 'field':
      return `${r(e.object)}.${e.field}`;
    case 'index':
      return `${r(e.object)}[${r(e.index)}]`;
    case 'call': {
      const args = e.arguments.map((a) => r(a.value)).join(', ');
      // a decorated function's return, seen by the sink rows as a call (engine.ts returnSinks)
      if (e.callee === '__return__') return `return ${args}`;
      const callee = e.isNew ? `new ${e.constructed ?? e.callee}` : e.receiver ? `${r(e.receiver)}.${e.callee}` : e.callee;
      return `${callee}(${args})`;
    }
    case 'binary':
      return `${r(e.left)} ${e.operator} ${r(e.right)}`;
    case 'unary':
      return `${e.operator}${r(e.operand)}`;
    case 'conditional':
      return `${r(e.condition)} ? ${r(e.then)} : ${r(e.otherwise)}`;
    case 'template':
      return e.parts.map((p) => (p.kind === 'literal' && typeof p.value === 'string' ? p.value : `{${r(p)}}`)).join('');
    case 'collection':
      return e.shape === 'map' ? '{...}' : '[...]';
    case 'function':
      return e.qualifiedName;
    case 'cast':
      return `(${e.type}) ${r(e.value)}`;
    case 'assignment':
      return `${renderTarget(e.target)} ${e.operator} ${r(e.value)}`;
    case 'unknown':
      return e.text.split('\n')[0] ?? '';
  }
}

export function renderExpr(e: FlowExpr): string {
  return clip(renderInner(e, 0));
}

export function renderTarget(t: FlowTarget): string {
  switch (t.kind) {
    case 'name':
      return t.name;
    case 'field':
      return clip(`${renderInner(t.object, 1)}.${t.field}`);
    case 'index':
      return clip(`${renderInner(t.object, 1)}[${renderInner(t.index, 1)}]`);
    case 'destructure':
      return '[...]';
  }
}
