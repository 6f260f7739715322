// Organizations, documents, folders and members as their reads show them (docs/api.md, "Organizations"): one mapper
// each from the store's record, shared by the reads (services/) and by the events that carry the object
// (docs/events.md, "Event types and their data"; store/<feature>/events.ts), so an event's data is what the read
// answers.
import type { Static } from 'typebox';
import { ROOT } from '../../schemas/folders.js';
import type { Document, FolderAnswer, Member, Organization } from '../../schemas/responses.js';
import type { DocumentRecord, FolderRecord, OrganizationRecord } from '../organizations.js';
import type { Profile } from '../users.js';

/** An organization as organizations/get shows it. */
export const shownOrganization = (o: OrganizationRecord): Static<typeof Organization> => ({
  id: o.organizationId,
  organizationName: o.name,
  disabled: o.disabled,
  createdAt: o.createdAt,
  lastUpdated: o.updatedAt,
});

/** A document as organizations/documents/get shows it. */
export const shownDocument = (d: DocumentRecord): Static<typeof Document> => ({
  id: d.documentId,
  documentName: d.name,
  folderId: d.folderId,
  accessType: d.accessType,
  disabled: d.disabled,
  createdAt: d.createdAt,
  lastUpdated: d.updatedAt,
});

/** A folder as organizations/folders/get shows it in its flat list ("root": at the top). */
export const shownFolder = (f: FolderRecord, organizationId: string): FolderAnswer => ({
  folderId: f.folderId,
  folderName: f.name,
  organizationId,
  parentFolderId: f.parentId ?? ROOT,
  accessType: f.accessType,
  createdAt: f.createdAt,
  lastUpdated: f.updatedAt,
});

/** A member as users/get shows it: "" for a field never set. */
export const shownMember = (p: Profile): Static<typeof Member> => ({
  userId: p.userId,
  name: p.name ?? '',
  email: p.email ?? '',
  photoUrl: p.photoUrl ?? '',
});
