// A user's personal data: read, and erased.
import { sendSuccessJson } from '../http/envelope.js';
import { operation } from './operation.js';
import { UserDataDeleteBody, UserDataGetBody, UserDataStatusBody } from '../schemas/personal-data.js';
import { ErasureResult, ErasureStatusResult, UserDataResult, answers } from '../schemas/responses.js';
import { deleteUserData, erasureStatus, getUserData } from '../services/personal-data.js';

/** A user's personal data: read, and erased. */
export const personalData = [
  operation({
    paths: { v1: 'users/data/get' },
    summary:
      "A page of a user's data in an organization: comments they wrote, notifications they acted or are addressed in (SPEC 12)",
    tags: ['users'],
    body: UserDataGetBody,
    response: answers(UserDataResult),
    run: getUserData,
    answer: ({ dataJson, nextPageToken }, _request, reply) =>
      sendSuccessJson(reply, 'Data fetched successfully.', dataJson, nextPageToken ? { nextPageToken } : {}),
  }),
  operation({
    paths: { v1: 'users/data/delete' },
    summary: 'Erase the personal data of users in the organizations named, or all; done before the answer (SPEC 12)',
    description:
      'Answers HTTP 202 with the body the original service documents: `status`, `message`, `data` and ' +
      '`statusCode` at the top, with no `result` wrapper (docs/decisions.md).',
    tags: ['users'],
    body: UserDataDeleteBody,
    response: answers(ErasureResult, [], { successStatus: 202 }),
    run: deleteUserData,
    answer: (data, _request, reply) => {
      reply.code(202);
      return { status: 'success' as const, message: 'Data deletion process has been initiated.', data, statusCode: 202 as const };
    },
  }),
  operation({
    paths: { v1: 'users/data/delete/status' },
    summary: 'The state of a users/data/delete job (SPEC 12)',
    tags: ['users'],
    body: UserDataStatusBody,
    response: answers(ErasureStatusResult, [404]),
    run: erasureStatus,
    answer: 'Data fetched successfully.',
  }),
];
