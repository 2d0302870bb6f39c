import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SiteSummary } from '../../../electron/common/view-models';
import type { AppCore } from '../../../electron/core/app-core';
import { reminderUid } from '../../../electron/core/export/calendar';
import { utcDateTime } from '../../../electron/core/export/ics';
import type { ExportFile } from '../../../electron/core/export/service';
import type { EmbeddedServer } from '../../../embedded-server/index';
import { syncedDemo, valueOf, type SyncedDemo, invoke } from '../../helpers/test-core';

/**
 * RFC 5545 §3.1: a file's content lines, unfolded (CRLF + one space or tab continues the line
 * before).
 */
function contentLines(ics: string): string[] {
  return ics.replace(/\r\n[ \t]/g, '').split('\r\n');
}

/** The properties of the file's one VEVENT (alarms left out), by name. */
function eventProperties(ics: string): Map<string, string> {
  const lines = contentLines(ics);
  const from = lines.indexOf('BEGIN:VEVENT');
  const to = lines.indexOf('END:VEVENT');
  const props = new Map<string, string>();
  let inAlarm = false;
  for (const line of lines.slice(from + 1, to)) {
    if (line === 'BEGIN:VALARM') inAlarm = true;
    if (!inAlarm) props.set(line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1));
    if (line === 'END:VALARM') inAlarm = false;
  }
  return props;
}

/**
 * "Add to calendar" for a registered event, over the demo seed synced by a real core from a real
 * embedded site.
 */
describe('an event the student registered for, as an .ics file (RFC 5545)', () => {
  let server: EmbeddedServer;
  let demo: SyncedDemo;
  let core: AppCore;
  let site: SiteSummary;
  let delivered: ExportFile[];

  beforeAll(async () => {
    demo = await syncedDemo({ prefix: 'ld-event-ics-' });
    ({ server, core, site, delivered } = demo);
  }, 60_000);

  afterAll(async () => demo?.close());

  const events = async () =>
    valueOf(await invoke(core.handlers, 'entitlements:get', { siteId: site.id }))
      .eventRegistrations;
  const exportEvent = async (registrationId: string, language: 'en' | 'zh-TW') => {
    const before = delivered.length;
    valueOf(
      await invoke(core.handlers, 'calendar:event', {
        siteId: site.id,
        registrationId,
        language,
      }),
    );
    expect(delivered).toHaveLength(before + 1);
    return delivered.at(-1)!;
  };

  it('an upcoming event: its start and end, its title and place, a day and an hour of warning, the time marked busy', async () => {
    const upcoming = (await events()).filter((e) => !e.isPast);
    expect(upcoming.length).toBeGreaterThan(0);
    for (const event of upcoming) {
      const file = await exportEvent(event.id, 'en');
      expect(file.kind).toBe('ics');
      expect(file.mimeType).toBe('text/calendar; charset=utf-8');
      expect(file.fileName).toMatch(/^event-\d{4}-\d{2}-\d{2}-[A-Za-z0-9._-]+\.ics$/);
      // §3.1: every physical line is at most 75 octets and ends in CRLF.
      expect(file.body.endsWith('\r\n')).toBe(true);
      for (const line of file.body.split('\r\n'))
        expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
      const props = eventProperties(file.body);
      expect(props.get('UID')).toBe(
        reminderUid({ baseUrl: server.url, label: site.label }, 'event', event.id),
      );
      expect(props.get('DTSTART')).toBe(utcDateTime(new Date(event.startsAt)));
      expect(props.get('DTEND')).toBe(utcDateTime(new Date(event.endsAt)));
      expect(props.get('SUMMARY')).toBe(
        event.title.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,'),
      );
      expect(props.get('TRANSP')).toBe('OPAQUE');
      expect(props.get('DESCRIPTION')).toContain(`School: ${site.label.replace(/,/g, '\\,')}`);
      if (event.isOnline) {
        expect(props.has('LOCATION')).toBe(false);
        expect(props.get('URL')).toBe(new URL(event.joinUrl ?? server.url).toString());
      } else if (event.location !== null) {
        expect(props.get('LOCATION')).toBe(
          event.location.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,'),
        );
      }
      const alarms = contentLines(file.body).filter((l) => l.startsWith('TRIGGER:'));
      // A day and an hour before, except an alarm already past as the file is written (ics.ts never
      // writes one):
      // the demo's Q&A starts a day after the seed, so its day-before alarm has just gone.
      const now = server.clock.now();
      const warnings = [
        ['TRIGGER:-P1D', 86_400_000],
        ['TRIGGER:-PT1H', 3_600_000],
      ] as const;
      expect(alarms).toEqual(
        warnings
          .filter(([, before]) => Date.parse(event.startsAt) - before > now)
          .map(([line]) => line),
      );
    }
  });

  it('in Chinese the words are Chinese; exporting again gives the same UID, so a calendar updates the event', async () => {
    const event = (await events()).find((e) => !e.isPast)!;
    const en = eventProperties((await exportEvent(event.id, 'en')).body);
    const zh = eventProperties((await exportEvent(event.id, 'zh-TW')).body);
    expect(zh.get('UID')).toBe(en.get('UID'));
    expect(zh.get('DESCRIPTION')).toContain('學校：');
    expect(contentLines(delivered.at(-1)!.body)).toContain('DESCRIPTION:活動即將開始');
  });

  it('a past event, an unknown one or a malformed request: a clear error, and no file', async () => {
    const past = (await events()).find((e) => e.isPast);
    const before = delivered.length;
    if (past) {
      const r = await invoke(core.handlers, 'calendar:event', {
        siteId: site.id,
        registrationId: past.id,
        language: 'en',
      });
      expect(r).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    }
    expect(
      await invoke(core.handlers, 'calendar:event', {
        siteId: site.id,
        registrationId: 'no-such-event',
        language: 'en',
      }),
    ).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });
    expect(
      await invoke(core.handlers, 'calendar:event', {
        siteId: site.id,
        registrationId: '',
        language: 'en',
      }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid-input' },
    });
    expect(
      await invoke(core.handlers, 'calendar:event', {
        siteId: site.id,
        registrationId: 'x',
        language: 'fr',
      } as never),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid-input' },
    });
    expect(delivered).toHaveLength(before);
    // The demo seed has both kinds: the past one above was really refused.
    expect(past).toBeDefined();
  });
});
