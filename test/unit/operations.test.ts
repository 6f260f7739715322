// The operation tables' one registration loop (src/operations/operation.ts): every path of a
// declaration is a route running its service call, a version with an adapter maps its own request and
// answer onto the operation's, and identical bodies are built (and so compiled) once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { App } from '../../src/http/types.js';
import { operation, pathsOf, registerOperations } from '../../src/operations/operation.js';
import { DEFAULT_LIMITS, type InputLimits } from '../../src/schemas/common.js';
import { contract } from '../../src/schemas/operations/contract.js';
import type { Services } from '../../src/services/context.js';
import type { Tenant } from '../../src/domain/credentials.js';

const Body = (_limits: InputLimits) => Type.Object({ data: Type.Object({ name: Type.String() }) });
const RenamedBody = (_limits: InputLimits) => Type.Object({ data: Type.Object({ title: Type.String() }) });
const Result = Type.Object({ result: Type.Object({ data: Type.String() }) });
const services = { limits: DEFAULT_LIMITS } as unknown as Services;

const greetings = contract({
  paths: { v1: 'greetings/add', v2: 'greetings/create' },
  summary: 'Greet',
  tags: ['test'],
  body: Body,
  example: { name: 'Ada' },
  result: Result,
});
const greet = operation(greetings, {
  adapters: {
    v2: {
      body: RenamedBody,
      data: (data: { title: string }) => ({ name: data.title }),
      answer: (out) => ({ greeting: out }),
    },
  },
  run: (_services, tenant, data) => `hello ${data.name} from ${tenant.id}`,
  answer: 'Greeted.',
});
const shouts = contract({
  paths: { v1: 'greetings/shout' },
  summary: 'Shout',
  tags: ['test'],
  body: Body,
  example: { name: 'Ada' },
  result: Result,
});
const shout = operation(shouts, {
  run: async (_services, _tenant, data) => data.name.toUpperCase(),
  answer: 'Shouted.',
});

const named = contract({
  paths: { v2: 'greetings/say' },
  aliases: { v2: ['greetings/hello', 'greetings/hi'] },
  summary: 'Say',
  tags: ['test'],
  body: Body,
  example: { name: 'Ada' },
  result: Result,
});
const say = operation(named, { run: (_services, _tenant, data) => `said ${data.name}`, answer: 'Said.' });

async function appWith(compiled: object[]): Promise<App> {
  const app: App = Fastify().withTypeProvider<TypeBoxTypeProvider>();
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.setValidatorCompiler(({ schema }) => {
    compiled.push(schema);
    return () => true;
  });
  app.addHook('onRequest', (request, _reply, done) => {
    request.tenant = { id: 't1' } as Tenant;
    done();
  });
  registerOperations(app, services, [greet, shout]);
  registerOperations(app, services, [greet], '/copy');
  await app.ready();
  return app;
}

test('each path of a declaration is a route; a version with an adapter takes and answers its own shape', async () => {
  const app = await appWith([]);
  const post = async (url: string, data: unknown) =>
    (await app.inject({ method: 'POST', url, payload: { data } })).json() as unknown;
  assert.deepEqual(pathsOf(greet), ['/v1/greetings/add', '/v2/greetings/create']);
  assert.deepEqual(await post('/v1/greetings/add', { name: 'ana' }), {
    result: { status: 'success', message: 'Greeted.', data: 'hello ana from t1' },
  });
  assert.deepEqual(await post('/v2/greetings/create', { title: 'ana' }), { greeting: 'hello ana from t1' });
  assert.deepEqual(await post('/v1/greetings/shout', { name: 'ana' }), {
    result: { status: 'success', message: 'Shouted.', data: 'ANA' },
  });
  assert.deepEqual(await post('/copy/v1/greetings/add', { name: 'bo' }), {
    result: { status: 'success', message: 'Greeted.', data: 'hello bo from t1' },
  });
  await app.close();
});

test('routes with the same body factory share one schema object, across registrations too', async () => {
  const compiled: object[] = [];
  const app = await appWith(compiled);
  // Five routes: greetings/add, greetings/shout and /copy's greetings/add on Body, greetings/create on RenamedBody.
  assert.equal(compiled.length, 5);
  assert.equal(new Set(compiled).size, 2);
  await app.close();
});

test("a contract's aliases are routes of the same operation, beside its paths", async () => {
  const app: App = Fastify().withTypeProvider<TypeBoxTypeProvider>();
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.addHook('onRequest', (request, _reply, done) => {
    request.tenant = { id: 't1' } as Tenant;
    done();
  });
  registerOperations(app, services, [say]);
  await app.ready();
  assert.deepEqual(pathsOf(say), ['/v2/greetings/say', '/v2/greetings/hello', '/v2/greetings/hi']);
  for (const url of pathsOf(say)) {
    const r = await app.inject({ method: 'POST', url, payload: { data: { name: 'ana' } } });
    assert.deepEqual(r.json(), { result: { status: 'success', message: 'Said.', data: 'said ana' } }, url);
  }
  await app.close();
});
