import { useChannel } from '../query';

/**
 * Whether shortcuts are written and matched with Cmd (macOS) or Ctrl: the Electron host says its
 * platform (app:get-info); in the browser host, the browser's own platform is what the keyboard is.
 */
export function useHostInfo() {
  return useChannel('app:get-info', undefined, { staleTime: Infinity }).data;
}

export function browserIsMac(): boolean {
  const nav = navigator as Navigator & { userAgentData?: { platform?: string } };
  return /mac/i.test(nav.userAgentData?.platform ?? nav.platform ?? '');
}

export function useIsMac(): boolean {
  const info = useHostInfo();
  return info && info.host === 'electron' ? info.platform === 'darwin' : browserIsMac();
}
