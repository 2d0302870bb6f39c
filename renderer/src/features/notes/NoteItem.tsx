import { ArrowUpRight, Bookmark, NotebookPen, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NoteView } from '../../../../electron/common/view-models';
import { call } from '../../api';
import { ErrorState } from '../../ui/ErrorState';
import { formatDateTime } from '../../ui/format';
import { formatMoment } from './moment';

/**
 * Opens the note's lecture on the school's site at its moment (`?t=`): the core builds the address.
 */
export function openNoteOnSite(id: number): Promise<unknown> {
  return call('notes:open', { id });
}

/**
 * One note or bookmark: its moment (a button opening the lecture there on the school's site), the
 * student's title and text as plain text (React escapes it; the Markdown is never rendered as
 * markup), where it belongs when `showContext`, and Edit and Delete.
 */
export function NoteItem({
  note,
  showContext,
  onEdit,
  onDelete,
}: {
  readonly note: NoteView;
  readonly showContext: boolean;
  readonly onEdit: (note: NoteView) => void;
  readonly onDelete: (note: NoteView) => void;
}) {
  const { t, i18n } = useTranslation();
  const [error, setError] = useState<unknown>(null);
  const time = formatMoment(note.positionSeconds);
  const Icon = note.kind === 'bookmark' ? Bookmark : NotebookPen;
  const heading = note.title || (note.kind === 'bookmark' ? '' : t('notes.untitled'));
  return (
    <article
      className="card note-item"
      data-testid="note-item"
      data-note-id={note.id}
      data-kind={note.kind}
    >
      <span className="note-icon" aria-hidden="true">
        <Icon />
      </span>
      <div>
        <h3>{heading}</h3>
        <p className="small muted note-context">
          {[
            note.kind === 'bookmark' ? t('notes.kindBookmark') : t('notes.kindNote'),
            time,
            ...(showContext ? [note.school, note.courseTitle] : []),
            note.lectureTitle,
            formatDateTime(note.createdAt, i18n.language),
          ].join(' · ')}
          {note.lectureGone && (
            <>
              {' '}
              <span className="tag" data-testid="note-gone">
                {t('notes.gone')}
              </span>
            </>
          )}
          {note.siteGone && (
            <>
              {' '}
              <span className="tag">{t('notes.siteGone')}</span>
            </>
          )}
        </p>
        {note.body && (
          <p className="note-body" data-testid="note-body-text">
            {note.body}
          </p>
        )}
        {error !== null && <ErrorState error={error} compact />}
      </div>
      <div className="note-buttons">
        <button
          type="button"
          className="button small open-on-site"
          onClick={() => {
            setError(null);
            openNoteOnSite(note.id).catch(setError);
          }}
          aria-label={t('notes.openAtLabel', { title: note.lectureTitle, time })}
          data-testid="note-open"
        >
          {t('notes.openAt', { time })}
          <ArrowUpRight aria-hidden="true" className="open-on-site-arrow" />
        </button>
        <button
          type="button"
          className="button small ghost"
          onClick={() => onEdit(note)}
          aria-label={t('notes.editLabel', { time })}
          data-testid="note-edit"
        >
          <Pencil aria-hidden="true" />
          {t('notes.edit')}
        </button>
        <button
          type="button"
          className="button small ghost"
          onClick={() => onDelete(note)}
          aria-label={t('notes.deleteLabel', { time })}
          data-testid="note-delete"
        >
          <Trash2 aria-hidden="true" />
          {t('notes.delete')}
        </button>
      </div>
    </article>
  );
}
