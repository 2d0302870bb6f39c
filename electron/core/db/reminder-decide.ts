/**
 * One run of the reminders (the rules and their memory: reminder-run.ts): snoozes that came due
 * first, then each kind's items, in one transaction. Pure over the database and the input's clock.
 */
import type { Database } from 'better-sqlite3';
import {
  baselines,
  dueLeads,
  group,
  marker,
  quietUntil,
  RULE_KINDS,
  subjectsOf,
  type Due,
  type Mark,
  type RuleKind,
  type RuleReminderGroup,
  type RuleRunInput,
} from './reminder-run';
import { subjectById, type ReminderSubject } from './reminder-subjects';
import { prepared } from './statements';

const SEEN_LOCKED = 'lecture-locked';

/**
 * The items snoozed until now or before: reminded of again if they still matter; the rows go either
 * way.
 */
function dueSnoozes(db: Database, input: RuleRunInput): Map<RuleKind, Due[]> {
  const rows = prepared<{ now: number }, { site_id: string; kind: RuleKind; subject_id: string }>(
    db,
    'SELECT site_id, kind, subject_id FROM reminder_snoozes WHERE until_ms <= @now ORDER BY until_ms LIMIT 200',
  ).all({ now: input.now });
  const out = new Map<RuleKind, Due[]>();
  const drop = prepared<{ site: string; kind: string; id: string }>(
    db,
    'DELETE FROM reminder_snoozes WHERE site_id = @site AND kind = @kind AND subject_id = @id',
  );
  for (const r of rows) {
    drop.run({ site: r.site_id, kind: r.kind, id: r.subject_id });
    if (!RULE_KINDS.includes(r.kind) || input.rules[r.site_id]?.[r.kind]?.enabled === false)
      continue;
    const subject =
      r.kind === 'plan-behind'
        ? (input.behind.find((b) => b.siteId === r.site_id && b.id === r.subject_id) ?? null)
        : subjectById(db, r.kind, r.site_id, r.subject_id, input.now);
    if (!subject) continue;
    out.set(r.kind, [...(out.get(r.kind) ?? []), { subject, fireAt: input.now, labels: [] }]);
  }
  return out;
}

function snoozedNow(db: Database, now: number): Set<string> {
  return new Set(
    prepared<{ now: number }, { k: string }>(
      db,
      'SELECT site_id || char(0) || kind || char(0) || subject_id AS k FROM reminder_snoozes WHERE until_ms > @now',
    )
      .all({ now })
      .map((r) => r.k),
  );
}

/**
 * One kind's items whose lead times came: announced (not at a baseline, not switched off), all
 * marked.
 */
function decideKind(
  db: Database,
  kind: RuleKind,
  input: RuleRunInput,
  ctx: {
    mark: Mark;
    base: ReturnType<typeof baselines>;
    snoozed: Set<string>;
    resumed: Set<string>;
  },
): Due[] {
  const sites = Object.entries(input.rules).filter(([id]) => ctx.base.at.has(id));
  const maxLead = Math.max(0, ...sites.flatMap(([, r]) => r[kind]?.leadMinutes ?? []));
  const announce: Due[] = [];
  for (const s of subjectsOf(db, kind, input, maxLead) as ReminderSubject[]) {
    const rule = input.rules[s.siteId]?.[kind];
    if (!rule || !ctx.base.at.has(s.siteId)) continue;
    const key = `${s.siteId}\u0000${kind}\u0000${s.id}`;
    if (ctx.snoozed.has(key)) continue;
    const leads = kind === 'lecture-unlocked' || kind === 'plan-behind' ? [0] : rule.leadMinutes;
    const due = dueLeads(db, kind, s, leads, input);
    if (!due) continue;
    // Due at the site's first sync (the student had it), or switched off: remembered as said, never
    // said later.
    const silent = !rule.enabled || ctx.base.fresh === s.siteId;
    for (const label of due.labels) ctx.mark(s, kind, label, !silent);
    // Said just now as a snooze come due: once is enough.
    if (!silent && !ctx.resumed.has(key)) announce.push(due);
  }
  return announce;
}

export function decideRuleReminders(db: Database, input: RuleRunInput): RuleReminderGroup[] {
  const at = new Date(input.now).toISOString();
  return db.transaction((): RuleReminderGroup[] => {
    const base = baselines(db, input, at);
    const lastRun = lastRunAt(db, input.now);
    // Quiet hours: nothing is said and nothing marked; what came due waits for their end.
    if (quietUntil(input.now, input.quietHours, input.timeZone) !== null) return [];
    const groups: RuleReminderGroup[] = [];
    const resumed = new Set<string>();
    for (const [kind, due] of dueSnoozes(db, input)) {
      for (const d of due) resumed.add(`${d.subject.siteId}\u0000${kind}\u0000${d.subject.id}`);
      const g = group(kind, due, input.now, { snoozed: true, lastRun });
      if (g) groups.push(g);
    }
    const ctx = { mark: marker(db, at), base, snoozed: snoozedNow(db, input.now), resumed };
    for (const kind of RULE_KINDS) {
      const g = group(kind, decideKind(db, kind, input, ctx), input.now, {
        snoozed: false,
        lastRun,
      });
      if (g) groups.push(g);
    }
    // What is locked now is what a later run compares with (a lecture the school opens without a
    // date).
    prepared<{ at: string }>(
      db,
      `INSERT INTO reminder_marks (site_id, kind, subject_id, threshold, due_at, marked_at, announced)
       SELECT l.site_id, '${SEEN_LOCKED}', l.id, 'seen', '', @at, 0 FROM lectures l JOIN reminder_sites r ON r.site_id = l.site_id
        WHERE l.is_locked = 1 ON CONFLICT DO NOTHING`,
    ).run({ at });
    return groups;
  })();
}

/** When the previous run was (null: never), and now is the last one. */
function lastRunAt(db: Database, now: number): number | null {
  const last = prepared<object, { ms: number }>(
    db,
    'SELECT last_run_ms AS ms FROM reminder_runs WHERE id = 1',
  ).get({});
  prepared<{ now: number }>(
    db,
    `INSERT INTO reminder_runs (id, last_run_ms) VALUES (1, @now)
     ON CONFLICT (id) DO UPDATE SET last_run_ms = max(last_run_ms, excluded.last_run_ms)`,
  ).run({ now });
  return last?.ms ?? null;
}

/** Puts off an item's reminders until `untilMs` (a later snooze replaces an earlier one). */
export function snoozeReminder(
  db: Database,
  input: { siteId: string; kind: RuleKind; subjectId: string; untilMs: number; now: number },
): void {
  prepared<Record<string, unknown>>(
    db,
    `INSERT INTO reminder_snoozes (site_id, kind, subject_id, until_ms, snoozed_at)
     SELECT @siteId, @kind, @subjectId, @untilMs, @at WHERE EXISTS (SELECT 1 FROM sites WHERE id = @siteId)
     ON CONFLICT (site_id, kind, subject_id) DO UPDATE SET until_ms = excluded.until_ms, snoozed_at = excluded.snoozed_at`,
  ).run({ ...input, at: new Date(input.now).toISOString() });
}
