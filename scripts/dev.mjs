#!/usr/bin/env node
// `npm run dev`: electron-vite's dev server with hot reload when Electron is here; else the browser host.
import { spawn } from 'node:child_process';
import { electronBinary } from './electron-binary.mjs';

const extra = process.argv.slice(2);
const [command, args] = electronBinary()
  ? ['npx', ['electron-vite', 'dev', ...extra]]
  : (console.log('Electron is not installed on this machine (its binary is downloaded from GitHub); starting the browser host instead.'),
    ['npx', ['tsx', 'electron/browser-host/cli.ts', ...extra]]);
const child = spawn(command, args, { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
