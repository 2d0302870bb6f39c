import { Circle, CircleCheck, CircleDot, CircleHelp, Lock, type LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { LectureState, LectureView } from '../../../../electron/common/view-models';
import { assertNever } from '../../../../electron/common/result';
import type { Unknown } from '../../../../electron/common/site-values';
import { formatDateTime, formatDuration } from '../../ui/format';
import { AddNoteButton } from '../notes/index';
import { OpenOnSite } from '../site-pages/index';

function stateIcon(state: LectureState | Unknown): LucideIcon {
  switch (state) {
    case 'unknown':
      return CircleHelp;
    case 'unread':
      return Circle;
    case 'read':
      return CircleDot;
    case 'completed':
      return CircleCheck;
    default:
      return assertNever(state, 'lecture state');
  }
}

/** One lecture: state as icon + words (never colour alone), lock with its unlock time, duration. */
export function LectureRow({
  lecture,
  lastPosition,
  siteId,
  courseId,
  canOpen,
  highlighted = false,
  onAddNote,
}: {
  readonly lecture: LectureView;
  readonly lastPosition: number | null;
  readonly siteId: string;
  readonly courseId: string;
  /** The course can still be watched (access not ended). */
  readonly canOpen: boolean;
  /** The row a search hit opened: marked until the student leaves the course. */
  readonly highlighted?: boolean;
  /** Opens the note editor on this lecture. */
  readonly onAddNote?: () => void;
}) {
  const { t, i18n } = useTranslation();
  const StateIcon = stateIcon(lecture.state);
  return (
    <div
      className={`lecture-row state-${lecture.state}${lecture.isLastWatched ? ' last-watched' : ''}${lecture.isLocked ? ' locked' : ''}${highlighted ? ' highlighted' : ''}`}
      data-testid="lecture-row"
      data-highlighted={highlighted ? 'true' : undefined}
      data-lecture-id={lecture.lectureId}
      data-state={lecture.state}
    >
      <span className="lecture-state">
        <StateIcon className="state-icon" aria-hidden="true" />
        <span className="state-text">
          {lecture.state === 'unknown' ? t('common.unknown') : t(`course.state.${lecture.state}`)}
        </span>
      </span>
      <span className="lecture-title">
        {lecture.title}
        {lecture.isLastWatched && (
          <span className="tag accent" data-testid="last-watched">
            {lastPosition !== null && lastPosition > 0
              ? t('course.lastWatchedAt', { time: formatDuration(lastPosition) })
              : t('course.lastWatched')}
          </span>
        )}
        {lecture.isLocked && (
          <span className="lock" data-testid="lecture-lock">
            <Lock aria-hidden="true" />
            {lecture.unlockAt
              ? t('course.unlocksOn', { date: formatDateTime(lecture.unlockAt, i18n.language) })
              : t('course.locked')}
          </span>
        )}
      </span>
      <span className="lecture-duration">
        <span className="visually-hidden">{t('course.duration')} </span>
        {formatDuration(lecture.durationSeconds)}
      </span>
      <span className="lecture-open">
        {onAddNote && <AddNoteButton title={lecture.title} onClick={onAddNote} />}
        {canOpen && !lecture.isLocked && (
          <OpenOnSite
            siteId={siteId}
            page={{ kind: 'lecture', courseId, lectureId: lecture.lectureId }}
            label={t('course.next.openLecture')}
            what={`${t('course.next.openLecture')}: ${lecture.title}`}
            small
            quietReason
            testId="open-lecture"
          />
        )}
      </span>
    </div>
  );
}
