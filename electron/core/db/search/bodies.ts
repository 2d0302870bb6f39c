/**
 * The other words a hit is found by (search_index.body), per kind, as SQL over the kind's table
 * (`t` names it: its own name in build.ts, an alias in context.ts). build.ts indexes them in search
 * form; context.ts reads them as the school wrote them, so a snippet of the body is shown in the
 * school's own characters (shown.ts), as the title is. Kinds without a body, or whose body is
 * built from many rows (an order's), read none: their body snippets stay in search form.
 */

/** A site's long free text (a description) is indexed up to this many characters. */
export const BODY_CHARS = 2000;

export const BODY_OF = {
  course: (t: string) => `coalesce(trim(${t}.instructor_name), '')`,
  payment: (t: string) =>
    `trim(coalesce(${t}.code_no, '') || ' ' || coalesce(${t}.bank_name, '') || ' ' ||
      coalesce(CASE WHEN json_valid(${t}.invoice) AND json_type(${t}.invoice, '$.number') = 'text'
        THEN json_extract(${t}.invoice, '$.number') END, ''))`,
  product: (t: string) => `substr(coalesce(${t}.description, ''), 1, ${BODY_CHARS})`,
  event: (t: string) => `trim(coalesce(${t}.location, '') || ' ' || ${t}.ticket_name)`,
  consulting: (t: string) =>
    `${t}.consultant_name || ' ' || substr(coalesce(${t}.description, ''), 1, ${BODY_CHARS})`,
  notification: (t: string) => `${t}.body`,
} as const;
