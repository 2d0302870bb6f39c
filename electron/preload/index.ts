import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { API_GLOBAL, CHANNELS, EVENT_NAMES, type LearningDesktopApi } from '../common/ipc-contract';

/**
 * Exposes one named, typed object built from the contract (Electron security checklist: context
 * isolation, never expose ipcRenderer itself). Only channels and events of the contract pass.
 */
const channels = new Set<string>(CHANNELS);
const events = new Set<string>(EVENT_NAMES);

const api: LearningDesktopApi = {
  invoke: (channel, ...input) => {
    if (!channels.has(channel))
      return Promise.resolve({
        ok: false,
        error: { code: 'invalid-input', message: 'Unknown request.' },
      });
    return ipcRenderer.invoke(channel, input[0]);
  },
  on: (event, listener) => {
    if (!events.has(event)) return () => {};
    const wrapped = (_e: IpcRendererEvent, payload: unknown) => listener(payload as never);
    ipcRenderer.on(event, wrapped);
    return () => ipcRenderer.removeListener(event, wrapped);
  },
};

contextBridge.exposeInMainWorld(API_GLOBAL, api);
