import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { NOTE_LIMITS, type NoteKind, type NoteView } from '../../../../electron/common/view-models';
import { toAppError } from '../../api';
import { useChannel } from '../../query';
import { Dialog } from '../../ui/Dialog';
import { ErrorState } from '../../ui/ErrorState';
import { formatMoment, parseMoment } from './moment';
import { localOnlySeen, markLocalOnlySeen, useNoteWrite } from './use-notes';
import './notes.css';

/** The lecture a new note is written on. */
export interface NoteTarget {
  readonly siteId: string;
  readonly courseId: string;
  readonly lectureId: string;
  readonly lectureTitle: string;
}

const chars = (s: string) => [...s].length;

/**
 * Says once that notes stay on this computer (the school's API has none), until the student has
 * read it.
 */
function LocalOnlyNotice() {
  const { t } = useTranslation();
  const [seen, setSeen] = useState(localOnlySeen);
  if (seen) return null;
  return (
    <div className="notice note-local-only" role="note" data-testid="notes-local-only">
      <p>{t('notes.localOnly')}</p>
      <button
        type="button"
        className="button small"
        onClick={() => {
          markLocalOnlySeen();
          setSeen(true);
        }}
      >
        {t('notes.localOnlyOk')}
      </button>
    </div>
  );
}

/**
 * The words for a refusal the core explained with a limit or a missing field; null: the error
 * view's own.
 */
function limitWords(error: unknown, t: TFunction): string | null {
  const detail = toAppError(error).detail;
  switch (detail?.limit ?? detail?.field) {
    case 'bodyChars':
      return t('notes.bodyTooLong', { max: NOTE_LIMITS.bodyChars });
    case 'titleChars':
      return t('notes.titleTooLong', { max: NOTE_LIMITS.titleChars });
    case 'count':
      return t('notes.atLimit', { max: NOTE_LIMITS.count });
    case 'title':
      return t('notes.bookmarkNeedsTitle');
    case 'body':
      return t('notes.noteNeedsText');
    default:
      return null;
  }
}

/**
 * Writes a note or a bookmark at a moment of a lecture, or edits one. A new note starts at the
 * lecture's last watched position when the student was last in this lecture (the core says where).
 * The counter and the limits are said before the save is refused.
 */
export function NoteEditor({
  open,
  onClose,
  target,
  note,
}: {
  readonly open: boolean;
  readonly onClose: () => void;
  readonly target: NoteTarget;
  readonly note?: NoteView | undefined;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      title={note ? t('notes.editTitle') : t('notes.newTitle', { title: target.lectureTitle })}
      onClose={onClose}
      testId="note-editor"
    >
      {open && <EditorBody onClose={onClose} target={target} note={note} />}
    </Dialog>
  );
}

function EditorBody({
  onClose,
  target,
  note,
}: {
  readonly onClose: () => void;
  readonly target: NoteTarget;
  readonly note?: NoteView | undefined;
}) {
  const { t } = useTranslation();
  const ids = { at: useId(), title: useId(), body: useId(), hint: useId(), count: useId() };
  const draft = useChannel(
    'notes:draft',
    { siteId: target.siteId, courseId: target.courseId, lectureId: target.lectureId },
    { staleTime: 0 },
  );
  const [kind, setKind] = useState<NoteKind>(note?.kind ?? 'note');
  const [at, setAt] = useState(note ? formatMoment(note.positionSeconds) : '');
  const [title, setTitle] = useState(note?.title ?? '');
  const [body, setBody] = useState(note?.body ?? '');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const write = useNoteWrite();
  // A new note starts where the student last was in this lecture, once the core said where.
  const start = draft.data?.positionSeconds;
  useEffect(() => {
    if (!note && start !== undefined) setAt((now) => (now === '' ? formatMoment(start) : now));
  }, [note, start]);
  const seconds = parseMoment(at, NOTE_LIMITS.positionSeconds);
  const tooLong = chars(body) > NOTE_LIMITS.bodyChars;
  const count = draft.data?.count ?? 0;
  const full = !note && count >= NOTE_LIMITS.count;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (seconds === null || tooLong || full) return;
    setBusy(true);
    setError(null);
    const input = { kind, positionSeconds: seconds, title, body: kind === 'note' ? body : '' };
    try {
      if (note) await write('notes:update', { id: note.id, ...input });
      else
        await write('notes:add', {
          siteId: target.siteId,
          courseId: target.courseId,
          lectureId: target.lectureId,
          ...input,
        });
      onClose();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const words = error ? limitWords(error, t) : null;
  return (
    <form className="note-editor" onSubmit={(e) => void submit(e)} data-testid="note-form">
      <LocalOnlyNotice />
      <fieldset className="note-kind">
        <legend>{t('notes.kind')}</legend>
        {(['note', 'bookmark'] as const).map((k) => (
          <label key={k}>
            <input
              type="radio"
              name="note-kind"
              value={k}
              checked={kind === k}
              onChange={() => setKind(k)}
              data-testid={`note-kind-${k}`}
            />
            {k === 'note' ? t('notes.kindNote') : t('notes.kindBookmark')}
          </label>
        ))}
      </fieldset>
      <label htmlFor={ids.at}>{t('notes.at')}</label>
      <input
        id={ids.at}
        type="text"
        inputMode="numeric"
        value={at}
        onChange={(e) => setAt(e.target.value)}
        aria-invalid={seconds === null && at !== '' ? true : undefined}
        aria-describedby={ids.hint}
        data-testid="note-at"
        size={8}
      />
      <p id={ids.hint} className="muted small">
        {seconds === null && at !== ''
          ? t('notes.atInvalid')
          : !note && (start ?? 0) > 0
            ? t('notes.atHint')
            : ''}
      </p>
      <label htmlFor={ids.title}>
        {kind === 'bookmark' ? t('notes.titleLabel') : t('notes.titleOptional')}
      </label>
      <input
        id={ids.title}
        type="text"
        value={title}
        maxLength={NOTE_LIMITS.titleChars}
        required={kind === 'bookmark'}
        onChange={(e) => setTitle(e.target.value)}
        data-testid="note-title"
      />
      {kind === 'note' && (
        <>
          <label htmlFor={ids.body}>{t('notes.bodyLabel')}</label>
          <textarea
            id={ids.body}
            value={body}
            rows={8}
            onChange={(e) => setBody(e.target.value)}
            aria-describedby={ids.count}
            aria-invalid={tooLong ? true : undefined}
            data-testid="note-body"
          />
          <p id={ids.count} className={tooLong ? 'field-error' : 'muted small'}>
            {tooLong
              ? t('notes.bodyTooLong', { max: NOTE_LIMITS.bodyChars })
              : t('notes.bodyCount', { count: chars(body), max: NOTE_LIMITS.bodyChars })}
          </p>
        </>
      )}
      {!note && count >= NOTE_LIMITS.count * 0.9 && (
        <p className={full ? 'field-error' : 'muted'} role="status">
          {full
            ? t('notes.atLimit', { max: NOTE_LIMITS.count })
            : t('notes.nearLimit', { count, max: NOTE_LIMITS.count })}
        </p>
      )}
      {error !== null &&
        (words ? (
          <p className="field-error" role="alert" data-testid="note-error">
            {words}
          </p>
        ) : (
          <ErrorState title={t('notes.saveFailed')} error={error} compact />
        ))}
      <div className="note-actions">
        <button type="button" className="button" onClick={onClose}>
          {t('notes.cancel')}
        </button>
        <button
          type="submit"
          className="button primary"
          disabled={busy || seconds === null || tooLong || full}
          data-testid="note-save"
        >
          {t('notes.save')}
        </button>
      </div>
    </form>
  );
}
