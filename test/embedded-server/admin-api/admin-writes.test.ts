import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../helpers/server';
import { operatorCall, viewerData } from '../member-api/tokens';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

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
