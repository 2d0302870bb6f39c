import { useEffect } from 'react';
import type { InviteOutcome } from '../../../../electron/common/files-and-invites';
import { BROWSER_HOST_PATHS } from '../../../../electron/common/ipc-names';
import { call, onEvent } from '../../api';
import { useApp } from '../../state/context';

/**
 * Shows the add-site form filled in from a school's invite link: one the app was opened with
 * (Electron: the learning-desktop: scheme, announced by `invite:opened` or waiting from before the
 * page loaded), or the browser host's own address `/add-site?site=...&client_id=...`. It only
 * navigates: adding the site waits for the student.
 */
export function InviteListener() {
  const { navigate } = useApp();
  useEffect(() => {
    let active = true;
    const show = (outcome: InviteOutcome | null) => {
      if (active && outcome) navigate({ screen: 'add-site', invite: outcome });
    };
    const takePending = () => void call('invite:take-pending').then(show, () => {});
    if (window.location.pathname === BROWSER_HOST_PATHS.invite) {
      const link = window.location.href;
      // The address is consumed: a reload shows the app, not the invite again.
      window.history.replaceState(null, '', '/');
      void call('invite:parse', { link }).then(show, () => {});
    } else {
      takePending();
    }
    const off = onEvent('invite:opened', takePending);
    return () => {
      active = false;
      off();
    };
  }, [navigate]);
  return null;
}
