import { useTranslation } from 'react-i18next';
import { useChannel } from '../../query';

/**
 * Removing a site asks what becomes of the student's notes of it (they are the student's, not the
 * school's): kept on this computer (the default), or deleted with the site. Nothing is asked of a
 * site without notes.
 */
export function NotesOnRemove({
  siteId,
  keep,
  onChange,
}: {
  readonly siteId: string;
  readonly keep: boolean;
  readonly onChange: (keep: boolean) => void;
}) {
  const { t } = useTranslation();
  const q = useChannel('notes:count-site', { siteId }, { staleTime: 0 });
  const count = q.data?.count ?? 0;
  if (count === 0) return null;
  return (
    <fieldset className="note-kind" data-testid="remove-notes-choice">
      <legend>{t('notes.removeSiteAsk', { count })}</legend>
      <label>
        <input type="radio" name="remove-notes" checked={keep} onChange={() => onChange(true)} />
        {t('notes.removeSiteKeep')}
      </label>
      <label>
        <input
          type="radio"
          name="remove-notes"
          checked={!keep}
          onChange={() => onChange(false)}
          data-testid="remove-notes-delete"
        />
        {t('notes.removeSiteDelete')}
      </label>
    </fieldset>
  );
}
