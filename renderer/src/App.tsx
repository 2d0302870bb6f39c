import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { connectEvents } from './state/live-state';
import { WindowFallback } from './app/ScreenFallback';
import { Shell } from './app/Shell';
import { ErrorBoundary } from './ui/ErrorBoundary';
import { SettingsApplier } from './features/settings/index';
import { SignInProvider } from './features/sites/index';
import { queryClient } from './query';

function Events() {
  const client = useQueryClient();
  useEffect(() => connectEvents(client), [client]);
  return null;
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <Events />
      <SettingsApplier />
      <ErrorBoundary area="window" fallback={() => <WindowFallback />}>
        <SignInProvider>
          <Shell />
        </SignInProvider>
      </ErrorBoundary>
    </QueryClientProvider>
  );
}
