import { FileDown, NotebookPen } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api';
import { useChannel } from '../../query';
import { ErrorState } from '../../ui/ErrorState';
import { fileLanguage, receiveFile } from '../export/index';
import { NoteItem } from './NoteItem';
import { useNoteList } from './use-note-list';
import './notes.css';

/** A lecture row's "Add note" button (the course screen opens the editor on that lecture). */
export function AddNoteButton({
  title,
  onClick,
}: {
  readonly title: string;
  readonly onClick: () => void;
}) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="button small ghost"
      onClick={onClick}
      aria-label={t('notes.addFor', { title })}
      title={t('notes.addFor', { title })}
      data-testid="add-note"
    >
      <NotebookPen aria-hidden="true" />
      <span className="visually-hidden">{t('notes.add')}</span>
    </button>
  );
}

/** The course's notes in the course's order, above its lectures; nothing while it has none. */
export function CourseNotes({
  siteId,
  courseId,
}: {
  readonly siteId: string;
  readonly courseId: string;
}) {
  const { t, i18n } = useTranslation();
  const q = useChannel('notes:course', { siteId, courseId });
  const list = useNoteList();
  const [exportError, setExportError] = useState<unknown>(null);
  if (q.isError) return <ErrorState title={t('notes.loadFailed')} error={q.error} compact />;
  const notes = q.data ?? [];
  if (notes.length === 0) return list.extras;
  const exportNotes = () => {
    setExportError(null);
    call('notes:export-course', { siteId, courseId, language: fileLanguage(i18n.language) })
      .then(receiveFile)
      .catch(setExportError);
  };
  return (
    <section
      className="course-notes"
      aria-labelledby="course-notes-title"
      data-testid="course-notes"
    >
      <div className="course-notes-head">
        <h2 id="course-notes-title">
          {t('notes.courseTitle')}{' '}
          <span className="muted small">{t('notes.courseCount', { count: notes.length })}</span>
        </h2>
        <button
          type="button"
          className="button small"
          onClick={exportNotes}
          aria-label={t('notes.exportLabel')}
          data-testid="notes-export"
        >
          <FileDown aria-hidden="true" />
          {t('notes.export')}
        </button>
      </div>
      {exportError !== null && <ErrorState error={exportError} compact />}
      <ul className="course-notes-list">
        {notes.map((n) => (
          <li key={n.id}>
            <NoteItem note={n} showContext={false} onEdit={list.onEdit} onDelete={list.onDelete} />
          </li>
        ))}
      </ul>
      {list.extras}
    </section>
  );
}
