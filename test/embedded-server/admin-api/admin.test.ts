import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../helpers/server';
import { mintToken, operatorCall, viewerData } from '../member-api/tokens';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const A = '/api/admin/v1';

describe('Admin API access (service-spec "Scopes": operator scopes, operator audience)', () => {
  it('no token: 401 invalid_token with WWW-Authenticate', async () => {
    const server = await startTestServer();
    const res = await fetch(`${server.url}${A}/courses`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('resource_metadata=');
  });

  it('service-spec "Protected resources": a malformed, expired, other-origin or school-less token is 401 invalid_token with WWW-Authenticate', async () => {
    const server = await startTestServer();
    const tokens = [
      'not-a-token',
      mintToken(server, { audience: 'operator', scopes: ['courses:read'], expiresInSeconds: -1 })
        .accessToken,
      mintToken(server, {
        audience: 'operator',
        scopes: ['courses:read'],
        resource: 'https://elsewhere.example',
      }).accessToken,
      mintToken(server, { audience: 'operator', scopes: ['courses:read'], schoolId: null })
        .accessToken,
    ];
    for (const token of tokens) {
      const res = await fetch(`${server.url}${A}/courses`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(401);
      expect(((await res.json()) as Json).error).toBe('invalid_token');
      expect(res.headers.get('www-authenticate')).toContain(
        `resource_metadata="${server.url}/.well-known/oauth-protected-resource"`,
      );
    }
  });

  it('a member-audience token is refused with 403 insufficient_scope (decision), even holding account scopes', async () => {
    const server = await startTestServer();
    const { accessToken } = mintToken(server, { scopes: ['account:read', 'account:write'] });
    const res = await fetch(`${server.url}${A}/courses`, {
      headers: { Authorization: `Bearer ${accessToken}` },
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as Json).error).toBe('insufficient_scope');
  });

  it('<area>:read does not grant <area>:write: 403 naming the missing scope', async () => {
    const server = await startTestServer();
    const call = operatorCall(server, ['courses:read']);
    expect((await call('GET', '/courses')).status).toBe(200);
    const res = await call('POST', '/courses', { slug: 'x', title: 'X' });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toContain('scope="courses:write"');
  });
});

describe('Admin API input and paging (decisions, embedded-server/README.md)', () => {
  it('zod-validated bodies: 400 invalid_request with details; unknown ids: 404', async () => {
    const server = await startTestServer();
    const call = operatorCall(server, ['courses:write', 'courses:read']);
    const bad = await call('POST', '/courses', { slug: 'Not A Slug', title: '' });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as Json;
    expect(body.error).toBe('invalid_request');
    expect(body.details.map((d: Json) => d.path).sort()).toEqual(['slug', 'title']);
    const missing = await call('GET', '/courses/crs_nope');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as Json).error).toBe('not_found');
  });

  it('a cursor this API did not write is 400 invalid_request, never the first page', async () => {
    const server = await startTestServer();
    const call = operatorCall(server, ['courses:read']);
    for (const cursor of [
      '!!!',
      '',
      'bzoxx',
      'o:4',
      Buffer.from('o:-1').toString('base64url'),
      Buffer.from('o:04').toString('base64url'),
    ]) {
      const res = await call('GET', `/courses?cursor=${encodeURIComponent(cursor)}`);
      expect(res.status, cursor).toBe(400);
      expect(((await res.json()) as Json).details[0].path, cursor).toBe('cursor');
    }
    expect(
      (await call('GET', `/courses?cursor=${Buffer.from('o:2').toString('base64url')}`)).status,
    ).toBe(200);
  });

  it('pages lists with ?limit and an opaque next_cursor until the end', async () => {
    const server = await startTestServer();
    const call = operatorCall(server, ['courses:read']);
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page = (await (
        await call('GET', `/courses?limit=4${cursor ? `&cursor=${cursor}` : ''}`)
      ).json()) as Json;
      expect(page.total).toBe(11);
      ids.push(...page.data.map((c: Json) => c.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(new Set(ids).size).toBe(11);
    expect((await call('GET', '/courses?limit=500')).status).toBe(400);
  });

  it('the enrolment and member lists page too: same ?limit/&cursor and { data, next_cursor, total } envelope', async () => {
    const server = await startTestServer();
    const call = operatorCall(server, ['students:read', 'members:read']);
    const all = async (path: string, limit: number): Promise<{ pages: Json[]; ids: string[] }> => {
      const pages: Json[] = [];
      let cursor: string | null = null;
      do {
        const res = await call('GET', `${path}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(res.status, path).toBe(200);
        const page = (await res.json()) as Json;
        pages.push(page);
        cursor = page.next_cursor;
      } while (cursor);
      return { pages, ids: pages.flatMap((p) => p.data.map((d: Json) => d.courseId ?? d.userId)) };
    };
    // usr_student holds the 8 demo enrolments: pages of 3, 3, 2; every course once, newest first.
    const enrolments = await all('/students/usr_student/enrollments', 3);
    expect(enrolments.pages.map((p) => p.data.length)).toEqual([3, 3, 2]);
    expect(enrolments.pages.every((p) => p.total === 8)).toBe(true);
    expect(enrolments.pages.at(-1)!.next_cursor).toBeNull();
    expect(new Set(enrolments.ids).size).toBe(8);
    expect(enrolments.ids[0]).toBe('crs_marketing');
    // Members: one per page (usr_owner, usr_student), each with all of its roles.
    const members = await all('/members', 1);
    expect(members.ids).toEqual(['usr_owner', 'usr_student']);
    expect(members.pages[0]!.total).toBe(2);
    expect(members.pages[0]!.data[0].roles).toEqual(['owner']);
    for (const path of ['/students', '/courses/crs_data_analysis/students']) {
      const page = (await (await call('GET', `${path}?limit=1`)).json()) as Json;
      expect(Object.keys(page).sort(), path).toEqual(['data', 'next_cursor', 'total']);
      expect(page.data.length, path).toBeLessThanOrEqual(1);
    }
    expect((await call('GET', '/members?limit=101')).status).toBe(400);
    expect((await call('GET', '/students?cursor=not-a-cursor')).status).toBe(400);
  });

  it('GET /orders/:tradeNo returns every payment of the order, past 100', async () => {
    const server = await startTestServer();
    const cols = (server.db.pragma('table_info(payments)') as { name: string }[])
      .map((c) => c.name)
      .filter((c) => c !== 'id' && c !== 'trade_no');
    server.db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 120)
         INSERT INTO payments (id, trade_no, ${cols.join(', ')}) SELECT 'pay_many_' || i, 'T_MANY', ${cols.join(', ')} FROM payments, n WHERE id = 'pay_demo_01'`,
      )
      .run();
    const order = (await (
      await operatorCall(server, ['orders:read'])('GET', '/orders/T_MANY')
    ).json()) as Json;
    expect(order.payments).toHaveLength(120);
  });
});

describe('Admin writes are what the member API then shows (end to end over HTTP)', () => {
  it('enroll a student in a course (students:write) -> viewer.enrolledCourses lists it', async () => {
    const server = await startTestServer();
    const call = operatorCall(server, ['students:write', 'students:read']);
    const res = await call('POST', '/courses/crs_excel_dashboards/students', {
      userId: 'usr_student',
      lifetime: true,
    });
    expect(res.status).toBe(201);
    expect(
      (
        await call('POST', '/courses/crs_excel_dashboards/students', {
          userId: 'usr_student',
          lifetime: true,
        })
      ).status,
    ).toBe(409);
    const v = await viewerData(
      server,
      '{ viewer { enrolledCourses(first: 100) { totalCount nodes { id hasLifetimeAccess } } } }',
    );
    expect(v.enrolledCourses.totalCount).toBe(9);
    expect(
      v.enrolledCourses.nodes.find((n: Json) => n.id === 'crs_excel_dashboards').hasLifetimeAccess,
    ).toBe(true);
  });

  it("add a lecture (curriculum:write) -> the course's section shows it as unread", async () => {
    const server = await startTestServer();
    const call = operatorCall(server, ['curriculum:write', 'curriculum:read']);
    const res = await call(
      'POST',
      '/courses/crs_data_analysis/sections/sec_data_analysis_3/lectures',
      {
        title: 'Bonus: dashboards 加碼：儀表板',
        duration: 600,
      },
    );
    expect(res.status).toBe(201);
    const lecture = (await res.json()) as Json;
    const v = await viewerData(
      server,
      '{ viewer { enrolledCourses(first: 100) { nodes { id detailProgress { totalLectures } sections { id lectures { lectureId title state } } } } } }',
    );
    const course = v.enrolledCourses.nodes.find((n: Json) => n.id === 'crs_data_analysis');
    expect(course.detailProgress.totalLectures).toBe(12);
    expect(course.sections[2].lectures.at(-1)).toEqual({
      lectureId: lecture.id,
      title: 'Bonus: dashboards 加碼：儀表板',
      state: 'unread',
    });
  });

  it('publish a notification (posts:write) -> unread in the inbox; delete it -> gone', async () => {
    const server = await startTestServer();
    const call = operatorCall(server, ['posts:write']);
    const res = await call('POST', '/notifications', {
      userIds: ['usr_student'],
      title: 'Server maintenance 系統維護',
      body: 'Sunday 02:00. 週日 02:00。',
    });
    expect(res.status).toBe(201);
    const id = ((await res.json()) as Json).data[0].id;
    const v = await viewerData(
      server,
      '{ viewer { unreadNotificationCount notifications(first: 1) { nodes { id title readAt } } } }',
    );
    expect(v.notifications.nodes[0]).toEqual({
      id,
      title: 'Server maintenance 系統維護',
      readAt: null,
    });
    expect(v.unreadNotificationCount).toBe(4);
    expect(
      (await call('POST', '/notifications', { userIds: ['usr_nobody'], title: 't', body: 'b' }))
        .status,
    ).toBe(400);
    expect((await call('DELETE', `/notifications/${id}`)).status).toBe(204);
    expect((await call('DELETE', `/notifications/${id}`)).status).toBe(404);
    const after = await viewerData(server, '{ viewer { unreadNotificationCount } }');
    expect(after.unreadNotificationCount).toBe(3);
  });

  it('create a payment and refund it within 10 days (students:write) -> viewer.payments shows both states', async () => {
    const server = await startTestServer();
    const call = operatorCall(server, ['students:write', 'orders:read']);
    const created = await call('POST', '/students/usr_student/payments', {
      amount: 1990,
      currency: 'TWD',
      paymentType: 'credit_card',
      paymentState: 'paid',
      item: {
        type: 'CurriculumPlan',
        id: 'crs_excel_dashboards',
        title: 'Excel Dashboards Excel 儀表板實作',
      },
    });
    expect(created.status).toBe(201);
    const p = (await created.json()) as Json;
    const partial = await call('POST', `/orders/${p.tradeNo}/payments/${p.id}/refund`, {
      amount: 990,
    });
    expect(partial.status).toBe(200);
    expect(((await partial.json()) as Json).refundingState).toBe('partially_refunded');
    expect(
      (await call('POST', `/orders/${p.tradeNo}/payments/${p.id}/refund`, { amount: 5000 })).status,
    ).toBe(400);
    const v = await viewerData(
      server,
      '{ viewer { payments(first: 1) { nodes { id tradeNo paymentState refundingState refundedAmount lineitems { itemType } } } } }',
    );
    expect(v.payments.nodes[0]).toEqual({
      id: p.id,
      tradeNo: p.tradeNo,
      paymentState: 'paid',
      refundingState: 'partially_refunded',
      refundedAmount: 990,
      lineitems: [{ itemType: 'CurriculumPlan' }],
    });
    // Older than 10 days (ARCHITECTURE: refunds within 10 days of the order): refused.
    const old = await call('POST', '/orders/T202611000001/payments/pay_demo_01/refund', {});
    expect(old.status).toBe(409);
    const order = (await (await call('GET', '/orders/T202611000003')).json()) as Json;
    expect(order.payments).toHaveLength(2);
  });

  it('an unpaid ATM payment created here shows its payment instructions to the member', async () => {
    const server = await startTestServer();
    const call = operatorCall(server, ['students:write']);
    const expiresAt = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const res = await call('POST', '/students/usr_student/payments', {
      amount: 2200,
      paymentType: 'atm',
      paymentState: 'not_paid',
      item: { type: 'CurriculumPlan', title: 'Public Speaking 公眾演說' },
      instructions: {
        bankCode: '822',
        bankName: 'CTBC Bank 中國信託',
        codeNo: '82219900099999',
        expiresAt,
      },
    });
    expect(res.status).toBe(201);
    const v = await viewerData(
      server,
      '{ viewer { payments(first: 1) { nodes { paymentState bankCode codeNo expiredAt } } } }',
    );
    expect(v.payments.nodes[0]).toEqual({
      paymentState: 'not_paid',
      bankCode: '822',
      codeNo: '82219900099999',
      expiredAt: expiresAt,
    });
  });
});

describe('Writes for a member refuse users without a role at this school (like publishing a notification)', () => {
  it('enrol, deliver a digital product: 400 invalid_request naming userId; create a payment: 404; nothing is written', async () => {
    const server = await startTestServer();
    // A real user, member of the other school only.
    server.db
      .prepare(
        "INSERT INTO users (id, email, name, picture, password_hash, created_at) VALUES ('usr_outsider', 'outsider@example.com', 'Outsider', NULL, 'x', 0)",
      )
      .run();
    server.db
      .prepare(
        "INSERT INTO memberships (school_id, user_id, role, created_at) VALUES ('sch_demo2', 'usr_outsider', 'student', 0)",
      )
      .run();
    const call = operatorCall(server, ['students:write', 'digital_products:write']);
    for (const userId of ['usr_outsider', 'usr_nobody']) {
      const enrol = await call('POST', '/courses/crs_excel_dashboards/students', {
        userId,
        lifetime: true,
      });
      expect(enrol.status, userId).toBe(400);
      const body = (await enrol.json()) as Json;
      expect(body).toMatchObject({
        error: 'invalid_request',
        error_description: 'the user must be a member of the school',
        details: [{ path: 'userId', message: `${userId} is not a member` }],
      });
      const deliver = await call('POST', '/digital_products/dgp_study_planner/deliveries', {
        userId,
      });
      expect(deliver.status, userId).toBe(400);
      expect(((await deliver.json()) as Json).details[0].path).toBe('userId');
      const payment = await call('POST', `/students/${userId}/payments`, {
        amount: 100,
        paymentType: 'credit_card',
        paymentState: 'paid',
        item: { type: 'CurriculumPlan', title: 'X' },
      });
      expect(payment.status, userId).toBe(404);
      expect(((await payment.json()) as Json).error_description).toBe('member not found');
    }
    const written = (table: string): number =>
      (
        server.db
          .prepare(
            `SELECT count(*) AS n FROM ${table} WHERE user_id IN ('usr_outsider', 'usr_nobody')`,
          )
          .get() as { n: number }
      ).n;
    expect([written('enrollments'), written('product_deliveries'), written('payments')]).toEqual([
      0, 0, 0,
    ]);
    // The school's own member is still served.
    expect(
      (
        await call('POST', '/digital_products/dgp_study_planner/deliveries', {
          userId: 'usr_student',
        })
      ).status,
    ).toBe(201);
  });
});

describe('A digital product is delivered to a member once', () => {
  it('a second delivery of a held product is 409 and the library lists it once; an ended one is renewed in place (200)', async () => {
    const server = await startTestServer();
    const call = operatorCall(server, ['digital_products:write']);
    const library = async () =>
      (
        (await viewerData(server, '{ viewer { digitalProducts(first: 50) { nodes { id } } } }'))
          .digitalProducts.nodes as Json[]
      ).map((n) => n.id as string);
    const first = await call('POST', '/digital_products/dgp_study_planner/deliveries', {
      userId: 'usr_student',
    });
    expect(first.status).toBe(201);
    const id = ((await first.json()) as Json).id as string;
    const again = await call('POST', '/digital_products/dgp_study_planner/deliveries', {
      userId: 'usr_student',
    });
    expect(again.status).toBe(409);
    expect(((await again.json()) as Json).error).toBe('conflict');
    expect((await library()).filter((d) => d === id)).toHaveLength(1);
    const before = (await library()).length;
    const renewed = await call('POST', '/digital_products/dgp_focus_audio/deliveries', {
      userId: 'usr_student',
    });
    expect(renewed.status).toBe(200);
    expect(((await renewed.json()) as Json).id).toBe('dlv_focus_audio');
    expect(await library()).toHaveLength(before);
  });
});

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
