// The check every route test runs on its answers (test/helpers/answer-check.ts): it must fail on an
// answer that drifts from its operation's documented schema, in the test that made the request, and it
// must not be hidden by a test that catches the failure.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import Type from 'typebox';
import type { App } from '../../src/http/types.js';
import { answers, ErrorBody } from '../../src/schemas/responses.js';
import { checkingAnswers } from '../helpers/answer-check.js';

const Thing = Type.Object({
  result: Type.Object({
    status: Type.Literal('success'),
    data: Type.Intersect([Type.Object({ id: Type.String() }), Type.Object({ size: Type.Integer() })]),
  }),
});

/** A tiny app whose one route answers whatever the test asks, as JSON text (as the operations do). */
async function appAnswering(status: number, body: unknown, setup = (_app: App) => {}): Promise<App> {
  const app = Fastify().withTypeProvider<TypeBoxTypeProvider>() as unknown as App;
  app.addSchema(ErrorBody);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.post('/v1/things/get', { schema: { response: answers(Thing, [404]) } }, (_request, reply) =>
    reply.code(status).type('application/json').send(JSON.stringify(body)),
  );
  setup(app);
  checkingAnswers(app);
  await app.ready();
  return app;
}

const post = (app: App) => app.inject({ method: 'POST', url: '/v1/things/get', payload: {} });

describe('answers checked against their schemas', () => {
  test('an answer that matches its schema passes, members of both parts of an intersection included', async () => {
    const app = await appAnswering(200, { result: { status: 'success', data: { id: 'a', size: 1 } } });
    assert.equal((await post(app)).statusCode, 200);
    await app.close();
  });

  test('a success with a member of the wrong type fails the request, naming method, URL, status and the error', async () => {
    const app = await appAnswering(200, { result: { status: 'success', data: { id: 'a', size: '1' } } });
    await assert.rejects(post(app), (err: Error) => {
      assert.match(err.message, /^POST \/v1\/things\/get answered 200, which does not match its schema/);
      assert.match(err.message, /\/result\/data\/size: must be integer/);
      return true;
    });
    await assert.rejects(app.close(), /1 answer\(s\) drifted/);
  });

  test('a member the schema does not name is a drift', async () => {
    const app = await appAnswering(200, { result: { status: 'success', data: { id: 'a', size: 1, color: 'red' } } });
    await assert.rejects(post(app), /must not have unevaluated properties.*color/);
    await assert.rejects(app.close());
  });

  test('an error answer is checked against the envelope its status refers to', async () => {
    const ok = await appAnswering(404, { error: { message: 'No thing.', status: 'NOT_FOUND' } });
    assert.equal((await post(ok)).statusCode, 404);
    await ok.close();
    const bad = await appAnswering(404, { error: { message: 'No thing.', status: 'NO_SUCH_CODE' } });
    await assert.rejects(post(bad), /answered 404, which does not match its schema[\s\S]*\/error\/status/);
    await assert.rejects(bad.close());
  });

  test('a status the operation does not document is a drift', async () => {
    const app = await appAnswering(409, { error: { message: 'Taken.', status: 'ALREADY_EXISTS' } });
    await assert.rejects(post(app), /answered 409, a status its schema does not document/);
    await assert.rejects(app.close());
  });

  test('an error answer with no route schema (an unknown path) must be the error envelope', async () => {
    const app = await appAnswering(200, {}, (app) =>
      app.setNotFoundHandler((_request, reply) => reply.code(404).send({ message: 'no envelope' })),
    );
    await assert.rejects(app.inject({ method: 'POST', url: '/nowhere' }), /POST \/nowhere answered 404, which does not match/);
    await assert.rejects(app.close());
  });

  test('a drift a test catches and drops still fails when the app closes', async () => {
    const app = await appAnswering(200, { result: { status: 'success', data: { id: 'a' } } });
    await post(app).catch(() => {});
    await assert.rejects(app.close(), /POST \/v1\/things\/get answered 200, which does not match its schema/);
  });
});
