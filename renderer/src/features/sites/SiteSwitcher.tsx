import { Check, ChevronsUpDown, LogOut, Plus } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { labelsNeedingHost } from '../../../../electron/common/site-values';
import type { SiteSummary } from '../../../../electron/common/view-models';
import { useApp } from '../../state/context';
import { coverHue, monogram } from '../../ui/cover';
import { buttonKey, menuKey, type MenuAction } from '../../ui/menu-model';
import { UnreadBadge } from '../notifications/index';
import { siteStatusKey } from './labels';
import { statusChipKey, useSyncStatus } from '../../state/sync-status';
import { canSignOut, SignOutDialog } from './SignOutDialog';

/** A site's initial on a tile of its own hue (sites carry no logo in the view model). */
function SiteAvatar({
  site,
  size = 'md',
}: {
  readonly site: SiteSummary;
  readonly size?: 'sm' | 'md';
}) {
  return (
    <span
      className={`site-avatar ${size}`}
      aria-hidden="true"
      style={{ ['--cover-hue' as string]: coverHue(site.id) }}
    >
      {monogram(site.label)}
    </span>
  );
}

const hasData = (s: SiteSummary) => s.status === 'ready' || s.lastSyncedAt !== null;

function stateClass(s: SiteSummary): string {
  if (s.status === 'ready') return 'ok';
  if (s.status === 'sign-in-needed' || s.status === 'sign-out-unconfirmed') return 'bad';
  return 'neutral';
}

const TONE_CLASS = { ok: 'ok', busy: 'busy', warning: 'warning', danger: 'bad' } as const;

/**
 * The shown site's state under its name: the same status view the status bar renders (useSyncStatus
 * `view`), so the chip is never green beside a status bar or banner that says otherwise. When all
 * is well it says the sign-in state.
 */
function SiteChipState({
  site,
  host,
}: {
  readonly site: SiteSummary;
  readonly host: string | undefined;
}) {
  const { t } = useTranslation();
  const { view } = useSyncStatus(site.id);
  const ok = view.state === 'ok';
  return (
    <span
      className="site-switcher-state"
      data-testid="site-chip-state"
      data-state={view.state}
      data-tone={view.tone}
    >
      <span
        className={`status-dot ${ok ? stateClass(site) : TONE_CLASS[view.tone]}`}
        aria-hidden="true"
      />
      {site.isDemo ? `${t('sites.demoTag')} · ` : ''}
      {/* Signed out by the student: said in those words (red, as the bar), not as a sign-in the school asks for. */}
      {ok || site.status === 'signed-out'
        ? t(siteStatusKey(site.status))
        : t(statusChipKey(view.state))}
      {host !== undefined && (
        <span data-testid="site-host">
          {' · '}
          {host}
        </span>
      )}
    </span>
  );
}

/**
 * Which site the screens show, and "Add a site": a menu button (WAI-ARIA APG "Menu Button"). Each
 * site is a menuitemradio (checked = shown now) with its initial, name, signed-in state and unread
 * count. The keyboard model (ui/menu-model.ts) is unit-tested; this component applies it and moves
 * focus.
 */
export function SiteSwitcher() {
  const { t } = useTranslation();
  const { sites, site, selectSite, navigate } = useApp();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [signingOut, setSigningOut] = useState<SiteSummary | null>(null);
  const [notice, setNotice] = useState('');
  const buttonId = useId();
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const itemRefs = useRef<(HTMLElement | null)[]>([]);

  // The sites, then "Add a site", then "Sign out of <the site shown>" when it has a sign-in to end.
  const signOutItem = site !== null && canSignOut(site);
  const signOutLabel = site ? t('sites.switcher.signOut', { site: site.label }) : '';
  const count = sites.length + 1 + (signOutItem ? 1 : 0);
  const labels = [
    ...sites.map((s) => s.label),
    t('nav.addSite'),
    ...(signOutItem ? [signOutLabel] : []),
  ];
  // Two sites that read the same (or a label naming another host) are told apart by their host.
  const hosts = useMemo(() => labelsNeedingHost(sites), [sites]);

  // Focus follows the active item while the menu is open (roving focus, APG).
  useEffect(() => {
    if (open) itemRefs.current[active]?.focus();
  }, [open, active]);

  // A press outside closes the menu without taking focus back (the student clicked elsewhere on
  // purpose).
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open]);

  if (!site) return null;

  const activate = (index: number) => {
    setOpen(false);
    buttonRef.current?.focus();
    const chosen = sites[index];
    if (index === sites.length + 1) {
      setNotice('');
      setSigningOut(site);
    } else if (chosen) {
      if (chosen.id !== site.id) {
        selectSite(chosen.id);
        navigate({ screen: 'library' });
      }
    } else {
      navigate({ screen: 'add-site' });
    }
  };

  const apply = (action: MenuAction) => {
    switch (action.kind) {
      case 'open':
        setActive(action.index);
        setOpen(true);
        return true;
      case 'move':
        setActive(action.index);
        return true;
      case 'activate':
        activate(action.index);
        return true;
      case 'close':
        setOpen(false);
        // Escape: back to the button. Tab: focus is put on the button first and the key is let
        // through, so the browser moves on from the button (Shift+Tab: back from it), exactly as
        // from the closed menu's button; the focused item is about to go, and left to itself focus
        // would fall to the page (APG "Menu Button": Tab closes the menu and moves on).
        buttonRef.current?.focus();
        return action.restoreFocus;
      case 'none':
        return false;
    }
  };

  const onButtonKey = (e: KeyboardEvent) => {
    if (open) return;
    if (apply(buttonKey(e.key, count))) e.preventDefault();
  };
  const onMenuKey = (e: KeyboardEvent) => {
    if (apply(menuKey(e.key, active, labels))) e.preventDefault();
  };

  return (
    <div className="site-switcher" ref={rootRef}>
      <button
        ref={buttonRef}
        id={buttonId}
        type="button"
        className="site-switcher-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        data-testid="site-switcher"
        onClick={() => {
          setActive(
            Math.max(
              0,
              sites.findIndex((s) => s.id === site.id),
            ),
          );
          setOpen((o) => !o);
        }}
        onKeyDown={onButtonKey}
        // Space clicks on key-up; the key-down already opened the menu.
        onKeyUp={(e) => e.key === ' ' && e.preventDefault()}
      >
        <SiteAvatar site={site} />
        <span className="site-switcher-text">
          <span className="visually-hidden">{t('sites.switcher.label')}: </span>
          <span className="site-switcher-name" data-testid="site-name">
            {site.label}
          </span>
          <SiteChipState site={site} host={hosts.get(site.id)} />
        </span>
        <ChevronsUpDown className="site-switcher-chevron" />
      </button>
      {open && (
        <div
          className="menu site-menu"
          role="menu"
          id={menuId}
          aria-labelledby={buttonId}
          onKeyDown={onMenuKey}
          data-testid="site-menu"
        >
          <p className="menu-heading" aria-hidden="true">
            {t('sites.switcher.menuTitle')}
          </p>
          {sites.map((s, i) => (
            <div
              key={s.id}
              ref={(el) => {
                itemRefs.current[i] = el;
              }}
              role="menuitemradio"
              aria-checked={s.id === site.id}
              tabIndex={-1}
              className="menu-item site-menu-item"
              data-testid="site-menu-item"
              data-site-id={s.id}
              onClick={() => activate(i)}
              onPointerMove={() => active !== i && setActive(i)}
            >
              <SiteAvatar site={s} size="sm" />
              <span className="site-menu-text">
                <span className="site-menu-name">
                  {s.label}
                  {s.isDemo && <span className="visually-hidden"> ({t('sites.demoTag')})</span>}
                </span>
                <span className="site-menu-state">
                  <span className={`status-dot ${stateClass(s)}`} aria-hidden="true" />
                  <span className="visually-hidden">, </span>
                  {t(siteStatusKey(s.status))}
                  {hosts.has(s.id) && (
                    <span data-testid="site-menu-host">
                      {' · '}
                      {hosts.get(s.id)}
                    </span>
                  )}
                </span>
              </span>
              {hasData(s) && <UnreadBadge siteId={s.id} testId="site-unread" lead=", " />}
              <Check
                className="menu-check"
                style={{ visibility: s.id === site.id ? 'visible' : 'hidden' }}
              />
            </div>
          ))}
          <div className="menu-separator" role="separator" />
          <div
            ref={(el) => {
              itemRefs.current[sites.length] = el;
            }}
            role="menuitem"
            tabIndex={-1}
            className="menu-item"
            data-testid="site-menu-add"
            onClick={() => activate(sites.length)}
            onPointerMove={() => active !== sites.length && setActive(sites.length)}
          >
            <span className="menu-item-icon" aria-hidden="true">
              <Plus />
            </span>
            {t('nav.addSite')}
          </div>
          {signOutItem && (
            <div
              ref={(el) => {
                itemRefs.current[sites.length + 1] = el;
              }}
              role="menuitem"
              tabIndex={-1}
              className="menu-item"
              data-testid="site-menu-sign-out"
              onClick={() => activate(sites.length + 1)}
              onPointerMove={() => active !== sites.length + 1 && setActive(sites.length + 1)}
            >
              <span className="menu-item-icon" aria-hidden="true">
                <LogOut />
              </span>
              {signOutLabel}
            </div>
          )}
        </div>
      )}
      <SignOutDialog
        site={signingOut}
        onClose={() => setSigningOut(null)}
        onDone={(text) => {
          setSigningOut(null);
          setNotice(text);
        }}
      />
      {/* What the sign-out did, read out; the button's own state line shows "Signed out" to the eye. */}
      <p role="status" className="visually-hidden" data-testid="site-menu-notice">
        {notice}
      </p>
    </div>
  );
}
