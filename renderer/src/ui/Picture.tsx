import { useState } from 'react';
import { useSiteImage } from './useSiteImage';

/** A decorative picture that falls back to an initial when the image can't load (e.g. offline). */
export function Picture({
  siteId,
  src: siteUrl,
  fallback,
  className,
}: {
  readonly siteId: string;
  readonly src: string | null;
  readonly fallback: string;
  readonly className: string;
}) {
  const [failed, setFailed] = useState(false);
  const src = useSiteImage(siteId, siteUrl);
  return (
    <div className={className} aria-hidden="true">
      {src && !failed ? (
        <img src={src} alt="" loading="lazy" onError={() => setFailed(true)} />
      ) : (
        <span>{fallback}</span>
      )}
    </div>
  );
}
