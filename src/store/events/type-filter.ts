// Which event types a stream's `types` or a webhook's `events` name (docs/events.md, "Webhooks"): exact types
// (`comment.add`) and families (`comment.*`: every type of that family). One matcher for both.
export class TypeFilter {
  private readonly exact = new Set<string>();
  private readonly families: string[] = [];

  constructor(types: readonly string[]) {
    for (const t of types) {
      if (t.endsWith('.*')) this.families.push(t.slice(0, -1));
      else this.exact.add(t);
    }
  }

  matches(type: string): boolean {
    if (this.exact.has(type)) return true;
    for (const family of this.families) if (type.startsWith(family)) return true;
    return false;
  }
}

/**
 * What a webhook that names no types is sent (docs/events.md, "Webhooks"): every event but presence's,
 * heartbeats that a receiver asks for by name (`presence.*`) rather than gets by default.
 */
export const sentUnasked = (type: string): boolean => !type.startsWith('presence.');
