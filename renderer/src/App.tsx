import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { connectEvents } from './state/live-state';
import { Shell } from './app/Shell';
import { SettingsApplier } from './features/settings/SettingsApplier';
import { SignInProvider } from './features/sites/sign-in';
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
      <SignInProvider>
        <Shell />
      </SignInProvider>
    </QueryClientProvider>
  );
}
