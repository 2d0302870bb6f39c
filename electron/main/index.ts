import { app, dialog, protocol } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { APP_SCHEME, APP_SCHEME_PRIVILEGES } from '../core/desktop/app-protocol';
import {
  createLogger,
  createRotatingFileSink,
  describeUnexpected,
  installCrashGuards,
} from '../core/log';
import { APP_USER_MODEL_ID } from './app-id';
import { holdInviteLinks } from './early-links';
import { isMcpMode, startMcpMode } from './mcp-mode';

/**
 * The main process's entry: what must happen before anything heavy is read, then the host
 * (host.ts), loaded dynamically so that these run first. An ESM main loads its modules
 * asynchronously, and Electron may be ready, or macOS may deliver a launch link, before a large
 * static import graph has been read.
 */

// `--mcp`: the student's assistant started the app as its MCP server (mcp-mode.ts). Decided first,
// before the single-instance lock (the app may be running) and before anything that opens a window
// or writes to stdout.
if (isMcpMode(process.argv)) {
  startMcpMode().catch(() => {
    process.stderr.write('Learning Desktop could not start its MCP server.\n');
    app.exit(1);
  });
} else {
  startApp();
}

function startApp(): void {
  // First: an invite link the app was opened with on macOS is held until the host can read it.
  holdInviteLinks();
  // Windows shows notifications only for an app whose AppUserModelID is its Start menu shortcut's,
  // which the NSIS installer sets to the appId (Electron docs, "Notifications": Windows).
  if (process.platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID);
  // Electron security checklist #4: every renderer sandboxed, whatever a window's options say.
  // Before ready.
  app.enableSandbox();
  // Checklist #18: the window loads app://learning-desktop/, not file://. A scheme's privileges
  // must be declared before the app is ready.
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }]);

  // The log: the console, and a rotating file in the data folder (logs/main.log) that a student can
  // send to support. The core's logger redacts every line (ARCHITECTURE #14), so neither holds a
  // token, code or secret.
  const logFile = join(app.getPath('userData'), 'logs', 'main.log');
  const toFile = createRotatingFileSink(logFile);
  const logger = createLogger(
    (line) => {
      console.log(line);
      toFile(line);
    },
    { level: process.env.LEARNING_DESKTOP_DEBUG ? 'debug' : 'info' },
  );
  const fatal = (line: string) => {
    console.error(line);
    toFile(line);
  };
  // Electron's default crash output (and its error dialog) prints messages, stacks and causes, any
  // of which may quote a token: one plain line instead, in the log too, and the student is told the
  // app stopped and where that line is.
  const stopped = (title: string, detail: string) => {
    dialog.showErrorBox(
      title,
      `${detail}\n\nWhat happened is written in ${logFile} (it holds no password or sign-in).`,
    );
    app.exit(1);
  };
  installCrashGuards(process, fatal, () =>
    stopped(
      'Learning Desktop stopped',
      'An unexpected error stopped Learning Desktop. Start it again.',
    ),
  );

  const mainDir = dirname(fileURLToPath(import.meta.url));
  // One app per user: a second launch hands its arguments (an invite link) to the first
  // ('second-instance', host.ts) and quits before it reads the rest of the app (SQLite, the core,
  // the demo server), so it costs next to nothing.
  if (!app.requestSingleInstanceLock()) {
    app.quit();
  } else {
    import('./host')
      .then(({ startHost }) => startHost({ mainDir, logger, logFile }))
      .catch((error: unknown) => {
        fatal(`Learning Desktop could not load: ${describeUnexpected(error)}`);
        stopped(
          'Learning Desktop could not start',
          'A part of the app could not be loaded. Reinstall Learning Desktop.',
        );
      });
  }
}
