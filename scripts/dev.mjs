#!/usr/bin/env node
// `npm run dev`: electron-vite's dev server with hot reload when Electron is here; else the browser
// host. Both run as JS entry points of this Node (node-tools.mjs): npx needs a shell on Windows.
import { spawn } from 'node:child_process';
import { electronBinary } from './electron-binary.mjs';
import { electronBindingOr, electronEnv } from './electron-native.mjs';
import { binEntry } from './node-tools.mjs';

const extra = process.argv.slice(2);
const hasElectron = electronBinary() !== null;
// Electron's own build of better-sqlite3 (node_modules keeps Node's for the tests): see
// electron-native.mjs.
const binding = hasElectron ? await electronBindingOr('starting the browser host instead') : null;
if (!hasElectron)
  console.log(
    'Electron is not installed on this machine (its binary is downloaded from GitHub); starting the browser host instead.',
  );
const [command, args, env] = binding
  ? [process.execPath, [binEntry('electron-vite'), 'dev', ...extra], electronEnv(binding)]
  : [process.execPath, ['--import', 'tsx', 'electron/browser-host/cli.ts', ...extra], process.env];
const child = spawn(command, args, { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
