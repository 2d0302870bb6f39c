import { useChannel } from '../query';

/**
 * A picture the site names, as a data: URL fetched by the core (electron/core/net/site-image.ts):
 * the window never loads an image from a site-chosen address itself. Null while loading, and when
 * there is none to show.
 */
export function useSiteImage(siteId: string | null, url: string | null): string | null {
  const q = useChannel(
    'media:image',
    { siteId: siteId ?? '', url: url ?? '' },
    {
      enabled: siteId !== null && siteId !== '' && url !== null && url !== '',
      staleTime: Number.POSITIVE_INFINITY,
      gcTime: 10 * 60_000,
      retry: false,
    },
  );
  return q.data ?? null;
}
