// The benchmark's baseline, as the independent run measured it: a bare Fastify 5 POST route with a
// TypeBox body schema and a small JSON answer, in its own process, nothing else. Every row of the
// bench is a ratio to it, so making Marginalia's own pipeline cheaper cannot also make its yardstick
// faster (GET /healthz of the server under test, the yardstick before, went through that pipeline).
//   node --import tsx bench/baseline-server.ts <port>
import Fastify from 'fastify';
import { Type } from 'typebox';

const Body = Type.Object({
  data: Type.Object({
    organizationId: Type.String({ minLength: 1 }),
    userId: Type.Optional(Type.String({ minLength: 1 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1 })),
  }),
});

const app = Fastify({ logger: false });
app.post('/baseline', { schema: { body: Body } }, async () => ({ success: true, message: 'ok', data: [] }));
await app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
