import { useState } from 'react';
import { coverHue, monogram } from './cover';
import { useSiteImage } from './useSiteImage';

/**
 * A course's cover picture (16:9, the covers' own shape, so nothing is cropped). Without one, or
 * when it cannot load (offline), a gradient in the course's own hue with its first character.
 * Decorative: the title is nearby.
 */
export function CourseCover({
  id,
  siteId,
  title,
  src: siteUrl,
  className,
}: {
  readonly id: string;
  readonly siteId: string;
  readonly title: string;
  readonly src: string | null;
  readonly className?: string;
}) {
  const [failed, setFailed] = useState(false);
  const src = useSiteImage(siteId, siteUrl);
  const hue = coverHue(id);
  return (
    <div
      className={`course-cover ${className ?? ''}`}
      aria-hidden="true"
      style={{ ['--cover-hue' as string]: hue }}
    >
      {src && !failed ? (
        <img src={src} alt="" loading="lazy" onError={() => setFailed(true)} />
      ) : (
        <span className="course-cover-monogram">{monogram(title)}</span>
      )}
    </div>
  );
}
