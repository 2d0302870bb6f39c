import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import type { ConsultingServiceView, EntitlementsView } from '../../electron/common/view-models';
import { nextOccurrence, slotInZone } from '../../renderer/src/features/consulting/slot-times';
import { expect, test } from './fixtures';
import {
  SHOTS,
  expectAccessible,
  formatInPage,
  openScreen,
  scrollToRow,
  startDemo,
  translator,
} from './helpers-ui';

// Each test starts from the demo signed in and synced (fixtures.ts: signedInDemo).
test.use({ signedInDemo: true });

/**
 * Products & events: "Add to calendar" on an upcoming event (a real download of an .ics in the
 * browser host). Consulting: the consultant's weekly hours and the booked times in one zone, the
 * student's, named once. The browser runs in New York while the demo school sets its hours in
 * Taipei, so a slot left in the school's zone would show.
 */
test.use({ timezoneId: 'America/New_York' });

async function siteId(host: {
  core: { handlers: { 'sites:list': (i: undefined) => Promise<unknown> } };
}): Promise<string> {
  const r = (await host.core.handlers['sites:list'](undefined)) as {
    ok: boolean;
    value: { id: string; status: string }[];
  };
  return r.value.find((s) => s.status === 'ready')!.id;
}

async function downloadedText(
  page: Page,
  click: () => Promise<void>,
): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: download.suggestedFilename(), text: readFileSync(await download.path(), 'utf8') };
}

test('an upcoming event goes to the calendar as an .ics of its own; past events offer no such button', async ({
  page,
  context,
  host,
}) => {
  const t = translator('en');
  await startDemo(page, context, host);
  const id = await siteId(host);
  const view = (await host.core.handlers['entitlements:get']({ siteId: id })) as {
    ok: true;
    value: EntitlementsView;
  };
  const upcoming = view.value.eventRegistrations
    .filter((e) => !e.isPast)
    .sort((a, b) => a.startsAt.localeCompare(b.startsAt));
  expect(upcoming.length, 'the demo seed has an upcoming event').toBeGreaterThan(0);
  await openScreen(page, 'entitlements');
  // The kind of each product in words, not the site's code for it ("E-book", not "ebook").
  const firstProduct = view.value.digitalProducts[0]!;
  await expect(page.getByTestId('product-format').first()).toHaveText(
    t(`entitlements.format.${firstProduct.format}`),
  );
  expect(await page.getByTestId('product-format').allTextContents()).not.toContain(
    firstProduct.format,
  );
  const row = page
    .locator('[data-testid="upcoming-list"] [data-testid="event-registration"]')
    .first();
  await scrollToRow(page, row);
  const button = row.getByTestId('calendar-event');
  await expect(button).toHaveText(t('calendar.add'));
  await expect(button).toHaveAccessibleName(t('calendar.addEvent', { title: upcoming[0]!.title }));
  const file = await downloadedText(page, () => button.click());
  expect(file.name).toMatch(/^event-\d{4}-\d{2}-\d{2}-[A-Za-z0-9._-]+\.ics$/);
  const lines = file.text.replace(/\r\n[ \t]/g, '').split('\r\n');
  expect(lines[0]).toBe('BEGIN:VCALENDAR');
  expect(lines).toContain(
    `DTSTART:${new Date(upcoming[0]!.startsAt)
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}Z$/, 'Z')}`,
  );
  expect(lines).toContain('TRANSP:OPAQUE');
  await expect(row.getByTestId('calendar-event-status')).toHaveText(
    t('export.downloaded', { name: file.name }),
  );
  // Keyboard: the button is reached and pressed like any other.
  await button.focus();
  const again = await downloadedText(page, () => page.keyboard.press('Enter'));
  expect(again.name).toBe(file.name);
  await expect(
    page.locator('[data-testid="past-list"] [data-testid="calendar-event"]'),
  ).toHaveCount(0);
  await expectAccessible(page, 'products & events with Add to calendar');
  await row.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/events-calendar-en.png` });
});

for (const lng of ['en', 'zh-TW'] as const) {
  test.describe(`consulting in ${lng}`, () => {
    test.use({ locale: lng });
    test('hours and booked times in the student’s zone, named once; the school’s zone is not shown', async ({
      page,
      context,
      host,
    }) => {
      const t = translator(lng);
      await startDemo(page, context, host);
      const id = await siteId(host);
      const list = (await host.core.handlers['consulting:list']({ siteId: id })) as {
        ok: true;
        value: ConsultingServiceView[];
      };
      const withSlots = list.value.find((s) => s.slots.length > 0);
      expect(withSlots, 'the demo seed sets weekly hours').toBeDefined();
      expect(withSlots!.slots.every((s) => s.timeZone !== 'America/New_York')).toBe(true);
      await openScreen(page, 'consulting');
      const zoneLine = page.getByTestId('consulting-zone');
      await expect(zoneLine).toContainText('GMT-5');
      if (lng === 'en')
        await expect(zoneLine).toHaveText(
          t('consulting.zone', { zone: 'Eastern Standard Time (GMT-5)' }),
        );
      const card = page.locator(
        `[data-testid="consulting-service"][data-service-id="${withSlots!.id}"]`,
      );
      await scrollToRow(page, card);
      const now = Date.now();
      const slots = card.getByTestId('consulting-slot');
      await expect(slots).toHaveCount(withSlots!.slots.length);
      for (const [i, slot] of withSlots!.slots.entries()) {
        const when = slotInZone(nextOccurrence(slot, now)!, 'America/New_York', lng);
        // The weekday as New York sees it (the school's Monday morning is Sunday evening there).
        await expect(slots.nth(i)).toContainText(when.weekday);
        await expect(slots.nth(i)).not.toContainText(slot.timeZone);
      }
      // The weekly hours lead, as when the student can book, then the way to book on the school's
      // site; the times taken by anyone (the API's meetings, not the student's bookings) come last,
      // closed.
      await expect(card.locator('h3').first()).toHaveText(t('consulting.availability'));
      const order = await card.evaluate((el) => {
        const at = (selector: string) =>
          [...el.querySelectorAll('*')].indexOf(el.querySelector(selector)!);
        return {
          slots: at('[data-testid="consulting-slot"]'),
          book: at('[data-testid="open-consulting"]'),
          taken: at('details.booked'),
        };
      });
      expect(order.slots).toBeLessThan(order.book);
      expect(order.book).toBeLessThan(order.taken);
      await expect(card.locator('details.booked')).not.toHaveAttribute('open', /.*/);
      await expect(card.getByTestId('open-consulting')).toContainText(t('sitePages.consulting'));
      // No other zone is named anywhere on the screen: the school's (Taipei) least of all.
      await expect(page.locator('#main')).not.toContainText(/Taipei|Asia\/|台北|臺北/);
      // Booked times are shown in the same zone as the hours.
      const booked = withSlots!.bookedTimes
        .filter((b) => Date.parse(b.endsAt) >= now)
        .sort((a, b) => a.startsAt.localeCompare(b.startsAt));
      if (booked.length > 0) {
        await card.locator('details.booked summary').click();
        const first = await formatInPage(
          page,
          lng,
          'range',
          booked[0]!.startsAt,
          booked[0]!.endsAt,
        );
        await expect(card.locator('details.booked li').first()).toHaveText(first);
      }
      await expectAccessible(page, `consulting (${lng})`);
      await page.screenshot({ path: `${SHOTS}/consulting-zone-${lng}.png` });
    });
  });
}
