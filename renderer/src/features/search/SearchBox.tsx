import { Search } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApp } from '../../state/context';

/** The header's search field: typing opens the search screen, debounced so each keystroke isn't a query. */
export function SearchBox() {
  const { t } = useTranslation();
  const { route, navigate } = useApp();
  const id = useId();
  const current = route.screen === 'search' ? route.query : '';
  const [text, setText] = useState(current);
  useEffect(() => setText(current), [current]);
  useEffect(() => {
    if (text === current) return;
    if (text.trim() === '' && route.screen !== 'search') return;
    const timer = window.setTimeout(() => navigate({ screen: 'search', query: text }), 250);
    return () => window.clearTimeout(timer);
  }, [text, current, navigate, route.screen]);
  return (
    <form role="search" className="search-box" onSubmit={(e) => { e.preventDefault(); navigate({ screen: 'search', query: text }); }}>
      <label htmlFor={id} className="visually-hidden">
        {t('search.label')}
      </label>
      <Search aria-hidden="true" />
      <input id={id} type="search" placeholder={t('search.placeholder')} value={text} onChange={(e) => setText(e.target.value)} data-testid="search-input" />
    </form>
  );
}
