import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Route } from '../http/types';
import * as pay from '../store/content-payments';
import {
  AdminError,
  adminRoute,
  conflict,
  iso,
  isoDate,
  newId,
  notFound,
  ok,
  pageOf,
  pageQuery,
  pageResult,
  pageWindow,
  requireSchoolMember,
} from './handler';

/**
 * Orders (read-only scope orders:read) and the two billing writes. The spec has no orders:write, so
 * the writes that change a member's purchases (create a payment, refund one) need students:write
 * (decision, README).
 */

/**
 * ARCHITECTURE "Filling what the spec leaves out": refunds are possible within 10 days of the
 * order.
 */
export const REFUND_WINDOW_MS = 10 * 86_400_000;

const PAYMENT_STATES = [
  'not_paid',
  'paid',
  'expired',
  'failed',
  'manual_enrolled',
  'refunded',
] as const;
const PAYMENT_TYPES = [
  'credit_card',
  'atm',
  'cvs',
  'line_pay',
  'apple_pay',
  'manual',
  'free',
] as const;
const ITEM_TYPES = [
  'CurriculumPlan',
  'MembershipPlan',
  'Ticket',
  'DigitalProduct',
  'OrderBump',
  'Meeting',
] as const;

const paymentOut = z.object({
  id: z.string(),
  tradeNo: z.string(),
  userId: z.string(),
  amount: z.number(),
  currency: z.string(),
  paymentType: z.string(),
  paymentState: z.string(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  refundingState: z.string(),
  refundedAmount: z.number(),
  refundedAt: z.string().nullable(),
  codeNo: z.string().nullable(),
  expiredAt: z.string().nullable(),
});
const toPayment = (p: pay.PaymentRow): z.infer<typeof paymentOut> => ({
  id: p.id,
  tradeNo: p.trade_no,
  userId: p.user_id,
  amount: p.amount,
  currency: p.currency,
  paymentType: p.payment_type,
  paymentState: p.payment_state,
  createdAt: iso(p.created_at)!,
  paidAt: iso(p.paid_at),
  refundingState: p.refunding_state,
  refundedAmount: p.refunded_amount,
  refundedAt: iso(p.refunded_at),
  codeNo: p.code_no,
  expiredAt: iso(p.expired_at),
});

const paymentCreate = z.object({
  /** Omitted: a new order number. Given: another payment of an existing order. */
  tradeNo: z
    .string()
    .regex(/^[A-Za-z0-9_-]{4,40}$/)
    .optional(),
  amount: z.number().min(0),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'ISO 4217 code')
    .default('TWD'),
  paymentType: z.enum(PAYMENT_TYPES),
  paymentState: z.enum(PAYMENT_STATES),
  item: z.object({
    type: z.enum(ITEM_TYPES),
    id: z.string().nullable().default(null),
    title: z.string().min(1).max(200),
  }),
  /** ATM / convenience-store instructions for unpaid rows. */
  instructions: z
    .object({
      bankCode: z.string().optional(),
      bankName: z.string().optional(),
      codeNo: z.string().min(1),
      expiresAt: isoDate,
    })
    .optional(),
});

const refundBody = z.object({ amount: z.number().positive().optional() }).default({});

export const orderRoutes: Route[] = [
  adminRoute({
    method: 'GET',
    path: '/orders',
    operationId: 'listOrders',
    summary: 'Payments at the school, newest first (filter by tradeNo)',
    tag: 'orders',
    scope: 'orders:read',
    query: pageQuery.extend({ tradeNo: z.string().optional() }),
    response: pageOf(paymentOut),
    run: ({ ctx, schoolId, query }) => {
      const w = pageWindow(query);
      const { rows, total } = pay.listSchoolPayments(
        ctx.server.db,
        schoolId,
        query.tradeNo ?? null,
        w.limit,
        w.offset,
      );
      return pageResult(rows.map(toPayment), total, w);
    },
  }),
  adminRoute({
    method: 'GET',
    path: '/orders/:tradeNo',
    operationId: 'getOrder',
    summary: 'Every payment of one order',
    tag: 'orders',
    scope: 'orders:read',
    response: z.object({ tradeNo: z.string(), payments: z.array(paymentOut) }),
    run: ({ ctx, schoolId, params }) => {
      // All of them, never a silent cut: an order holds a handful of payments (GET /orders?tradeNo=
      // pages them too).
      const rows = pay.listPaymentsOfOrder(ctx.server.db, schoolId, params.tradeNo!);
      if (rows.length === 0) throw notFound('order');
      return ok({ tradeNo: params.tradeNo!, payments: rows.map(toPayment) });
    },
  }),
  adminRoute({
    method: 'POST',
    path: '/orders/:tradeNo/payments/:paymentId/refund',
    operationId: 'refundPayment',
    summary: 'Refund a paid payment, fully or in part (students:write; no orders:write exists)',
    tag: 'orders',
    scope: 'students:write',
    status: 200,
    body: refundBody,
    response: paymentOut,
    conflicts: 'the payment is not paid, or is older than the 10-day refund window',
    run: ({ ctx, schoolId, now, params, body }) => {
      const db = ctx.server.db;
      const p = pay.getPayment(db, schoolId, params.paymentId!);
      if (!p || p.trade_no !== params.tradeNo) throw notFound('payment');
      if (p.payment_state !== 'paid')
        throw conflict(`a ${p.payment_state} payment cannot be refunded`);
      if (now - p.created_at > REFUND_WINDOW_MS)
        throw conflict('refunds are possible within 10 days of the order');
      const left = p.amount - p.refunded_amount;
      const amount = body?.amount ?? left;
      if (amount > left)
        throw new AdminError(
          400,
          'invalid_request',
          `at most ${left} ${p.currency} can be refunded`,
          [{ path: 'amount', message: 'exceeds the refundable amount' }],
        );
      pay.recordRefund(db, schoolId, p.id, amount, now);
      return ok(toPayment(pay.getPayment(db, schoolId, p.id)!));
    },
  }),
  adminRoute({
    method: 'POST',
    path: '/students/:userId/payments',
    operationId: 'createPayment',
    summary: 'Record a payment for a member (students:write)',
    tag: 'orders',
    scope: 'students:write',
    body: paymentCreate,
    response: paymentOut,
    run: ({ ctx, schoolId, now, params, body }) => {
      const db = ctx.server.db;
      requireSchoolMember(db, schoolId, params.userId!, 'path');
      const id = newId('pay');
      const paid = body.paymentState === 'paid' || body.paymentState === 'manual_enrolled';
      const row: pay.PaymentRow = {
        id,
        school_id: schoolId,
        user_id: params.userId!,
        trade_no: body.tradeNo ?? `T${now}${randomBytes(2).toString('hex').toUpperCase()}`,
        amount: body.amount,
        currency: body.currency,
        payment_type: body.paymentType,
        created_at: now,
        paid_at: paid ? now : null,
        payment_state: body.paymentState,
        refunding_state: 'none',
        refunded_amount: 0,
        refunded_at: null,
        refund_requested_at: null,
        bank_code: body.instructions?.bankCode ?? null,
        bank_name: body.instructions?.bankName ?? null,
        code_no: body.instructions?.codeNo ?? null,
        expired_at: body.instructions ? Date.parse(body.instructions.expiresAt) : null,
        invoice_number: null,
        invoice_kind: null,
        invoice_title: null,
        invoice_tax_id: null,
        invoice_issued_at: null,
        invoice_voided_at: null,
        installment_periods: null,
        installment_amount_per_period: null,
        installment_bank_name: null,
      };
      db.transaction(() => {
        pay.insertPayment(db, row);
        pay.insertLineItem(db, {
          id: newId('li'),
          payment_id: id,
          item_type: body.item.type,
          item_id: body.item.id,
          title: body.item.title,
          quantity: 1,
          original_amount: body.amount,
          discount_amount: 0,
          final_amount: body.amount,
        });
      })();
      return ok(toPayment(row), 201);
    },
  }),
];
