import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { i18nReady } from './i18n';
import './styles.css';
import { App } from './App';
import { queryClient } from './query';
import { prefetchOpeningScreen } from './state/opening';

// The first screen's data is asked for now, while the strings load and before React renders.
prefetchOpeningScreen(queryClient);

// The first paint waits for the strings of the window's language (a few kB, loaded from the app's own files).
await i18nReady;
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
