import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NoteView } from '../../../../electron/common/view-models';
import { ErrorState } from '../../ui/ErrorState';
import { NoteEditor } from './NoteEditor';
import { useNoteWrite } from './use-notes';

/**
 * What a list of notes shares: the editor for the note being edited, and Delete with Undo (the
 * deleted note is kept by the core for a while; Undo puts it back where it was).
 */
export function useNoteList() {
  const { t } = useTranslation();
  const write = useNoteWrite();
  const [editing, setEditing] = useState<NoteView | null>(null);
  const [deleted, setDeleted] = useState<NoteView | null>(null);
  const [error, setError] = useState<unknown>(null);
  const onDelete = (note: NoteView) => {
    setError(null);
    write('notes:delete', { id: note.id })
      .then(() => setDeleted(note))
      .catch(setError);
  };
  const undo = () => {
    const note = deleted;
    setDeleted(null);
    if (note) write('notes:restore', { id: note.id }).catch(setError);
  };
  const extras = (
    <>
      {editing && (
        <NoteEditor
          open
          onClose={() => setEditing(null)}
          note={editing}
          target={{
            siteId: editing.siteId,
            courseId: editing.courseId,
            lectureId: editing.lectureId,
            lectureTitle: editing.lectureTitle,
          }}
        />
      )}
      <div className="note-undo" role="status">
        {deleted && (
          <>
            <span>{t('notes.deleted')}</span>
            <button type="button" className="button small" onClick={undo} data-testid="note-undo">
              {t('notes.undo')}
            </button>
          </>
        )}
      </div>
      {error !== null && <ErrorState error={error} compact />}
    </>
  );
  return { onEdit: setEditing, onDelete, extras };
}
