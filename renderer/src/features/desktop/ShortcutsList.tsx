import { useTranslation } from 'react-i18next';
import { SHORTCUTS, shortcutLabel, type Shortcut } from '../../../../electron/common/shortcuts';
import { useIsMac } from '../../state/platform';

/** What a shortcut does, in the user's language. */
function useShortcutText() {
  const { t } = useTranslation();
  return (s: Shortcut) =>
    s.command.command === 'go'
      ? t('desktop.shortcuts.go', { screen: t(`nav.${s.command.screen}`) })
      : t(`desktop.shortcuts.${s.id}`);
}

/** The keyboard shortcuts, drawn from the table both hosts use (electron/common/shortcuts.ts). */
export function ShortcutsList() {
  const { t } = useTranslation();
  const isMac = useIsMac();
  const text = useShortcutText();
  return (
    <table className="shortcuts" data-testid="shortcuts-list">
      <thead>
        <tr>
          <th scope="col">{t('desktop.shortcuts.action')}</th>
          <th scope="col">{t('desktop.shortcuts.keys')}</th>
        </tr>
      </thead>
      <tbody>
        {SHORTCUTS.map((s) => (
          <tr key={s.id} data-testid={`shortcut-${s.id}`}>
            <td>{text(s)}</td>
            <td>
              <kbd>{shortcutLabel(s, isMac)}</kbd>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Settings section: the same list as Help > Keyboard Shortcuts. */
export function ShortcutsSettings() {
  const { t } = useTranslation();
  return (
    <section
      className="card"
      aria-labelledby="desktop-shortcuts-title"
      data-testid="shortcuts-settings"
    >
      <h3 id="desktop-shortcuts-title">{t('desktop.shortcuts.title')}</h3>
      <ShortcutsList />
    </section>
  );
}
