/**
 * The student area: the school's own pages the app opens in the system browser (README, "Decisions
 * (student pages)"). A course by its slug, a lecture by its id with the position playback resumes
 * from, an order by its trade number, a consulting service by its id. Each page is for the
 * signed-in member only (the sign-in page comes first and returns here); what the member does not
 * hold is "not found", never someone else's data.
 */
import type { RequestContext, Route } from '../http/types';
import { html, page, type SafeHtml } from '../http/html';
import { redirect, sendHtml } from '../http/respond';
import { currentSession } from '../oauth/browser-session';
import { PATHS } from '../oauth/settings';
import { getCourseBySlug } from '../store/content-catalog';
import {
  findEnrollment,
  lecturesForCourses,
  sectionsForCourses,
  type LectureRow,
} from '../store/content-courses';
import { getConsultingService } from '../store/content-entitlements';
import { listPaymentsOfOrder } from '../store/content-payments';
import { getUserById } from '../store/identity';

export const STUDENT_PATHS = {
  course: '/courses/:slug',
  lecture: '/courses/:slug/lectures/:lectureId',
  order: '/orders/:tradeNo',
  consulting: '/consulting/:serviceId',
} as const;

/** m:ss or h:mm:ss. */
export function clockTime(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The signed-in member, or null after sending the sign-in page's redirect (it comes back to this
 * address).
 */
function requireMember(ctx: RequestContext): { id: string; email: string } | null {
  const session = currentSession(ctx);
  const user = session?.userId ? getUserById(ctx.server.db, session.userId) : undefined;
  if (!user) {
    redirect(
      ctx.res,
      `${PATHS.signIn}?return_to=${encodeURIComponent(ctx.url.pathname + ctx.url.search)}`,
    );
    return null;
  }
  return { id: user.id, email: user.email };
}

function frame(ctx: RequestContext, title: string, body: SafeHtml, status = 200): void {
  sendHtml(
    ctx.res,
    status,
    page(
      `${title} · ${ctx.server.site.name}`,
      html`<nav aria-label="${ctx.server.site.name}"><strong>${ctx.server.site.name}</strong></nav>
        ${body}`,
      { wide: true },
    ),
  );
}

function notFound(ctx: RequestContext, what: string): void {
  frame(
    ctx,
    'Not found',
    html`<h1>Not found</h1>
      <p class="error" role="alert">${what}</p>`,
    404,
  );
}

/** The course and the member's enrolment in it, or null after answering "not found". */
function enrolledCourse(ctx: RequestContext, userId: string) {
  const { db, site } = ctx.server;
  const course = getCourseBySlug(db, site.schoolId, ctx.params.slug ?? '');
  const enrollment = course ? findEnrollment(db, site.schoolId, userId, course.id) : undefined;
  if (!course || !enrollment) {
    notFound(ctx, 'You are not enrolled in a course at this address.');
    return null;
  }
  return { course, enrollment };
}

function accessLine(
  ctx: RequestContext,
  enrollment: { expire_at: number | null; has_lifetime_access: number },
): { ended: boolean; line: SafeHtml } {
  const now = ctx.server.clock.now();
  if (enrollment.has_lifetime_access === 1 || enrollment.expire_at === null)
    return { ended: false, line: html`<p>Lifetime access</p>` };
  if (enrollment.expire_at <= now)
    return {
      ended: true,
      line: html`<p class="error" role="alert">
        Your access ended on ${day(enrollment.expire_at)}.
      </p>`,
    };
  return { ended: false, line: html`<p>Access until ${day(enrollment.expire_at)}</p>` };
}

function isLockedNow(l: LectureRow, now: number): boolean {
  return l.unlock_at !== null && l.unlock_at > now;
}

/** GET /courses/:slug */
function coursePage(ctx: RequestContext): void {
  const member = requireMember(ctx);
  if (!member) return;
  const found = enrolledCourse(ctx, member.id);
  if (!found) return;
  const { course, enrollment } = found;
  const { db, clock } = ctx.server;
  const sections = sectionsForCourses(db, [course.id]);
  const lectures = lecturesForCourses(db, member.id, [course.id]);
  const now = clock.now();
  const access = accessLine(ctx, enrollment);
  const base = `/courses/${encodeURIComponent(course.slug)}/lectures/`;
  frame(
    ctx,
    course.title,
    html`<h1 data-page="course" data-slug="${course.slug}">${course.title}</h1>
      ${course.instructor_name ? html`<p>by ${course.instructor_name}</p>` : ''} ${access.line}
      ${sections.map(
        (s) =>
          html`<h2>${s.title}</h2>
            <ul>
              ${lectures
                .filter((l) => l.section_id === s.id)
                .map((l) =>
                  isLockedNow(l, now)
                    ? html`<li>${l.title} <span>(locked until ${day(l.unlock_at!)})</span></li>`
                    : access.ended
                      ? html`<li>${l.title}</li>`
                      : html`<li>
                          <a href="${base}${encodeURIComponent(l.id)}">${l.title}</a>
                          <span
                            >(${clockTime(l.duration)},
                            ${l.state === 'unread' ? 'not started' : l.state})</span
                          >
                        </li>`,
                )}
            </ul>`,
      )}`,
  );
}

/** GET /courses/:slug/lectures/:lectureId[?t=seconds] */
function lecturePage(ctx: RequestContext): void {
  const member = requireMember(ctx);
  if (!member) return;
  const found = enrolledCourse(ctx, member.id);
  if (!found) return;
  const { course, enrollment } = found;
  const { db, clock } = ctx.server;
  const lectures = lecturesForCourses(db, member.id, [course.id]);
  const sections = sectionsForCourses(db, [course.id]);
  const order = sections.flatMap((s) => lectures.filter((l) => l.section_id === s.id));
  const index = order.findIndex((l) => l.id === ctx.params.lectureId);
  const lecture = order[index];
  if (!lecture) return notFound(ctx, 'This course has no lecture at this address.');
  const section = sections.find((s) => s.id === lecture.section_id);
  const courseLink = html`<p>
    <a href="/courses/${encodeURIComponent(course.slug)}">Back to ${course.title}</a>
  </p>`;
  const access = accessLine(ctx, enrollment);
  if (access.ended)
    return frame(
      ctx,
      lecture.title,
      html`<h1>${lecture.title}</h1>
        ${access.line}${courseLink}`,
      403,
    );
  if (isLockedNow(lecture, clock.now()))
    return frame(
      ctx,
      lecture.title,
      html`<h1>${lecture.title}</h1>
        <p class="notice" role="status">This lecture is locked until ${day(lecture.unlock_at!)}.</p>
        ${courseLink}`,
      403,
    );
  // Where playback resumes: the position in the address (the app's), else the member's own last
  // position here.
  const asked = Number(ctx.url.searchParams.get('t'));
  const saved =
    enrollment.last_lecture_id === lecture.id ? (enrollment.last_position_seconds ?? 0) : 0;
  const position = Math.min(lecture.duration, Number.isInteger(asked) && asked > 0 ? asked : saved);
  const next = order.slice(index + 1).find((l) => !isLockedNow(l, clock.now()));
  frame(
    ctx,
    lecture.title,
    html`<p>${course.title}${section ? html` › ${section.title}` : ''}</p>
      <h1 data-page="lecture" data-lecture-id="${lecture.id}">${lecture.title}</h1>
      <div class="notice" role="status" data-testid="resume-at" data-position="${position}">
        ${position > 0 ? `Playback resumes at ${clockTime(position)} of ${clockTime(lecture.duration)}.` : `Playback starts at the beginning (${clockTime(lecture.duration)}).`}
      </div>
      <p>
        <label for="player">Playback position</label
        ><progress id="player" max="${lecture.duration}" value="${position}">
          ${clockTime(position)}
        </progress>
      </p>
      ${next ? html`<p><a href="/courses/${encodeURIComponent(course.slug)}/lectures/${encodeURIComponent(next.id)}">Next: ${next.title}</a></p>` : ''}
      ${courseLink}`,
  );
}

/** GET /orders/:tradeNo */
function orderPage(ctx: RequestContext): void {
  const member = requireMember(ctx);
  if (!member) return;
  const payments = listPaymentsOfOrder(
    ctx.server.db,
    ctx.server.site.schoolId,
    ctx.params.tradeNo ?? '',
  ).filter((p) => p.user_id === member.id);
  if (payments.length === 0) return notFound(ctx, 'You have no order with this number.');
  frame(
    ctx,
    `Order ${ctx.params.tradeNo ?? ''}`,
    html`<h1 data-page="order">Order ${ctx.params.tradeNo ?? ''}</h1>
      <table>
        <thead>
          <tr>
            <th scope="col">Created</th>
            <th scope="col">Amount</th>
            <th scope="col">Payment</th>
            <th scope="col">State</th>
            <th scope="col">Code</th>
          </tr>
        </thead>
        <tbody>
          ${payments.map(
            (p) =>
              html`<tr>
                <td>${day(p.created_at)}</td>
                <td>${p.amount} ${p.currency}</td>
                <td>${p.payment_type}</td>
                <td>${p.payment_state}</td>
                <td>
                  ${p.code_no ? html`<code>${p.code_no}</code>${p.expired_at ? ` (pay by ${day(p.expired_at)})` : ''}` : ''}
                </td>
              </tr>`,
          )}
        </tbody>
      </table>`,
  );
}

/** GET /consulting/:serviceId: offered to members enrolled in its course. */
function consultingPage(ctx: RequestContext): void {
  const member = requireMember(ctx);
  if (!member) return;
  const { db, site } = ctx.server;
  const service = getConsultingService(db, site.schoolId, ctx.params.serviceId ?? '');
  if (!service || !findEnrollment(db, site.schoolId, member.id, service.course_id))
    return notFound(ctx, 'No consulting service is offered to you at this address.');
  frame(
    ctx,
    service.title,
    html`<h1 data-page="consulting">${service.title}</h1>
      <p>${service.duration_minutes} minutes with ${service.consultant_name}</p>
      ${service.description ? html`<p>${service.description}</p>` : ''}`,
  );
}

export const studentPageRoutes: Route[] = [
  { method: 'GET', path: STUDENT_PATHS.course, handler: coursePage },
  { method: 'GET', path: STUDENT_PATHS.lecture, handler: lecturePage },
  { method: 'GET', path: STUDENT_PATHS.order, handler: orderPage },
  { method: 'GET', path: STUDENT_PATHS.consulting, handler: consultingPage },
];
