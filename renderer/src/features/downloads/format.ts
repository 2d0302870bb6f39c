import i18next, { type TFunction } from 'i18next';
import type { AppError } from '../../../../electron/common/result';
import { numberFormat } from '../../ui/intl-cache';

/** 12 987 654 -> "12.4 MB" (1024-based, one decimal), in the UI's language. */
export function formatBytes(bytes: number, lng: string): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  // Bytes are counted words ("0 bytes", "1 byte"): Intl's short unit does not inflect them, so
  // i18next's plural rules do.
  if (unit === 0)
    return i18next.t('downloads.bytes', {
      count: value,
      size: numberFormat(lng).format(value),
      lng,
    });
  return numberFormat(lng, {
    style: 'unit',
    unit: units[unit],
    unitDisplay: 'short',
    maximumFractionDigits: 1,
  }).format(value);
}

/** "8 seconds left" / "3 minutes left". */
export function formatTimeLeft(seconds: number, t: TFunction): string {
  return seconds < 90
    ? t('downloads.secondsLeft', { count: Math.max(1, seconds) })
    : t('downloads.minutesLeft', { count: Math.round(seconds / 60) });
}

/**
 * A download's error in the UI's language, by the core's reason (its English message when the
 * reason is new).
 */
export function downloadErrorText(error: AppError, t: TFunction, lng: string): string {
  const reason = error.detail?.reason;
  const size = typeof error.detail?.size === 'number' ? formatBytes(error.detail.size, lng) : '';
  if (typeof reason === 'string') {
    const key = `downloads.reason.${reason}`;
    const text = t(key, { size });
    if (text !== key) return text;
  }
  return error.message;
}
