/** livestate/broadcast: `data` becomes the document's state under the id, or (merge) is shallow-merged into it. */
export interface LiveStateBroadcast {
  organizationId: string;
  documentId: string;
  liveStateDataId: string;
  data: Readonly<Record<string, unknown>>;
  merge: boolean;
}

/** What a document's live state may hold: ids per document, and bytes of JSON per state. */
export interface LiveStateBounds {
  ids: number;
  bytes: number;
}

/** A document's live state under one id: the JSON text of an object, and when it was last written. */
export interface LiveStateRecord {
  liveStateDataId: string;
  data: string;
  updatedAt: number;
}
