/** "Every 4 hours", not "Every 240 minutes": whole hours are said in hours. */
export function intervalLabel(
  minutes: number,
  t: (key: string, vars?: Record<string, unknown>) => string,
): string {
  if (minutes === 0) return t('settings.sync.off');
  return minutes % 60 === 0
    ? t('settings.sync.hours', { count: minutes / 60 })
    : t('settings.sync.minutes', { count: minutes });
}
