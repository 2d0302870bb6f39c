import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../helpers/server';
import { mintToken, operatorCall } from '../member-api/tokens';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const A = '/api/admin/v1';

describe('Thin operator areas and storage', () => {
  it('coupons: create, read, update, delete as real rows', async () => {
    const server = await startTestServer();
    const call = operatorCall(server, ['coupons:read', 'coupons:write']);
    const created = (await (
      await call('POST', '/coupons', { code: 'SPRING50', amountOff: 50 })
    ).json()) as Json;
    expect(created.data.code).toBe('SPRING50');
    const patched = (await (
      await call('PATCH', `/coupons/${created.id}`, { amountOff: 80 })
    ).json()) as Json;
    expect(patched.data).toEqual({ code: 'SPRING50', amountOff: 80 });
    expect(((await (await call('GET', '/coupons')).json()) as Json).total).toBe(3);
    expect((await call('DELETE', `/coupons/${created.id}`)).status).toBe(204);
    expect((await call('GET', `/coupons/${created.id}`)).status).toBe(404);
  });

  it('PATCH changes only the fields it names: a published post stays published, a plan keeps its currency', async () => {
    const server = await startTestServer();
    const call = operatorCall(server, ['posts:read', 'posts:write', 'membership_plans:write']);
    const post = (await (
      await call('POST', '/posts', { title: 'Welcome', body: 'Hello', published: true })
    ).json()) as Json;
    const retitled = (await (
      await call('PATCH', `/posts/${post.id}`, { title: 'Welcome back' })
    ).json()) as Json;
    expect(retitled.data).toEqual({ title: 'Welcome back', body: 'Hello', published: true });
    expect(((await (await call('GET', `/posts/${post.id}`)).json()) as Json).data.published).toBe(
      true,
    );
    const plan = (await (
      await call('POST', '/membership_plans', {
        title: 'Pro',
        price: 300,
        currency: 'USD',
        interval: 'month',
      })
    ).json()) as Json;
    const repriced = (await (
      await call('PATCH', `/membership_plans/${plan.id}`, { price: 350 })
    ).json()) as Json;
    expect(repriced.data.currency).toBe('USD');
  });

  it('storage:write uploads up to 5 MiB; larger bodies get 413', async () => {
    const server = await startTestServer();
    const { accessToken } = mintToken(server, { audience: 'operator', scopes: ['storage:write'] });
    const headers = { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'image/png' };
    const small = await fetch(`${server.url}${A}/storage/uploads?fileName=logo.png`, {
      method: 'POST',
      headers,
      body: new Uint8Array(1024),
    });
    expect(small.status).toBe(201);
    expect(((await small.json()) as Json).size).toBe(1024);
    const big = await fetch(`${server.url}${A}/storage/uploads?fileName=big.bin`, {
      method: 'POST',
      headers,
      body: new Uint8Array(5 * 1024 * 1024 + 1),
    });
    expect(big.status).toBe(413);
  });
});

describe('Curriculum read (curriculum:read)', () => {
  it('lists sections and lectures in order with unlock times, no member state', async () => {
    const server = await startTestServer();
    const call = operatorCall(server, ['curriculum:read']);
    const res = await call('GET', '/courses/crs_machine_learning/curriculum');
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body.sections.map((s: Json) => s.id)).toEqual([
      'sec_machine_learning_1',
      'sec_machine_learning_2',
      'sec_machine_learning_3',
    ]);
    expect(body.sections[2].lectures[0].unlockAt).not.toBeNull();
    expect(Object.keys(body.sections[0].lectures[0]).sort()).toEqual([
      'duration',
      'id',
      'position',
      'title',
      'unlockAt',
    ]);
  });
});
