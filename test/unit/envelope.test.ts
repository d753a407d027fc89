// The envelope every Folio server answers in (src/api/envelope.ts), on a bare Fastify instance:
// a request that reaches a closing server gets a 503 in Folio's shape, with its request id and
// Retry-After, not Fastify's own body.
import net from 'node:net';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { serverOptions, useEnvelope } from '../../src/api/envelope.js';

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

describe('a closing server', () => {
  it("answers a request that reaches it while closing with a 503 in Folio's shape", async () => {
    const app = Fastify(serverOptions());
    useEnvelope(app);
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    app.get('/slow', async () => {
      await held;
      return { ok: true };
    });
    app.get('/next', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    close = () => app.close();
    const { port } = app.server.address() as net.AddressInfo;

    // A request on a connection the server already holds, sent once it has begun to close.
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (d) => (received += d.toString()));
    const ended = new Promise((resolve) => socket.on('close', resolve));
    socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((r) => setTimeout(r, 100));
    const closed = app.close();
    close = null;
    socket.write('GET /next HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((r) => setTimeout(r, 100));
    release();
    await closed;
    await ended;

    const answers = received.split(/(?=HTTP\/1\.1 )/);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200/);
    expect(answers[1]).toMatch(/^HTTP\/1\.1 503/);
    expect(answers[1]).toMatch(/x-request-id: req_[0-9a-f]{32}/i);
    expect(answers[1]).toMatch(/retry-after: 1/i);
    const body = JSON.parse(answers[1].slice(answers[1].indexOf('\r\n\r\n') + 4));
    expect(body.error).toMatchObject({ type: 'internal_error', message: expect.stringContaining('shutting down'), request_id: expect.stringMatching(/^req_/) });
  });
});
