// A user's personal data: read, and erased.
import { UserDataDeleteBody, UserDataGetBody, UserDataStatusBody } from '../personal-data.js';
import { ErasureResult, ErasureStatusResult, UserDataResult } from '../responses.js';
import { contract } from './contract.js';

export const personalData = {
  userDataGet: contract({
    paths: { v1: 'users/data/get', v2: 'users/data/get' },
    summary: "A page of a user's data in an organization: comments they wrote, notifications they acted or are addressed in",
    tags: ['users'],
    body: UserDataGetBody,
    example: { organizationId: 'acme', userId: 'bob' },
    result: UserDataResult,
  }),
  userDataDelete: contract({
    paths: { v1: 'users/data/delete', v2: 'users/data/delete' },
    summary: 'Erase the personal data of users in the organizations named, or all; done before the answer',
    description:
      'Answers HTTP 202 with the body the original service documents: `status`, `message`, `data` and ' +
      '`statusCode` at the top, with no `result` wrapper (docs/decisions.md).',
    tags: ['users'],
    body: UserDataDeleteBody,
    example: { userIds: ['cy'] },
    result: ErasureResult,
    successStatus: 202,
  }),
  userDataStatus: contract({
    paths: { v1: 'users/data/delete/status', v2: 'users/data/delete/status' },
    summary: 'The state of a users/data/delete job',
    tags: ['users'],
    body: UserDataStatusBody,
    example: { jobId: '0193f1c2-7a10-7c3e-9a51-2f0e6b1c9d44' },
    result: ErasureStatusResult,
    also: [404],
  }),
};
