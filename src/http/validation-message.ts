// Turns the first schema violation into one sentence that names the member path the way a caller
// writes it (`data.users[2].email`), as docs/api.md "Wire format" asks.

/** The parts of an Ajv error we read (Ajv runs with verbose: true, so parentSchema is there). */
export interface ValidationIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
  parentSchema?: { description?: string; properties?: Record<string, unknown> };
}

export function memberPath(instancePath: string): string {
  if (instancePath === '') return 'body';
  return instancePath
    .split('/')
    .slice(1)
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, seg, i) => {
      if (/^\d+$/.test(seg)) return `${path}[${seg}]`;
      if (!/^[A-Za-z_$][\w$]*$/.test(seg)) return `${path}[${JSON.stringify(seg)}]`;
      return i === 0 ? seg : `${path}.${seg}`;
    }, '');
}

const ARTICLE: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  object: 'an object',
  array: 'an array',
  boolean: 'a boolean',
  null: 'null',
};

/** `context`: where the value was (Fastify's validationContext: body, querystring, params, headers). */
export function validationMessage(issue: ValidationIssue, context = 'body'): string {
  const path = memberPath(issue.instancePath);
  const p = issue.params;
  switch (issue.keyword) {
    case 'required':
      return `${path === 'body' ? '' : `${path}.`}${String(p.missingProperty)} is required.`;
    case 'type': {
      const types = String(p.type)
        .split(',')
        .filter((t) => t !== 'null');
      return `${path} must be ${types.map((t) => ARTICLE[t] ?? t).join(' or ')}.`;
    }
    case 'minLength':
      return `${path} must be at least ${String(p.limit)} character${p.limit === 1 ? '' : 's'} long.`;
    case 'maxLength':
      return `${path} must be at most ${String(p.limit)} characters long.`;
    case 'minItems':
      return `${path} must have at least ${String(p.limit)} entr${p.limit === 1 ? 'y' : 'ies'}.`;
    case 'maxItems':
      return `${path} must have at most ${String(p.limit)} entries.`;
    case 'minimum':
      return `${path} must be at least ${String(p.limit)}.`;
    case 'maximum':
      return `${path} must be at most ${String(p.limit)}.`;
    case 'enum':
      return `${path} must be one of ${(p.allowedValues as unknown[]).map(String).join(', ')}.`;
    case 'pattern':
      return `${path} must be ${issue.parentSchema?.description ?? `shaped like ${String(p.pattern)}`}.`;
    case 'additionalProperties': {
      // Bodies ignore unknown members (docs/api.md); a query that refuses them says which (docs/events.md).
      const name = JSON.stringify(String(p.additionalProperty));
      const known = Object.keys(issue.parentSchema?.properties ?? {}).join(', ');
      const what = context === 'querystring' ? `query parameter ${name}` : `member ${name} in ${path}`;
      return `Unknown ${what}${known ? `; known: ${known}` : ''}.`;
    }
    default:
      return `${path} ${issue.message ?? 'is not valid'}.`;
  }
}
