// Who is on a document (/v2 only), with the messages its pages document; presence/get is an extension.
import { presenceUser } from '../domain/answers/presence.js';
import { CONTRACT } from '../schemas/operations/index.js';
import { addPresence, deletePresence, getPresence, updatePresence } from '../services/presence.js';
import { operation } from './operation.js';
import { success } from '../http/envelope.js';

/** Who is on a document. */
export const presence = [
  operation(CONTRACT.presenceAdd, { run: addPresence, answer: 'Presence added successfully.' }),
  operation(CONTRACT.presenceUpdate, { run: updatePresence, answer: 'Presence updated successfully.' }),
  operation(CONTRACT.presenceDelete, { run: deletePresence, answer: 'Presence deleted successfully.' }),
  operation(CONTRACT.presenceGet, {
    run: getPresence,
    answer: (users) => success('Presence retrieved successfully.', users.map(presenceUser)),
  }),
];
