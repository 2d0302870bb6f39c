import { Search } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApp } from '../../state/context';
import { focusFirstHit } from './SearchScreen';

/**
 * The header's search field: each keystroke opens the search screen on the text typed so far, at
 * once. The core answers a search in a few milliseconds (it reads one site's rows and ranks a
 * bounded number of them), so a query per key costs little; the screen shows the latest text's
 * results (react-query keys the answer by the query, and an answer to an older text is never shown
 * for a newer one) and keeps the previous results until they come. A debounce here was most of the
 * time from the last key to the results (250 of 300-470 ms).
 */
export function SearchBox() {
  const { t } = useTranslation();
  const { route, navigate } = useApp();
  const id = useId();
  const current = route.screen === 'search' ? route.query : '';
  const [text, setText] = useState(current);
  // The last text this field sent. The route arriving with it is not written back over the field
  // (keys may have been typed since); any other change of the route (the student left the search
  // screen, or went Back) sets the field.
  const sent = useRef(current);
  useEffect(() => {
    if (current === sent.current) return;
    sent.current = current;
    setText(current);
  }, [current]);
  // Each key navigates from its own event, never from an effect: an effect would run with the text
  // of the render before, and on leaving the search screen would send the old text straight back.
  const type = (value: string) => {
    setText(value);
    if (value.trim() === '' && route.screen !== 'search') return;
    sent.current = value;
    // The filters chosen on the search screen stay while the text changes.
    navigate(
      route.screen === 'search' ? { ...route, query: value } : { screen: 'search', query: value },
    );
  };
  return (
    <form
      role="search"
      className="search-box"
      onSubmit={(e) => {
        e.preventDefault();
        navigate(
          route.screen === 'search' ? { ...route, query: text } : { screen: 'search', query: text },
        );
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        {t('search.label')}
      </label>
      <Search aria-hidden="true" />
      <input
        id={id}
        type="search"
        placeholder={t('search.placeholder')}
        value={text}
        onChange={(e) => type(e.target.value)}
        onKeyDown={(e) => {
          // Down from the field reaches the results (then Up and Down move between them, Enter
          // opens one).
          if (e.key === 'ArrowDown' && route.screen === 'search' && focusFirstHit())
            e.preventDefault();
        }}
        data-testid="search-input"
      />
    </form>
  );
}
