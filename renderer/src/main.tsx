import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { i18nReady } from './i18n';
import './styles.css';
import { App } from './App';
import { queryClient } from './query';
import { prefetchOpeningScreen } from './state/opening';
import { FIRST_SCREEN_LONGEST_MS, releaseFirstScreen } from './state/first-screen';

// The first screen's data is asked for now, while the strings load and before React renders.
prefetchOpeningScreen(queryClient);

// The last session's frame, if the host sent one, gives way to the live app's opening screen; never
// later than this.
setTimeout(releaseFirstScreen, FIRST_SCREEN_LONGEST_MS);

// The first paint waits for the strings of the window's language (a few kB, loaded from the app's
// own files).
await i18nReady;
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
