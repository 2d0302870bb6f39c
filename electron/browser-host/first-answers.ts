/**
 * The first screen's answers, sent inside the page that will ask for them. The browser host streams
 * index.html: the head goes out at once (the browser fetches the scripts meanwhile), and the end of
 * the body waits for the core to open and carries the answers to the calls every window makes
 * first, without input. The module scripts run only once the document is parsed, so the answers are
 * there when the bridge's first invoke looks; each is used once, for its channel's first call, and
 * only while the page is starting. A cold start saved the round trips that came after the scripts
 * had run (today:get and sites:list waited 80-400 ms for an answer on a busy 2-core machine).
 */
import type { Channel } from '../common/ipc-contract';

/** Calls without input (and without effects) that the window makes as it opens. */
export const FIRST_ANSWER_CHANNELS = [
  'sites:list',
  'today:get',
  'settings:get',
  'app:get-info',
] as const satisfies readonly Channel[];

/** The element's id, read by the bridge (bridge.ts). */
export const FIRST_ANSWERS_ID = 'ld-first-answers';

/**
 * How long the page's end waits for the core (a recovery or a migration may take longer: the page
 * then asks).
 */
export const FIRST_ANSWERS_WAIT_MS = 2000;

/**
 * How long after the page loads its answers may stand in for a call: they describe the moment the
 * page was sent.
 */
export const FIRST_ANSWERS_FOR_MS = 5000;

/**
 * A data block (HTML §4.12.1.3: a script of a type that is not JavaScript is never run, so the
 * page's CSP allows it). Every '<' is escaped in the JSON, so no text in the data can end the
 * element or open a comment.
 */
export function firstAnswersElement(
  answers: Readonly<Record<string, unknown>>,
  id: string = FIRST_ANSWERS_ID,
): string {
  const json = JSON.stringify(answers).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${id}">${json}</script>`;
}
