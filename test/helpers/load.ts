// A bounded write load against a real server process, for the fault tests: writers add notifications
// with ids of their own as fast as the server answers, and record every answer. Stops by itself.
import { post } from './server-process.js';

export interface Answer {
  status: number;
  /** performance.now() at send and at answer. */
  sentAt: number;
  answeredAt: number;
  id: string;
}

export interface WriteLoad {
  answers: Answer[];
  /** Ids whose write got its 200: each must be readable afterwards. */
  acknowledged(): string[];
  stop(): Promise<void>;
}

export const LOAD_ORGANIZATION = 'faults';
export const LOAD_RECIPIENT = 'reader';

/** `writers` loops of notifications/add, each at most `maxMs` long. */
export function writeLoad(url: string, creds: { apiKey: string; authToken: string }, writers: number, maxMs: number): WriteLoad {
  const answers: Answer[] = [];
  let stopped = false;
  const deadline = performance.now() + maxMs;
  const loop = async (w: number) => {
    for (let i = 0; !stopped && performance.now() < deadline; i++) {
      const id = `w${w}-${i}`;
      const sentAt = performance.now();
      let status: number;
      try {
        status = (
          await post(url, '/v1/notifications/add', creds, {
            organizationId: LOAD_ORGANIZATION,
            notificationId: id,
            actionUser: { userId: 'writer' },
            displayHeadlineMessageTemplate: 'load',
            notifyUsers: [{ userId: LOAD_RECIPIENT }],
          })
        ).status;
      } catch {
        status = 0; // the connection failed: no answer at all
      }
      answers.push({ status, sentAt, answeredAt: performance.now(), id });
    }
  };
  const running = Promise.all(Array.from({ length: writers }, (_, w) => loop(w)));
  return {
    answers,
    acknowledged: () => answers.filter((a) => a.status === 200).map((a) => a.id),
    stop: async () => {
      stopped = true;
      await running;
    },
  };
}

/** Every notification id the load's recipient can read, page by page. */
export async function readAllIds(url: string, creds: { apiKey: string; authToken: string }): Promise<Set<string>> {
  const ids = new Set<string>();
  let pageToken: string | undefined;
  do {
    const r = await post(url, '/v1/notifications/get', creds, {
      organizationId: LOAD_ORGANIZATION,
      userId: LOAD_RECIPIENT,
      pageSize: 1000,
      ...(pageToken ? { pageToken } : {}),
    });
    if (r.status !== 200) throw new Error(`read failed: ${r.text}`);
    for (const n of r.json.result.data) ids.add(n.id);
    pageToken = r.json.result.pageToken;
  } while (pageToken);
  return ids;
}

/** Counts answers by HTTP status, e.g. {"200": 812, "503": 9}. */
export function byStatus(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return counts;
}
