import { useCallback, useEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useApp } from '../../state/context';
import type { SettingsSection } from '../../state/routes';

const sectionId = (s: SettingsSection) => `settings-${s}`;
const headingId = (s: SettingsSection) => `settings-${s}-title`;

/** The main scroller (the shell's <main>): the sections scroll inside it. */
const scroller = () => document.getElementById('main');

/**
 * Brings a section to the top of the screen and puts focus on its heading (keyboard and
 * screen-reader users land there). Returns where the scroller stopped (a section near the end
 * cannot reach the top), or null.
 */
function reveal(section: SettingsSection): number | null {
  const heading = document.getElementById(headingId(section));
  if (!heading) return null;
  heading.scrollIntoView({ block: 'start' });
  heading.focus({ preventScroll: true });
  return scroller()?.scrollTop ?? null;
}

/**
 * Settings as one page in sections, with a navigation of its own beside it (a table of contents, as
 * in Chrome's and VS Code's settings): each link brings its section into view and focuses its
 * heading, the link of the section being read is marked (aria-current), and a route naming a
 * section (the command palette, Back) opens at it.
 */
export function SettingsLayout({
  sections,
  children,
}: {
  readonly sections: readonly SettingsSection[];
  readonly children: (section: SettingsSection) => ReactNode;
}) {
  const { t } = useTranslation();
  const { route, navigate } = useApp();
  const wanted =
    route.screen === 'settings'
      ? (route.section ?? (route.intent ? 'schools' : undefined))
      : undefined;
  const [current, setCurrent] = useState<SettingsSection>(wanted ?? sections[0] ?? 'schools');
  // The section chosen and where that left the scroller: until the student scrolls elsewhere, it
  // stays the one marked, even when it is too near the end to reach the top (another heading then
  // sits higher).
  const chosen = useRef<{ section: SettingsSection; scrollTop: number } | null>(null);
  const show = useCallback((section: SettingsSection) => {
    setCurrent(section);
    const at = reveal(section);
    chosen.current = at === null ? null : { section, scrollTop: at };
  }, []);

  // Arriving at a section: after the shell has moved focus to the screen's heading (its effect runs
  // after this one, being the parent's), so this waits a frame.
  useEffect(() => {
    if (!wanted) return;
    setCurrent(wanted);
    const frame = requestAnimationFrame(() => show(wanted));
    return () => cancelAnimationFrame(frame);
  }, [wanted, show]);

  // The section being read: the last one whose heading has reached the top of the scroller.
  const track = useCallback(() => {
    const main = scroller();
    if (!main) return;
    const pinned = chosen.current;
    if (pinned && Math.abs(main.scrollTop - pinned.scrollTop) < 4) {
      setCurrent(pinned.section);
      return;
    }
    chosen.current = null;
    const line = main.getBoundingClientRect().top + 24;
    let seen: SettingsSection | undefined;
    for (const s of sections) {
      const el = document.getElementById(sectionId(s));
      if (el && el.getBoundingClientRect().top <= line) seen = s;
    }
    // Scrolled to the very end: the last section is the one read, however short it is.
    if (main.scrollTop + main.clientHeight >= main.scrollHeight - 2)
      seen = sections[sections.length - 1];
    if (seen) setCurrent(seen);
  }, [sections]);
  useEffect(() => {
    const main = scroller();
    if (!main) return;
    let frame = 0;
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(track);
    };
    main.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      main.removeEventListener('scroll', onScroll);
    };
  }, [track]);

  const go = (e: MouseEvent, section: SettingsSection) => {
    e.preventDefault();
    show(section);
    // Each section visited is a place Back returns to.
    if (wanted !== section) navigate({ screen: 'settings', section });
  };

  return (
    <div className="settings-layout">
      <nav className="settings-nav" aria-label={t('settings.nav.label')} data-testid="settings-nav">
        <ul className="plain">
          {sections.map((s) => (
            <li key={s}>
              <a
                href={`#${sectionId(s)}`}
                aria-current={s === current ? 'true' : undefined}
                onClick={(e) => go(e, s)}
                data-testid={`settings-nav-${s}`}
              >
                {t(`settings.nav.${s}`)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="settings-sections">
        {sections.map((s) => (
          <section
            key={s}
            id={sectionId(s)}
            className="settings-section"
            aria-labelledby={headingId(s)}
            data-testid={`settings-section-${s}`}
          >
            <h2 id={headingId(s)} tabIndex={-1}>
              {t(`settings.nav.${s}`)}
            </h2>
            {children(s)}
          </section>
        ))}
      </div>
    </div>
  );
}
