// What the client needs of the contract table at run time: each operation's path per version and whose
// credentials call it. Everything else the client takes from the table is types. This module is the
// only one of the client that evaluates the table (and with it every TypeBox schema); the browser
// bundle (scripts/bundle-client.mjs) replaces it with the object it computes, so a page loads the
// calls without the schemas.
import type { Version } from '../../src/schemas/operations/contract.js';
import { CONTRACT, type OperationName } from '../../src/schemas/operations/index.js';

/** Where an operation is served and, for the workspace pages, that the workspace's credentials call it. */
export interface Route {
  paths: Partial<Record<Version, string>>;
  workspace?: true;
}

/** Every operation's route, by its name. */
export type Routes = Record<OperationName, Route>;

export const ROUTES: Routes = Object.fromEntries(
  (Object.keys(CONTRACT) as OperationName[]).map((name) => {
    const c = CONTRACT[name] as { paths: Route['paths']; credentials?: string };
    const route: Route = { paths: { ...c.paths } };
    if (c.credentials === 'workspace') route.workspace = true;
    return [name, route];
  }),
) as Routes;
