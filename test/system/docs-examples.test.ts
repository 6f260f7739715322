// Every example of docs/api.md, run in order, top to bottom, against a fresh real server on each database: each
// ```sh block's commands through one bash (real curl, and the CLI as `marginalia`), with the doc's own variables
// block for H and M, and each answer the doc shows compared with the real one (helpers/doc-examples.ts says how:
// `...`, ids and times the server makes). The blocks marked `<!-- not run: ... -->` are counted and named in the
// output. The server runs with MARGINALIA_WEBHOOK_ALLOW_PRIVATE=1, as the doc's Examples section asks: its
// webhook and permission-provider URLs are example hosts, which do not resolve. DOCS_TRACE=<file> appends each
// command's line, time and real answer to that file: what to copy into the doc when an example changes.
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { type Block, Bindings, compareShown, parseBlocks, Shell } from '../helpers/doc-examples.js';
import { firstStartCredentials, MAIN, REPO, startServer, stopServer } from '../helpers/server-process.js';
import { freshDatabase, STORE_KINDS } from '../helpers/test-database.js';

const DOC = 'docs/api.md';
const BLOCKS = parseBlocks(readFileSync(join(REPO, DOC), 'utf8'));
/** How long a `repeat until shown` block is run again before its answers count as wrong. */
const REPEAT_MS = 10_000;

interface Outcome {
  commands: number;
  compared: number;
  failures: string[];
}

async function runBlocks(blocks: Block[], shell: Shell, url: string): Promise<Outcome> {
  const bindings = new Bindings();
  const outcome: Outcome = { commands: 0, compared: 0, failures: [] };
  for (const block of blocks) {
    if (block.notRun) continue;
    const deadline = Date.now() + (block.repeat ? REPEAT_MS : 0);
    for (let attempt = 1; ; attempt++) {
      const failures: string[] = [];
      for (const command of block.commands) {
        const text = bindings.apply(command.text);
        const t0 = Date.now();
        const { output, status } = await shell.run(text);
        if (process.env.DOCS_TRACE) appendFileSync(process.env.DOCS_TRACE, `${command.line} ${Date.now() - t0} ms\n${output}\n`);
        if (attempt === 1) outcome.commands++;
        // The test's server listens on a port of its own: M names it, once the doc's variables block has run.
        if (/^M=/.test(text)) await shell.run(`M=${url}`);
        const where = `${DOC}:${command.line} (${block.heading})`;
        if (status !== 0) {
          failures.push(`${where}: exit status ${status}\n  $ ${text}\n  ${output}`);
          continue;
        }
        if (command.shown === null) {
          // Nothing shown: the command must not have been refused.
          if (/^\s*\{"error"/.test(output)) failures.push(`${where}: an error, where none is shown\n  $ ${text}\n  ${output}`);
          continue;
        }
        if (attempt === 1) outcome.compared++;
        let actual: unknown;
        try {
          actual = JSON.parse(output);
        } catch {
          failures.push(`${where}: the answer is not JSON\n  $ ${text}\n  ${output}`);
          continue;
        }
        let compared: ReturnType<typeof compareShown>;
        try {
          compared = compareShown(command.shown, actual, bindings);
        } catch (err) {
          failures.push(`${where}: ${(err as Error).message}`);
          continue;
        }
        const { mismatch, learned } = compared;
        if (mismatch) failures.push(`${where}: ${mismatch}\n  $ ${text}\n  got: ${output}`);
        else bindings.commit(learned);
      }
      if (failures.length === 0 || Date.now() > deadline) {
        outcome.failures.push(...failures);
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return outcome;
}

for (const kind of STORE_KINDS)
  test(`every example of ${DOC} runs in order and answers as shown (${kind})`, async () => {
    const db = freshDatabase(kind);
    const started = Date.now();
    const server = await startServer({ env: { ...db.env, MARGINALIA_WEBHOOK_ALLOW_PRIVATE: '1' } });
    const shell = new Shell(
      {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        LANG: 'C.UTF-8',
        ...db.env,
        ...(({ apiKey, authToken }) => ({ API_KEY: apiKey, AUTH_TOKEN: authToken }))(firstStartCredentials(server.stderr())),
      },
      REPO,
    );
    try {
      // The CLI as an installed package runs it (its bin), on the server's database.
      await shell.run(`marginalia() { '${process.execPath}' '${MAIN}' "$@"; }`);
      const outcome = await runBlocks(BLOCKS, shell, server.url);
      const notRun = BLOCKS.filter((b) => b.notRun);
      console.log(
        `# ${DOC} on ${kind}: ${BLOCKS.length} blocks, ${outcome.commands} commands run in ${BLOCKS.length - notRun.length} ` +
          `of them, ${outcome.compared} answers compared; ${notRun.length} blocks not run:\n` +
          notRun.map((b) => `#   line ${b.line} (${b.heading}): ${b.notRun}`).join('\n') +
          `\n# ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
      assert.deepEqual(outcome.failures, [], `${outcome.failures.length} examples answer otherwise than shown`);
    } finally {
      shell.close();
      await stopServer(server);
      await db.drop();
    }
  });
