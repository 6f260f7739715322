// A user's personal data: read, and erased.
import { sendSuccessJson } from '../http/envelope.js';
import { operation } from './operation.js';
import { CONTRACT } from '../schemas/operations/index.js';
import { deleteUserData, erasureStatus, getUserData } from '../services/personal-data.js';

/** A user's personal data: read, and erased. */
export const personalData = [
  operation(CONTRACT.userDataGet, {
    run: getUserData,
    answer: ({ dataJson, nextPageToken }, _request, reply) =>
      sendSuccessJson(reply, 'Data fetched successfully.', dataJson, nextPageToken ? { nextPageToken } : {}),
  }),
  operation(CONTRACT.userDataDelete, {
    run: deleteUserData,
    answer: (data, _request, reply) => {
      reply.code(202);
      return { status: 'success' as const, message: 'Data deletion process has been initiated.', data, statusCode: 202 as const };
    },
  }),
  operation(CONTRACT.userDataStatus, {
    run: erasureStatus,
    answer: 'Data fetched successfully.',
  }),
];
