import type { TFunction } from 'i18next';
import type { NoteHit } from '../../../../electron/common/view-models';
import { formatMoment, openNoteOnSite } from '../notes/index';
import type { PaletteItem } from './palette';

/**
 * The command palette's notes found by the words typed: each opens its lecture on the school's site
 * at its moment, its line saying where it belongs (the course, the lecture) and what it says.
 */
export function noteEntries(
  t: TFunction,
  hits: readonly NoteHit[],
): { item: PaletteItem; run: () => void }[] {
  return hits.map(({ note, snippet }) => {
    const time = formatMoment(note.positionSeconds);
    return {
      item: {
        id: `note-${note.id}`,
        kind: 'note',
        label: t('notes.paletteOpen', {
          time,
          title: note.title || snippet.replace(/\[\[|\]\]/g, '') || t('notes.untitled'),
        }),
        detail: [note.courseTitle, note.lectureTitle].filter(Boolean).join(' · '),
      },
      run: () => void openNoteOnSite(note.id).catch(() => undefined),
    };
  });
}
