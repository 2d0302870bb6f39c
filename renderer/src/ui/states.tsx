import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * What a loading screen will look like: grey shapes where the content will be (skeletons, not
 * spinners).
 */
export type SkeletonShape = 'lines' | 'cards' | 'rows' | 'header';

function SkeletonBlock({ shape }: { readonly shape: SkeletonShape }) {
  switch (shape) {
    case 'cards':
      return (
        <div className="skeleton-cards">
          {[0, 1, 2, 3].map((i) => (
            <div className="skeleton-card" key={i}>
              <span className="skeleton skeleton-cover" />
              <span className="skeleton skeleton-line" style={{ width: '70%' }} />
              <span className="skeleton skeleton-line short" />
              <span className="skeleton skeleton-bar" />
            </div>
          ))}
        </div>
      );
    case 'rows':
      return (
        <div className="skeleton-rows">
          {[0, 1, 2, 3, 4].map((i) => (
            <div className="skeleton-row" key={i}>
              <span className="skeleton skeleton-avatar" />
              <span className="skeleton-row-text">
                <span className="skeleton skeleton-line" style={{ width: `${60 - i * 6}%` }} />
                <span className="skeleton skeleton-line short" />
              </span>
            </div>
          ))}
        </div>
      );
    case 'header':
      return (
        <div className="skeleton-header">
          <span className="skeleton skeleton-hero" />
          <span className="skeleton-row-text">
            <span className="skeleton skeleton-line title" />
            <span className="skeleton skeleton-line" style={{ width: '40%' }} />
            <span className="skeleton skeleton-line short" />
          </span>
        </div>
      );
    case 'lines':
      return (
        <div className="skeleton-lines">
          <span className="skeleton skeleton-line" style={{ width: '80%' }} />
          <span className="skeleton skeleton-line" style={{ width: '65%' }} />
          <span className="skeleton skeleton-line short" />
        </div>
      );
  }
}

/** A screen or an area still loading: its skeleton, with the words for assistive technology. */
export function Loading({
  label,
  shape = 'lines',
}: {
  readonly label?: string;
  readonly shape?: SkeletonShape;
}) {
  const { t } = useTranslation();
  return (
    <div
      className="loading"
      role="status"
      aria-live="polite"
      aria-busy="true"
      data-testid="loading"
    >
      <span className="visually-hidden">{label ?? t('common.loading')}</span>
      <div aria-hidden="true">
        <SkeletonBlock shape={shape} />
      </div>
    </div>
  );
}

/** Nothing to show (yet): an icon, a title, and what the student can do about it. */
export function EmptyState({
  title,
  children,
  icon: Icon,
}: {
  readonly title: string;
  readonly children?: ReactNode;
  readonly icon?: LucideIcon;
}) {
  return (
    <div className="empty-state" data-testid="empty-state">
      {Icon && (
        <span className="empty-icon" aria-hidden="true">
          <Icon />
        </span>
      )}
      <p className="empty-title">{title}</p>
      {children}
    </div>
  );
}

export function ProgressBar({ value, label }: { readonly value: number; readonly label: string }) {
  const v = Math.max(0, Math.min(100, value));
  return (
    <div
      className="progress"
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(v)}
      aria-label={label}
    >
      <div className="progress-fill" style={{ width: `${v}%` }} />
    </div>
  );
}

/** A screen's heading row. */
export function ScreenHeader({
  title,
  children,
  icon: Icon,
}: {
  readonly title: string;
  readonly children?: ReactNode;
  readonly icon?: LucideIcon;
}) {
  return (
    <div className="screen-header">
      <h1 id="screen-title" tabIndex={-1}>
        {Icon && (
          <span className="screen-icon" aria-hidden="true">
            <Icon />
          </span>
        )}
        {title}
      </h1>
      {children && <div className="screen-actions">{children}</div>}
    </div>
  );
}
