// What `marginalia --help` and `marginalia <command> --help` print.
import { VERSION } from '../version.js';

export const USAGE = `marginalia ${VERSION}: users, comment threads and notifications behind an HTTP JSON API

Usage: marginalia <command> [options]

Commands:
  serve                               run the HTTP service (the default)
  migrate                             bring the database schema up to date and say what it did
  backup <file>                       copy the database, consistent while the server serves; prints {"file","bytes","migration"}
  restore <file>                      replace the database with a backup (the server stopped); prints {"file","kept","migration"}
  seed --demo                         load a small demo organization; prints credentials and curl commands
  keys create --name <name>           create a tenant; prints {"apiKey","authToken"}
  keys list                           list API keys and their tokens (prefixes only)
  keys revoke <apiKey>                revoke an API key: its requests get 401
  keys disable <apiKey>               disable a tenant: its requests get 403
  keys enable <apiKey>                enable a disabled tenant again
  keys rotate-signing-key <apiKey>    a new key for the tenant's end-user tokens: the old tokens are refused
  tokens create <apiKey>              add an auth token to a key; prints {"apiKey","authToken"}
  tokens revoke <apiKey> <prefix>     revoke the token that starts with <prefix>
  orgs list [--tenant <t>]            list the tenant's organizations
  users erase --user <id> ...         erase a user's personal data, as users/data/delete; prints {"jobId","tasksCount"}
  webhooks add --url <url> ...        add a webhook; prints {"webhookId","secret"}
  webhooks list                       list the tenant's webhooks (never their secrets)
  webhooks delete --id <webhookId>    delete a webhook and its pending deliveries
  webhooks deliveries --id <id>       a webhook's last delivery attempts, newest first
  workspace credentials               make the workspace's id and auth token, or rotate the token;
                                      prints {"workspaceId","workspaceAuthToken","rotated"}
  webhooks replay --id <id> --event <eventId>   send one event to a webhook again
  webhooks recover --id <id> --since <time>     send again every delivery that failed since a time
  webhooks rotate --id <id>           a new secret; the old one signs too during the grace period
  webhooks enable --id <id>           switch on a webhook the server switched off after failing too long
  retention get [--org <id>]          the tenant's retention policy, or an organization's, and the one in force
  retention set [--org <id>] ...      set a retention policy (days per kind); prints it as retention get does
  retention run [--dry-run]           apply the tenant's retention policies now, or count what that would delete
  import --from <url> --api-key <k> --auth-token <t>   copy every organization of another server speaking this API
                                      here, keeping ids, authors, times and read state; resumable (--help for more)
  email test <address>                send a test mail through MARGINALIA_SMTP_URL; prints {"sent","to","from","smtp"}

Options:
  -h, --help                          this help, or a command's: marginalia keys create --help (or marginalia keys)
  -v, --version                       the version
  --tenant <t>                        the tenant, by API key, tenant id or name (may be left out when there is only one)

Settings come from the environment (DATABASE_URL, PORT, ...); see docs/configuration.md.
Exit codes: 0 done, 1 failed (bad configuration, unknown key, database error), 2 wrong usage.`;

const COMMANDS: Record<string, string> = {
  import: `Usage: marginalia import --from <base-url> --api-key <key> --auth-token <token> [--org <id> ...]
         [--tenant <tenant>] [--dry-run] [--checkpoint <file>] [--concurrency <n>] [--rate <n>]

Reads every organization (or those --org names), folder, document, user, thread with its comments,
notification with its read state and notification setting from the server at <base-url> (the original
service, or another Marginalia: /v2 where it answers, else /v1), and writes them into the tenant here
(--tenant, as the other commands choose it), keeping ids, authors, times, assignments, tags and read state.
Ends with a comparison of thread, comment and unread counts per document; exits 1 naming the documents that
differ. Stopped (Ctrl-C, a failure), the same command resumes from the checkpoint file
(--checkpoint, default ./marginalia-import.checkpoint.json) without duplicates; it is removed once a run ends
with equal counts. --dry-run reads and counts only. --concurrency (MARGINALIA_IMPORT_CONCURRENCY, 4) and --rate
(requests per second, MARGINALIA_IMPORT_RATE, 20) bound the load on the source. See docs/operations.md, "Importing".`,
  serve: `Usage: marginalia serve

Runs the HTTP service on HOST:PORT (127.0.0.1:8080) against DATABASE_URL (sqlite:./data/marginalia.db).
Migrates the database, makes sure credentials exist (first start on an empty database: prints one
API key and auth token on stderr), and stops gracefully on SIGTERM. MARGINALIA_WORKERS=N runs N worker
processes on the one port.`,
  migrate: `Usage: marginalia migrate

Brings the database that DATABASE_URL names up to date, then exits, saying what it did:
"database at migration 40, nothing to do", or "applied 39-40: database at migration 40 (was 38)".
serve does this too; run it alone before starting several instances, or to check a database. A database
that a newer release migrated further is refused: run that release, or restore a backup taken before.`,
  backup: `Usage: marginalia backup <file>

Copies the database that DATABASE_URL names into <file>, while the server goes on serving. SQLite: the
online backup, one consistent snapshot (every write acknowledged before it began is in it), checked
(quick_check), written under a temporary name and renamed into place, readable by its owner only.
PostgreSQL: pg_dump of MARGINALIA_PG_SCHEMA in its custom format (PostgreSQL's client tools must be
installed). The database is not migrated. Prints {"file","bytes","migration"}. See docs/operations.md,
"Backup and restore", for a schedule.`,
  restore: `Usage: marginalia restore <file>

Replaces the database that DATABASE_URL names with the backup in <file>. Stop the server first: a
restore is refused while any process has the SQLite file open, or while a server is connected to the
PostgreSQL schema. The backup is checked whole (SQLite: integrity_check) and refused when a newer
release wrote it; it is copied beside the database, then swapped in at once. The database it replaces is
kept (SQLite: <file>.before-restore-<time>; PostgreSQL: the schema renamed <schema>_before_restore_<time>):
delete it once the restored one serves. The next start migrates the restored database if it is older.
Prints {"file","kept","migration"}.`,
  seed: `Usage: marginalia seed --demo

Loads a small demo organization ("acme": five users, a document with two comment threads, and seven
notifications, one of them read and three made by a comment) under a new tenant, then prints its API
key and auth token and six curl commands to paste while the server runs (npm start). Each run makes a
new demo tenant; nothing else is touched.`,
  keys: `Usage: marginalia keys <create|list|revoke|disable|enable|rotate-signing-key> ...

  keys create --name <name>   create a tenant (API key) with one auth token; prints {"apiKey","authToken"}
  keys list                   every API key with its tokens (prefixes only), as JSON
  keys revoke <apiKey>        revoke the key for good: its requests get 401
  keys disable <apiKey>       disable the tenant: its requests get 403 (data kept)
  keys enable <apiKey>        enable it again
  keys rotate-signing-key <apiKey>
                              a new key to sign the tenant's end-user tokens (auth/token/get): every token
                              signed before is refused from the next request on, and apps fetch new ones.
                              Prints {"apiKey","kid","rotated"} (false when the tenant has signed no token yet)`,
  tokens: `Usage: marginalia tokens <create|revoke> ...

  tokens create <apiKey>             add an auth token to the key (rotation); prints {"apiKey","authToken"}
  tokens revoke <apiKey> <prefix>    revoke the active token that starts with <prefix> (4 characters or more)`,
  orgs: `Usage: marginalia orgs list [--tenant <tenant>]

Lists every organization of the tenant in id order, as a JSON array of
{"id","name","disabled","createdAt","lastUpdated"} (times as ISO 8601). --tenant takes the tenant's API
key, its id or its name (a name two tenants share is refused); it may be left out when the database
holds one tenant only.`,
  users: `Usage: marginalia users erase --user <userId> [--user ...] [--org <organizationId> ...] [--tenant <tenant>]

Erases the users' personal data (profiles, memberships, comments, notifications) in each organization
named with --org, or in every organization of the tenant without --org: the same as POST
/v1/users/data/delete, in transactions of MARGINALIA_ERASURE_BATCH_SIZE rows (1000). Prints
{"jobId","tasksCount"}; /v1/users/data/delete/status answers for the job. --tenant as for orgs list.
A disabled or revoked tenant is not refused: erasure is a legal obligation.`,
  webhooks: `Usage: marginalia webhooks <add|list|delete|deliveries|replay|recover|rotate|enable> ... [--tenant <tenant>]

  webhooks add --url <url> [--events <type,...>] [--description <text>]
      add a webhook, as POST /v1/webhooks/add: every event of the tenant (or those of --events: types
      such as comment.add, or every type of a kind such as comment.*) is POSTed to <url>, signed with
      the Standard Webhooks scheme. Prints {"webhookId","secret"} (/v2 endpoints/secret/get shows it too).
      URLs on loopback, private or link-local addresses are refused unless
      MARGINALIA_WEBHOOK_ALLOW_PRIVATE=1.
  webhooks list                     the tenant's webhooks as JSON (never their secrets)
  webhooks delete --id <webhookId>  delete the webhook; its pending deliveries are not made
  webhooks deliveries --id <webhookId>
      the webhook's last 100 delivery attempts, newest first: event, attempt number, status
      (delivered, retrying, failed), response code, error, time
  webhooks replay --id <webhookId> --event <eventId>
      send one event to the webhook again, as POST /v1/webhooks/deliveries/replay: its delivery is
      pending again, next in its organization's order
  webhooks recover --id <webhookId> --since <ISO time or ms>
      every delivery that failed for good since that time, pending again (as POST /v1/webhooks/recover):
      after a receiver's outage, it gets each organization's events in order. Prints {"webhookId","recovered"}
  webhooks rotate --id <webhookId>
      a new secret (printed); the secret before it signs every delivery too for
      MARGINALIA_WEBHOOK_SECRET_GRACE_HOURS (24), so pending deliveries verify with either
  webhooks enable --id <webhookId>
      switch the webhook on again (as POST /v1/webhooks/enable): one the server switched off after every
      attempt failed for MARGINALIA_WEBHOOK_DISABLE_AFTER_FAILING_HOURS (webhooks list shows disabledReason);
      its held deliveries go out in order. Prints the webhook as webhooks list shows it

--tenant as for orgs list. Deliveries are made by the running server (marginalia serve).`,
  retention: `Usage: marginalia retention <get|set|run> ... [--tenant <tenant>]

  retention get [--org <organizationId>]
      the tenant's retention policy (or the organization's) and the one in force there, as POST
      /v1/retention/get answers: {"organizationId","policy","inForce"}
  retention set [--org <organizationId>] [--notifications-days <n>] [--notifications-scope read|all]
                [--resolved-threads-days <n>] [--events-days <n>] [--activities-days <n>] [--inherit]
      set the policy, as POST /v1/retention/set: it replaces the one stored at that level (a window left out,
      or "none", keeps those rows for good); days are 1 to 36500. An organization's policy replaces the
      tenant's there; --events-days and --activities-days are the tenant's only. --org with --inherit alone
      removes the organization's policy
  retention run [--org <organizationId>] [--dry-run]
      apply the policies now, as POST /v1/retention/run, in batches of at most MARGINALIA_RETENTION_BATCH_SIZE
      rows (1000): every organization's notifications and resolved threads (or --org's only), then the
      tenant's events and activities. --dry-run counts what would go and deletes nothing. Prints
      {"dryRun","deleted":{"notifications","resolvedThreads","events","activities"}}

--tenant as for orgs list. The running server applies every policy every MARGINALIA_RETENTION_INTERVAL_SECONDS (3600).`,
  workspace: `Usage: marginalia workspace credentials

The workspace is this installation. Its id and auth token call the workspace pages (/v2/workspace/apikey/create
and update, apikeys/get, authtokens/get, authtoken/reset) in the headers x-service-workspace-id and
x-service-workspace-auth-token (or the names MARGINALIA_WORKSPACE_ID_HEADERS and
MARGINALIA_WORKSPACE_AUTH_TOKEN_HEADERS add). The first run makes both; each later run makes a new token (the
old one stops working at once) and keeps the id. Prints {"workspaceId","workspaceAuthToken","rotated"}: the
token is shown only here (it is kept hashed).`,
  email: `Usage: marginalia email test <address>

Sends one mail to <address> through the SMTP server MARGINALIA_SMTP_URL names, from MARGINALIA_EMAIL_FROM, with
MARGINALIA_EMAIL_REQUIRE_TLS and MARGINALIA_EMAIL_TLS_VERIFY, made from the templates in use
(MARGINALIA_EMAIL_TEMPLATES_DIR, else the shipped ones) with a sample notification. Prints
{"sent","to","from","smtp"} (the URL without its password); exits 1 with the SMTP server's answer when it
refuses or cannot be reached, 2 when <address> is not an address. Needs no database.`,
};

/** The help for `command` (and its subcommand), or the general usage. */
export function helpFor(command: string | undefined): string {
  return command !== undefined && Object.hasOwn(COMMANDS, command) ? COMMANDS[command]! : USAGE;
}
