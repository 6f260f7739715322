// Reactions on comments (an extension on /v1 and /v2; docs/api.md, "Reactions"): server credentials for any user, an
// end-user token for its own user on comments it may read.
import { CONTRACT } from '../schemas/operations/index.js';
import * as endUsers from '../services/end-user-rules.js';
import { addReaction, deleteReaction } from '../services/reactions.js';
import { operation } from './operation.js';

export const reactions = [
  operation(CONTRACT.reactionsAdd, { run: addReaction, endUser: endUsers.reactions, answer: 'Reaction added successfully.' }),
  operation(CONTRACT.reactionsDelete, {
    run: deleteReaction,
    endUser: endUsers.reactions,
    answer: 'Reaction deleted successfully.',
  }),
];
