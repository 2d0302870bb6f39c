import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export function Loading({ label }: { readonly label?: string }) {
  const { t } = useTranslation();
  return (
    <p className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> {label ?? t('common.loading')}
    </p>
  );
}

export function EmptyState({ title, children, icon }: { readonly title: string; readonly children?: ReactNode; readonly icon?: string }) {
  return (
    <div className="empty-state" data-testid="empty-state">
      {icon && (
        <span className="empty-icon" aria-hidden="true">
          {icon}
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
    <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(v)} aria-label={label}>
      <div className="progress-fill" style={{ width: `${v}%` }} />
    </div>
  );
}

/** A screen's heading row. */
export function ScreenHeader({ title, children }: { readonly title: string; readonly children?: ReactNode }) {
  return (
    <div className="screen-header">
      <h1 id="screen-title" tabIndex={-1}>
        {title}
      </h1>
      {children && <div className="screen-actions">{children}</div>}
    </div>
  );
}
