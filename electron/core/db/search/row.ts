import type { SearchHitKind } from '../../../common/view-models';

/** One index row a search found, before its context is read (context.ts). */
export interface HitRow {
  site_id: string;
  kind: SearchHitKind;
  item_id: string;
  course_id: string | null;
  title: string;
  body: string;
  snippet: string | null;
}
