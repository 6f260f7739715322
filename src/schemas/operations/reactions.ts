// Reactions on comments (an extension, /v1 and /v2 alike; docs/api.md, "Reactions").
import { ReactionBody, ReactionResult } from '../reactions.js';
import { contract } from './contract.js';

const tags = ['comments'] as const;

export const reactions = {
  reactionsAdd: contract({
    paths: { v1: 'commentannotations/reactions/add', v2: 'commentannotations/reactions/add' },
    summary: "Add a user's reaction (an emoji or an icon name) to a comment (extension)",
    description:
      'Adding a reaction the user already made changes nothing and answers the same. Past ' +
      'MARGINALIA_MAX_REACTIONS_PER_COMMENT or MARGINALIA_MAX_REACTION_ICONS_PER_COMMENT: 429 `RESOURCE_EXHAUSTED`, nothing ' +
      'written. An absent comment: 404. The event `comment.reaction_add` carries it. An end-user token reacts as its ' +
      'own user, on comments of documents it may read.',
    tags,
    body: ReactionBody,
    example: { organizationId: 'acme', documentId: 'spec', annotationId: 't1', commentId: 2, icon: '👍', userId: 'ann' },
    result: ReactionResult,
    also: [404],
  }),
  reactionsDelete: contract({
    paths: { v1: 'commentannotations/reactions/delete', v2: 'commentannotations/reactions/delete' },
    summary: "Remove a user's reaction from a comment (extension)",
    description:
      'A reaction that is not there is answered as comments/delete answers an absent comment: `success: false`, ' +
      '`Not found`, HTTP 200. An absent comment: 404. The event `comment.reaction_delete` carries what went.',
    tags,
    body: ReactionBody,
    example: { organizationId: 'acme', documentId: 'spec', annotationId: 't1', commentId: 2, icon: '👍', userId: 'ann' },
    result: ReactionResult,
    also: [404],
  }),
};
