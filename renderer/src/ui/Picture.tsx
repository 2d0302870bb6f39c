import { useState } from 'react';

/** A decorative picture that falls back to an initial when the image can't load (e.g. offline). */
export function Picture({ src, fallback, className }: { readonly src: string | null; readonly fallback: string; readonly className: string }) {
  const [failed, setFailed] = useState(false);
  return (
    <div className={className} aria-hidden="true">
      {src && !failed ? <img src={src} alt="" loading="lazy" onError={() => setFailed(true)} /> : <span>{fallback}</span>}
    </div>
  );
}
