// The edge predicates of approval workflows (docs/api.md, "Approval workflows"): a JSON AST walked
// safely, never run as code. `{"var": "output.decision"}` reads a path of the scope (output.*, step.*,
// execution.input.*); every other object is an operation `{op, args}`.
import type { JsonAst } from './workflow-graph.js';

/** Longest text a regex is matched against: the patterns are the caller's, so their cost is bounded. */
const MOST_MATCHED = 10_000;

/** The value at a dot path of `scope`, or undefined. */
export function atPath(scope: unknown, path: string): unknown {
  let value = scope;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

const isAst = (v: unknown): v is JsonAst => v !== null && typeof v === 'object' && !Array.isArray(v);

function evaluate(node: unknown, scope: unknown): unknown {
  if (!isAst(node)) return node;
  if (typeof node.var === 'string') return atPath(scope, node.var);
  const args = Array.isArray(node.args) ? node.args : [];
  const v = (i: number) => evaluate(args[i], scope);
  switch (node.op) {
    case 'eq':
      return v(0) === v(1);
    case 'ne':
    case 'neq':
      return v(0) !== v(1);
    case 'gt':
      return (v(0) as number) > (v(1) as number);
    case 'gte':
      return (v(0) as number) >= (v(1) as number);
    case 'lt':
      return (v(0) as number) < (v(1) as number);
    case 'lte':
      return (v(0) as number) <= (v(1) as number);
    case 'and':
      return args.every((a) => evaluate(a, scope) === true);
    case 'or':
      return args.some((a) => evaluate(a, scope) === true);
    case 'not':
      return v(0) !== true;
    case 'regex': {
      const [subject, pattern] = [v(0), v(1)];
      if (typeof subject !== 'string' || typeof pattern !== 'string') return false;
      try {
        return new RegExp(pattern).test(subject.slice(0, MOST_MATCHED));
      } catch {
        return false;
      }
    }
    case 'includes': {
      const [within, item] = [v(0), v(1)];
      return (typeof within === 'string' && typeof item === 'string') || Array.isArray(within)
        ? within.includes(item as never)
        : false;
    }
    case 'startsWith':
      return typeof v(0) === 'string' && typeof v(1) === 'string' && (v(0) as string).startsWith(v(1) as string);
    case 'endsWith':
      return typeof v(0) === 'string' && typeof v(1) === 'string' && (v(0) as string).endsWith(v(1) as string);
    case 'length': {
      const x = v(0);
      return typeof x === 'string' || Array.isArray(x) ? x.length : 0;
    }
    case 'isEmpty': {
      const x = v(0);
      return (
        x === undefined ||
        x === null ||
        x === '' ||
        (Array.isArray(x) && x.length === 0) ||
        (isAst(x) && Object.keys(x).length === 0)
      );
    }
    default:
      return false;
  }
}

/** Whether a predicate holds over `scope`; an unknown operation, or a value that is not true, does not. */
export const holds = (predicate: JsonAst, scope: unknown): boolean => evaluate(predicate, scope) === true;
