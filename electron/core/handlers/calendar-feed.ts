import { stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import type { CoreHandlers } from '../../common/ipc-contract';
import type { CalendarFeed, FeedSettings } from '../desktop/calendar-feed';
import { CoreError } from '../errors';

export interface CalendarFeedHandlerDeps {
  readonly feed: CalendarFeed;
  readonly saveSettings: (patch: Partial<FeedSettings>) => Promise<FeedSettings>;
  /**
   * The system's folder dialog, opened at `current` (Electron's dialog.showOpenDialog); the chosen
   * absolute folder, or null when cancelled. Absent in the browser host.
   */
  readonly chooseFolder?: ChooseFolder;
}

export type ChooseFolder = (current: string | null) => Promise<string | null>;

async function isFolder(folder: string): Promise<boolean> {
  return (
    isAbsolute(folder) &&
    stat(folder).then(
      (s) => s.isDirectory(),
      () => false,
    )
  );
}

/** The calendar subscription: where its file is kept, whether study blocks go in, its address. */
export function createCalendarFeedHandlers(
  d: CalendarFeedHandlerDeps,
): Pick<CoreHandlers, 'calendar:feed' | 'calendar:set-feed' | 'calendar:choose-folder'> {
  const keep = async (patch: Partial<FeedSettings>) => {
    await d.saveSettings(patch);
    await d.feed.refresh();
    return d.feed.view();
  };
  return {
    'calendar:feed': () => d.feed.view(),
    'calendar:set-feed': async ({ folder, studyBlocks }) => {
      if (typeof folder === 'string' && !(await isFolder(folder)))
        throw new CoreError('invalid-input', 'Choose a folder that exists on this computer.');
      return keep({
        ...(folder === undefined ? {} : { folder }),
        ...(studyBlocks === undefined ? {} : { studyBlocks }),
      });
    },
    'calendar:choose-folder': async () => {
      if (!d.chooseFolder)
        throw new CoreError('invalid-input', 'Type the folder: this window cannot open a dialog.');
      const folder = await d.chooseFolder((await d.feed.view()).folder);
      if (folder === null) return null;
      // The dialog's answer is checked as a typed one is: an absolute folder that exists.
      if (!(await isFolder(folder)))
        throw new CoreError('invalid-input', 'Choose a folder that exists on this computer.');
      return keep({ folder });
    },
  };
}
