import { type Customer, Order, PipoTempUser, PipoUser } from 'punchgate/schemas/print-api';
import { describe, expect, it } from 'vitest';
import { errorOf, type Harness, makeHarness, TOKENS } from './sandbox-harness.ts';

const EMPTY_403 = { status: 403, message: null };

async function json<T>(res: Response, status = 200): Promise<T> {
  expect(res.status).toBe(status);
  return (await res.json()) as T;
}

async function emptyOk(res: Response): Promise<void> {
  expect(res.status).toBe(200);
  expect(await res.text()).toBe('');
}

const jane = (h: Harness) => h.login('jane.buyer', 'demo-pass-1');

describe('sandbox PIPO users and sessions', () => {
  it('E13 login answers the session token as a JSON string', async () => {
    const h = makeHarness();
    const res = await h.call('POST', '/api/v2/pipo/user/login', {
      body: { username: 'jane.buyer', password: 'demo-pass-1', storefront_id: 1 },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
    const token = await res.json();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
  });

  it('X05 a wrong password, an unknown user or another license storefront is 401 without a message', async () => {
    const h = makeHarness();
    const attempts = [
      { username: 'jane.buyer', password: 'wrong', storefront_id: 1 },
      { username: 'nobody', password: 'demo-pass-1', storefront_id: 1 },
      { username: 'jane.buyer', password: 'demo-pass-1', storefront_id: 2 },
      { username: 'kim.corner', password: 'demo-pass-4', storefront_id: 3 },
    ];
    for (const body of attempts) {
      const res = await h.call('POST', '/api/v2/pipo/user/login', { body });
      expect(await errorOf(res), JSON.stringify(body)).toEqual({ status: 401, message: null });
    }
    const incomplete = await h.call('POST', '/api/v2/pipo/user/login', { body: { username: 'jane.buyer' } });
    expect(incomplete.status).toBe(400);
  });

  it('E14 T10 logout answers 200 and invalidates the token', async () => {
    const h = makeHarness();
    const token = await jane(h);
    await emptyOk(await h.call('GET', '/api/v2/pipo/user/logout', { pipo: token }));
    expect(await errorOf(await h.call('GET', '/api/v2/pipo/user/loggedin', { pipo: token }))).toEqual(
      EMPTY_403,
    );
  });

  it('E15 T11 T12 R19 every call refreshes the idle expiry; after the idle period calls answer 403', async () => {
    const h = makeHarness();
    const token = await jane(h);
    expect(await json(await h.call('GET', '/api/v2/pipo/user/loggedin', { pipo: token }))).toBe(true);
    h.control.advanceClock(1700);
    expect((await h.call('GET', '/api/v2/pipo/user/info', { pipo: token })).status).toBe(200);
    h.control.advanceClock(1700);
    expect(await json(await h.call('GET', '/api/v2/pipo/user/loggedin', { pipo: token }))).toBe(true);
    h.control.advanceClock(1800);
    expect(await errorOf(await h.call('GET', '/api/v2/pipo/user/loggedin', { pipo: token }))).toEqual(
      EMPTY_403,
    );
    expect(await errorOf(await h.call('GET', '/api/v2/pipo/user/info', { pipo: token }))).toEqual(EMPTY_403);
  });

  it('T12 the idle period follows sessionIdleSeconds', async () => {
    const h = makeHarness({ sessionIdleSeconds: 60 });
    const token = await jane(h);
    h.control.advanceClock(59);
    expect((await h.call('GET', '/api/v2/pipo/user/istemp', { pipo: token })).status).toBe(200);
    h.control.advanceClock(60);
    expect(await errorOf(await h.call('GET', '/api/v2/pipo/user/istemp', { pipo: token }))).toEqual(
      EMPTY_403,
    );
  });

  it('X06 A06 a missing, unknown or other-license X-PN-TOKEN is 403 without a body', async () => {
    const h = makeHarness();
    expect(await errorOf(await h.call('GET', '/api/v2/pipo/user/info'))).toEqual(EMPTY_403);
    expect(await errorOf(await h.call('GET', '/api/v2/pipo/user/info', { pipo: 'f'.repeat(64) }))).toEqual(
      EMPTY_403,
    );
    const token = await jane(h);
    const otherLicense = await h.call('GET', '/api/v2/pipo/user/info', {
      pipo: token,
      token: TOKENS.businessPlus,
    });
    expect(await errorOf(otherLicense)).toEqual(EMPTY_403);
    const sameLicenseOtherKey = await h.call('GET', '/api/v2/pipo/user/info', {
      pipo: token,
      token: TOKENS.reporting,
    });
    expect(sameLicenseOtherKey.status).toBe(200);
  });

  it('E16 info answers the PIPO User of the session', async () => {
    const h = makeHarness();
    const user = await json<PipoUser>(await h.call('GET', '/api/v2/pipo/user/info', { pipo: await jane(h) }));
    expect(user).toEqual({
      id: 201,
      username: 'jane.buyer',
      first_name: 'Jane',
      last_name: 'Buyer',
      email: 'jane.buyer@example.com',
      is_temp: false,
    });
    expect(PipoUser.safeParse(user).success).toBe(true);
  });

  it('E17 N05 P02 info update applies names; the password only with the right, different current password', async () => {
    const h = makeHarness();
    await h.call('POST', '/api/v2/hooks', {
      body: { target_url: 'https://hooks.example/c', event: 'customer_updated' },
    });
    const token = await jane(h);
    await emptyOk(
      await h.call('POST', '/api/v2/pipo/user/info', { pipo: token, body: { first_name: 'Janet' } }),
    );
    const info = await json<PipoUser>(await h.call('GET', '/api/v2/pipo/user/info', { pipo: token }));
    expect(info.first_name).toBe('Janet');
    const wrongCurrent = { current_password: 'nope', new_password: 'new-pass-9' };
    await emptyOk(await h.call('POST', '/api/v2/pipo/user/info', { pipo: token, body: wrongCurrent }));
    const same = { current_password: 'demo-pass-1', new_password: 'demo-pass-1' };
    await emptyOk(await h.call('POST', '/api/v2/pipo/user/info', { pipo: token, body: same }));
    expect(await h.login('jane.buyer', 'demo-pass-1')).toMatch(/^[0-9a-f]{64}$/);
    const right = { current_password: 'demo-pass-1', new_password: 'new-pass-9' };
    await emptyOk(await h.call('POST', '/api/v2/pipo/user/info', { pipo: token, body: right }));
    expect(await h.login('jane.buyer', 'new-pass-9')).toMatch(/^[0-9a-f]{64}$/);
    const old = await h.call('POST', '/api/v2/pipo/user/login', {
      body: { username: 'jane.buyer', password: 'demo-pass-1', storefront_id: 1 },
    });
    expect(old.status).toBe(401);
    await h.control.idle();
    expect(h.deliveries.map((d) => (d.body as Customer[])[0]!.first_name)).toEqual(['Janet', 'Janet']);
  });

  it('P01 info update is not applied to a temporary user (answered 200 all the same)', async () => {
    const h = makeHarness();
    const token = await h.login('temp-5eed01', 'temp-pass-5eed');
    const update = { first_name: 'Tina', current_password: 'temp-pass-5eed', new_password: 'other-pass' };
    await emptyOk(await h.call('POST', '/api/v2/pipo/user/info', { pipo: token, body: update }));
    const info = await json<PipoUser>(await h.call('GET', '/api/v2/pipo/user/info', { pipo: token }));
    expect(info.first_name).toBe('');
    expect(await h.login('temp-5eed01', 'temp-pass-5eed')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('E18 N04 create answers the new PIPO User; customer_created fires', async () => {
    const h = makeHarness();
    await h.call('POST', '/api/v2/hooks', {
      body: { target_url: 'https://hooks.example/c', event: 'customer_created' },
    });
    const body = {
      storefront_id: 1,
      username: 'new.buyer',
      password: 'pw-123456',
      email: 'new.buyer@example.com',
      first_name: 'New',
      last_name: 'Buyer',
    };
    const user = await json<PipoUser>(await h.call('POST', '/api/v2/pipo/user/create', { body }));
    expect(user).toEqual({
      id: expect.any(Number),
      username: 'new.buyer',
      first_name: 'New',
      last_name: 'Buyer',
      email: 'new.buyer@example.com',
      is_temp: false,
      storefront_id: 1,
    });
    expect(await h.login('new.buyer', 'pw-123456')).toMatch(/^[0-9a-f]{64}$/);
    await h.control.idle();
    expect(h.deliveries).toHaveLength(1);
    const delivered = (h.deliveries[0]!.body as Customer[])[0]!;
    expect(delivered).toEqual(await json(await h.call('GET', `/api/v2/customer/${user.id}`)));
  });

  it('X22 create with a username or e-mail in use (case-insensitive) is 409 duplicate user name / duplicate email', async () => {
    const h = makeHarness();
    const base = { storefront_id: 1, password: 'pw', first_name: 'A', last_name: 'B' };
    const nameTaken = await h.call('POST', '/api/v2/pipo/user/create', {
      body: { ...base, username: 'JANE.BUYER', email: 'fresh@example.com' },
    });
    expect(await errorOf(nameTaken)).toEqual({ status: 409, message: 'duplicate user name' });
    const emailTaken = await h.call('POST', '/api/v2/pipo/user/create', {
      body: { ...base, username: 'fresh', email: 'Jane.Buyer@example.com' },
    });
    expect(await errorOf(emailTaken)).toEqual({ status: 409, message: 'duplicate email' });
    const otherStorefront = await h.call('POST', '/api/v2/pipo/user/create', {
      body: { ...base, storefront_id: 2, username: 'jane.buyer', email: 'jane.buyer@example.com' },
    });
    expect(otherStorefront.status).toBe(200);
    const notLicensed = await h.call('POST', '/api/v2/pipo/user/create', {
      body: { ...base, storefront_id: 3, username: 'x', email: 'x@example.com' },
    });
    expect(await errorOf(notLicensed)).toEqual({
      status: 400,
      message: 'storefront_id 3 is not a storefront of this license.',
    });
  });

  it('E19 E22 createtemp answers a temporary user with generated credentials that log in', async () => {
    const h = makeHarness();
    const temp = await json<PipoTempUser>(
      await h.call('POST', '/api/v2/pipo/user/createtemp', { body: { storefront_id: 1 } }),
    );
    expect(PipoTempUser.safeParse(temp).success).toBe(true);
    expect(temp).toMatchObject({ is_temp: true, storefront_id: 1, email: '' });
    expect(temp.username).toMatch(/^temp-[0-9a-f]{12}$/);
    expect(temp.password).toMatch(/^[0-9a-f]{24}$/);
    const token = await h.login(temp.username, temp.password);
    expect(await json(await h.call('GET', '/api/v2/pipo/user/istemp', { pipo: token }))).toBe(true);
    expect(await json(await h.call('GET', '/api/v2/pipo/user/istemp', { pipo: await jane(h) }))).toBe(false);
  });

  it('E20 T08 N04 convert makes a temporary user permanent and fires customer_created; storefront_id is accepted', async () => {
    const h = makeHarness();
    await h.call('POST', '/api/v2/hooks', {
      body: { target_url: 'https://hooks.example/c', event: 'customer_created' },
    });
    const token = await h.login('temp-5eed01', 'temp-pass-5eed');
    const body = {
      username: 'tina.temp',
      password: 'tina-pass',
      email: 'tina@example.com',
      first_name: 'Tina',
      last_name: 'Temp',
      storefront_id: 1,
    };
    const user = await json<PipoUser>(
      await h.call('POST', '/api/v2/pipo/user/convert', { pipo: token, body }),
    );
    expect(user).toEqual({
      id: 203,
      username: 'tina.temp',
      first_name: 'Tina',
      last_name: 'Temp',
      email: 'tina@example.com',
      is_temp: false,
    });
    expect(await json(await h.call('GET', '/api/v2/pipo/user/istemp', { pipo: token }))).toBe(false);
    expect(await h.login('tina.temp', 'tina-pass')).toMatch(/^[0-9a-f]{64}$/);
    await h.control.idle();
    expect(h.deliveries).toHaveLength(1);
    expect((h.deliveries[0]!.body as Customer[])[0]).toMatchObject({ id: 203, username: 'tina.temp' });
  });

  it('X22 E20 convert to a username or e-mail in use is 409; a permanent user cannot convert', async () => {
    const h = makeHarness();
    const token = await h.login('temp-5eed01', 'temp-pass-5eed');
    const base = { password: 'p', first_name: 'T', last_name: 'T' };
    const nameTaken = await h.call('POST', '/api/v2/pipo/user/convert', {
      pipo: token,
      body: { ...base, username: 'omar.procure', email: 'new@example.com' },
    });
    expect(await errorOf(nameTaken)).toEqual({ status: 409, message: 'duplicate user name' });
    const emailTaken = await h.call('POST', '/api/v2/pipo/user/convert', {
      pipo: token,
      body: { ...base, username: 'fresh.name', email: 'omar.haddad@example.com' },
    });
    expect(await errorOf(emailTaken)).toEqual({ status: 409, message: 'duplicate email' });
    expect(await json(await h.call('GET', '/api/v2/pipo/user/istemp', { pipo: token }))).toBe(true);
    const permanent = await h.call('POST', '/api/v2/pipo/user/convert', {
      pipo: await jane(h),
      body: { ...base, username: 'x2', email: 'x2@example.com' },
    });
    expect(await errorOf(permanent)).toEqual({ status: 403, message: 'current user is not temporary' });
  });

  it('E21 T09 P04 transfer moves albums and saved projects; the session token then points to the destination', async () => {
    const h = makeHarness();
    const token = await h.login('temp-5eed01', 'temp-pass-5eed');
    const body = { username: 'jane.buyer', password: 'demo-pass-1' };
    await emptyOk(await h.call('POST', '/api/v2/pipo/user/transfer', { pipo: token, body }));
    const info = await json<PipoUser>(await h.call('GET', '/api/v2/pipo/user/info', { pipo: token }));
    expect(info.id).toBe(201);
    const projects = await json<{ id: number }[]>(
      await h.call('GET', '/api/v2/pipo/project/all', { pipo: token }),
    );
    expect(projects.map((p) => p.id)).toEqual([3001, 3003]);
    const users = h.control.users(1);
    expect(users.find((u) => u.id === 201)!.albums.map((a) => a.id)).toEqual([701, 702]);
    expect(users.find((u) => u.id === 203)!.albums).toEqual([]);
  });

  it('X07 X08 X09 X10 transfer refusals are 403 with their exact messages, and change nothing', async () => {
    const h = makeHarness();
    const temp = await h.login('temp-5eed01', 'temp-pass-5eed');
    const transfer = (pipo: string, body: unknown) =>
      h.call('POST', '/api/v2/pipo/user/transfer', { pipo, body });
    expect(
      await errorOf(await transfer('0'.repeat(64), { username: 'jane.buyer', password: 'demo-pass-1' })),
    ).toEqual({
      status: 403,
      message: 'token is invalid or expired',
    });
    expect(
      await errorOf(await transfer(await jane(h), { username: 'omar.procure', password: 'demo-pass-2' })),
    ).toEqual({
      status: 403,
      message: 'current user is not temporary',
    });
    expect(await errorOf(await transfer(temp, { username: 'lee.student', password: 'demo-pass-3' }))).toEqual(
      {
        status: 403,
        message: 'username does not exist',
      },
    );
    expect(await errorOf(await transfer(temp, { username: 'jane.buyer', password: 'wrong' }))).toEqual({
      status: 403,
      message: 'password is incorrect',
    });
    const info = await json<PipoUser>(await h.call('GET', '/api/v2/pipo/user/info', { pipo: temp }));
    expect(info.id).toBe(203);
    expect(h.control.projects(203).map((p) => p.id)).toEqual([3003]);
  });
});

describe('sandbox PIPO projects and orders', () => {
  it('E23 project/all lists the session user projects (saved designs)', async () => {
    const h = makeHarness();
    const projects = await json(await h.call('GET', '/api/v2/pipo/project/all', { pipo: await jane(h) }));
    expect(projects).toEqual([{ id: 3001, name: 'Business cards - Jane Buyer', external_id: 'BC-STD' }]);
  });

  it('E24 X16 a project of the user answers 200; missing or another user project is a bare 404', async () => {
    const h = makeHarness();
    const token = await jane(h);
    expect(await json(await h.call('GET', '/api/v2/pipo/project/3001', { pipo: token }))).toEqual({
      id: 3001,
      name: 'Business cards - Jane Buyer',
      external_id: 'BC-STD',
    });
    for (const id of ['3002', '99999', 'abc', '101']) {
      const res = await h.call('GET', `/api/v2/pipo/project/${id}`, { pipo: token });
      expect(await errorOf(res), id).toEqual({ status: 404, message: null });
    }
  });

  it('E25 deleting a project answers 200; another user project is a bare 404 and stays', async () => {
    const h = makeHarness();
    const token = await jane(h);
    await emptyOk(await h.call('DELETE', '/api/v2/pipo/project/3001', { pipo: token }));
    expect(await errorOf(await h.call('GET', '/api/v2/pipo/project/3001', { pipo: token }))).toEqual({
      status: 404,
      message: null,
    });
    expect(await errorOf(await h.call('DELETE', '/api/v2/pipo/project/3002', { pipo: token }))).toEqual({
      status: 404,
      message: null,
    });
    expect(h.control.projects(202).map((p) => p.id)).toEqual([3002]);
  });

  it('E26 T05 P03 R04 order create drops invalid ids, starts in the first status, carries external_id, belongs to the user', async () => {
    const h = makeHarness();
    const token = await jane(h);
    const res = await h.call('POST', '/api/v2/pipo/order/create', {
      pipo: token,
      body: { product_id: [3001, 102, 3002, 99999, 111, 121], external_id: 'PO-4711' },
    });
    const id = await json<number>(res);
    expect(Number.isInteger(id)).toBe(true);
    const order = await json<Order>(await h.call('GET', `/api/v2/order/${id}`));
    expect(Order.safeParse(order).success).toBe(true);
    expect(order.status).toBe('New Order');
    expect(order.customer.id).toBe(201);
    expect(order.integration_id).toBe('PO-4711');
    expect(order.po_number).toBe('PO-4711');
    expect(order.items.map((i) => [i.product_id, i.status, i.quantity])).toEqual([
      [3001, 'New Order', 1],
      [102, 'New Order', 1],
    ]);
    expect(order.items.map((i) => (i as { external_id?: string }).external_id)).toEqual([
      'PO-4711',
      'PO-4711',
    ]);
    expect(order.items[0]).toMatchObject({
      item_number: 'BC-STD',
      model_number: 'BC-350x200',
      integration_id: 'BC-STD',
    });
  });

  it('X18 order create with no valid product id is 400 "Bad Request"', async () => {
    const h = makeHarness();
    const token = await jane(h);
    for (const product_id of [[], [3002, 424242], [1.5]]) {
      const res = await h.call('POST', '/api/v2/pipo/order/create', { pipo: token, body: { product_id } });
      expect(await errorOf(res), JSON.stringify(product_id)).toEqual({ status: 400, message: 'Bad Request' });
    }
    const notArray = await h.call('POST', '/api/v2/pipo/order/create', {
      pipo: token,
      body: { product_id: 101 },
    });
    expect(notArray.status).toBe(400);
  });

  it('E27 T06 process starts merging; downloads answer 409 until the merge delay has passed', async () => {
    const h = makeHarness({ mergeDelayMs: 5000 });
    const token = await jane(h);
    const id = await json<number>(
      await h.call('POST', '/api/v2/pipo/order/create', { pipo: token, body: { product_id: [3001] } }),
    );
    const before = await h.call('GET', `/api/v2/order/${id}/download`);
    expect(before.status).toBe(409);
    await emptyOk(await h.call('GET', `/api/v2/pipo/order/${id}/process`, { pipo: token }));
    h.control.advanceClock(4.9);
    expect((await h.call('GET', `/api/v2/order/${id}/download`)).status).toBe(409);
    h.control.advanceClock(0.1);
    const done = await h.call('GET', `/api/v2/order/${id}/download`);
    expect(done.status).toBe(200);
    expect(done.headers.get('Content-Disposition')).toBe(`attachment; filename=order-${id}.zip`);
  });

  it('E27 X11 processing an order of another user is 404 "Order not the service."', async () => {
    const h = makeHarness();
    const token = await jane(h);
    const res = await h.call('GET', '/api/v2/pipo/order/1002/process', { pipo: token });
    expect(await errorOf(res)).toEqual({ status: 404, message: 'Order not the service.' });
    await emptyOk(await h.call('GET', '/api/v2/pipo/order/1003/process', { pipo: token }));
  });
});
