import type { AppError } from '../../../electron/common/result';

/**
 * The next-step text's key: the hint the core named for this failure when there is text for it,
 * else the code's own.
 */
export function nextStepKey(
  key: string,
  detail: AppError['detail'] | undefined,
  exists: (key: string) => boolean,
): string {
  const hint = detail?.hint;
  const hinted =
    typeof hint === 'string' && /^[a-z-]{1,32}$/.test(hint) ? `errors.${key}.hints.${hint}` : null;
  return hinted !== null && exists(hinted) ? hinted : `errors.${key}.next`;
}
