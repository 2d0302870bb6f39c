import { stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import type { CoreHandlers } from '../../common/ipc-contract';
import type { CalendarFeed, FeedSettings } from '../desktop/calendar-feed';
import { CoreError } from '../errors';

export interface CalendarFeedHandlerDeps {
  readonly feed: CalendarFeed;
  readonly saveSettings: (patch: Partial<FeedSettings>) => Promise<FeedSettings>;
}

/** The calendar subscription: where its file is kept, whether study blocks go in, its address. */
export function createCalendarFeedHandlers(
  d: CalendarFeedHandlerDeps,
): Pick<CoreHandlers, 'calendar:feed' | 'calendar:set-feed'> {
  return {
    'calendar:feed': () => d.feed.view(),
    'calendar:set-feed': async ({ folder, studyBlocks }) => {
      if (typeof folder === 'string') {
        const isFolder =
          isAbsolute(folder) &&
          (await stat(folder).then(
            (s) => s.isDirectory(),
            () => false,
          ));
        if (!isFolder)
          throw new CoreError('invalid-input', 'Choose a folder that exists on this computer.');
      }
      await d.saveSettings({
        ...(folder === undefined ? {} : { folder }),
        ...(studyBlocks === undefined ? {} : { studyBlocks }),
      });
      await d.feed.refresh();
      return d.feed.view();
    },
  };
}
