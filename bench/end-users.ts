// The end users the bench's end-user rows act as (docs/api.md, "End users"; bench/README.md, "End users: the access
// check per read"): who they are, their tokens (minted at start from the running server with the bench tenant's
// credentials, one a user, or several where a row must send tokens the server has not held) and the folder chain
// one organization's thread-list documents are filed in. The load processes read the tokens from a file named in
// BENCH_END_USER_TOKENS: ten thousand tokens do not fit in one environment variable.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_END_USER_TOKEN_CACHE } from '../src/services/end-user-tokens.js';
import { BENCH_CREDENTIALS, listDocOf, org, type Scale, userOf } from './dataset.js';

/** A user of the dataset (a profile in the organization: the access check finds them a member), and which token of theirs. */
export interface EndUserRef {
  organizationId: string;
  userId: string;
  /** Which of the user's tokens: 0, unless a row sends more tokens than the server holds verified. */
  copy: number;
}

const CREDENTIALS = {
  'content-type': 'application/json',
  'x-service-api-key': BENCH_CREDENTIALS.apiKey,
  'x-service-auth-token': BENCH_CREDENTIALS.authToken,
};

const usersOf = (organizations: number[], perOrg: number, copies = 1): EndUserRef[] =>
  organizations.flatMap((o) =>
    Array.from({ length: perOrg * copies }, (_, i) => ({
      organizationId: org(o),
      userId: userOf(i % perOrg),
      copy: Math.floor(i / perOrg),
    })),
  );

/** 25 users in each of the first 8 organizations (plain inboxes, documents in no folder): a token each. */
export const MEMBERS: readonly EndUserRef[] = usersOf([0, 1, 2, 3, 4, 5, 6, 7], 25);

/**
 * The same 200 users with more tokens each than the server holds verified (MARGINALIA_END_USER_TOKEN_CACHE's
 * default, the oldest let go first): sent in turn, none is held when it comes again, so every request verifies
 * its token's signature, as a token's first request does.
 */
export const MEMBERS_NEVER_HELD: readonly EndUserRef[] = usersOf(
  [0, 1, 2, 3, 4, 5, 6, 7],
  25,
  Math.ceil(DEFAULT_END_USER_TOKEN_CACHE / 200) + 2,
);

/** The organization whose thread-list documents sit at the bottom of a chain of FOLDER_DEPTH folders. */
const FOLDER_ORG = org(8);
export const FOLDER_DEPTH = 10;
const chainFolder = (level: number) => `bench-chain-${level}`;
/** 25 users of FOLDER_ORG: the access check walks the document's folder chain for each. */
export const FOLDER_MEMBERS: readonly EndUserRef[] = usersOf([8], 25);

async function post(url: string, path: string, data: unknown): Promise<unknown> {
  const res = await fetch(url + path, { method: 'POST', headers: CREDENTIALS, body: JSON.stringify({ data }) });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * Files FOLDER_ORG's thread-list documents in the deepest folder of a chain (root > 1 > ... > 10), makes them
 * restricted and lists FOLDER_MEMBERS on the top folder: each may read them only through the access check's walk up
 * the chain (a membership of a folder above the document). Without a membership or a role on a folder the walk is
 * not run at all (PostgreSQL's plan never reads the chain then). Through the API, so a dataset built before this row
 * needs no rebuild; run again on a database that has all this, it changes nothing.
 */
export async function fileInFolderChain(url: string, scale: Scale): Promise<void> {
  const organizationId = FOLDER_ORG;
  const folders = Array.from({ length: FOLDER_DEPTH }, (_, i) => ({
    folderId: chainFolder(i + 1),
    ...(i > 0 ? { parentFolderId: chainFolder(i) } : {}),
  }));
  await post(url, '/v1/organizations/folders/add', { organizationId, folders });
  const documentIds = Array.from({ length: scale.listDocumentsPerOrg }, (_, d) => listDocOf(d));
  await post(url, '/v1/organizations/documents/move', { organizationId, documentIds, folderId: chainFolder(FOLDER_DEPTH) });
  await post(url, '/v1/organizations/documents/access/update', { organizationId, documentIds, accessType: 'restricted' });
  const users = FOLDER_MEMBERS.map((u) => ({ userId: u.userId }));
  await post(url, '/v1/users/add', { organizationId, folderId: chainFolder(1), users });
}

const keyOf = (u: EndUserRef) => `${u.organizationId}/${u.userId}/${u.copy}`;
let tokens: Map<string, string> | undefined;

/** Mints a token for each user (auth/token/get, a few at a time) and names the file that holds them in BENCH_END_USER_TOKENS. */
export async function mintEndUserTokens(url: string, users: readonly EndUserRef[]): Promise<void> {
  const minted = new Map<string, string>();
  const unique = [...new Map(users.map((u) => [keyOf(u), u])).values()];
  let next = 0;
  const worker = async () => {
    while (next < unique.length) {
      const u = unique[next++]!;
      const answer = (await post(url, '/v1/auth/token/get', {
        userId: u.userId,
        userProperties: { organizationId: u.organizationId },
      })) as { result: { data: { token: string } } };
      minted.set(keyOf(u), answer.result.data.token);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  const file = join(mkdtempSync(join(tmpdir(), 'marginalia-bench-tokens-')), 'tokens.json');
  writeFileSync(file, JSON.stringify(Object.fromEntries(minted)));
  process.env.BENCH_END_USER_TOKENS = file;
  tokens = minted;
}

/** The `Authorization` header of the user's requests. */
export function authorizationOf(u: EndUserRef): string {
  if (!tokens) {
    const file = process.env.BENCH_END_USER_TOKENS;
    tokens = new Map(file ? Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : []);
  }
  const token = tokens.get(keyOf(u));
  if (!token) throw new Error(`no end-user token was minted for ${keyOf(u)} (mintEndUserTokens)`);
  return `Bearer ${token}`;
}
