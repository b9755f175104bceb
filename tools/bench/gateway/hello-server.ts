import Fastify from 'fastify';

// Baseline (a): bare Fastify answering a small JSON body, logger off.
const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }).then(() => process.send?.('ready'));
