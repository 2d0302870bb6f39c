import {
  Bell,
  BookOpen,
  CalendarDays,
  CreditCard,
  Megaphone,
  MessagesSquare,
  type LucideIcon,
} from 'lucide-react';
import type {
  NotificationChannel,
  NotificationKind,
  NotificationTopic,
} from '../../../../electron/common/view-models';
import { assertNever } from '../../../../electron/common/result';
import type { Unknown } from '../../../../electron/common/site-values';

export const TOPICS: readonly NotificationTopic[] = [
  'announcements',
  'course_updates',
  'payments',
  'events',
  'marketing',
];
export const CHANNELS: readonly NotificationChannel[] = ['email', 'in_app', 'push'];

export function kindIcon(kind: NotificationKind | Unknown): LucideIcon {
  switch (kind) {
    case 'unknown':
      return Bell;
    case 'announcement':
      return Megaphone;
    case 'course_update':
      return BookOpen;
    case 'payment':
      return CreditCard;
    case 'event':
      return CalendarDays;
    case 'consulting':
      return MessagesSquare;
    default:
      return assertNever(kind, 'notification kind');
  }
}
