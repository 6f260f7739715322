// The request data of documents' live state: livestate/broadcast, and livestate/get (an extension).
import Type from 'typebox';
import { Filter, FreeObject, Id, MAX_PAGE_SIZE, Opt, RequestBody, type DataOf, type InputLimits } from './common.js';

export const LiveStateBroadcastBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: Id,
      documentId: Id,
      liveStateDataId: Id,
      // The state: any JSON object, kept as sent; bounded by the body limit alone.
      data: FreeObject,
      merge: Opt(
        Type.Boolean({
          description: 'false (the default): data replaces the state; true: its members replace theirs in the state (shallow)',
        }),
      ),
    }),
  );
export type LiveStateBroadcastData = DataOf<typeof LiveStateBroadcastBody>;

export const LiveStateGetBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: Id,
      documentId: Id,
      // None or empty: every state of the document.
      liveStateDataIds: Filter(limits, Id),
      pageSize: Opt(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, description: 'States a page holds at most (100)' })),
      pageToken: Opt(Type.String({ maxLength: 1024 })),
    }),
  );
export type LiveStateGetData = DataOf<typeof LiveStateGetBody>;
