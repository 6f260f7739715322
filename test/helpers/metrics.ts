// Reading the Prometheus text of GET /metrics in tests.

/** The value of one sample line, e.g. metric{a="b"} 3. */
export function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const inside = /\{([^}]*)\}/.exec(line)?.[1] ?? '';
    if (want.every((w) => inside.split(',').includes(w))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}
