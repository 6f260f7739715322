// A thread's own members from a read row: what its stored head is rendered from (answers/annotations.ts).
import type { Positions } from '../select.js';
import type { ThreadHead } from '../../domain/threads.js';
import type { UserRef } from '../../domain/users.js';
import type { HEAD_COLUMNS } from './sql.js';

const userRefOf = (json: string | null): UserRef | null => (json === null ? null : (JSON.parse(json) as UserRef));

/** The head of a row that holds HEAD_COLUMNS at `at` (the whole-thread read, a locked thread). */
export function headFrom(r: unknown[], at: Positions<typeof HEAD_COLUMNS>): ThreadHead {
  return {
    annotationId: r[at.annotationId] as string,
    location: r[at.location] as string | null,
    locationId: r[at.locationId] as string | null,
    context: r[at.context] as string | null,
    status: r[at.threadStatus] as string,
    createdAt: Number(r[at.threadCreatedAt]),
    lastUpdated: Number(r[at.threadLastUpdated]),
    color: r[at.color] as string | null,
    assignedTo: userRefOf(r[at.assignedTo] as string | null),
    priority: r[at.priority] as string | null,
    targetElement: r[at.targetElement] as string | null,
    kind: r[at.kind] as string,
    suggestion: r[at.suggestion] as string | null,
    commentType: r[at.commentType] as string | null,
    visibility: r[at.visibility] as string | null,
    resolvedBy: r[at.resolvedBy] as string | null,
    statusUpdatedBy: r[at.statusUpdatedBy] as string | null,
  };
}
