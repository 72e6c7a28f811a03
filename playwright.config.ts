import { defineConfig } from '@playwright/test';

// Debian's Chromium, never a downloaded browser (the machine has no route to browser CDNs).
const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
// Under CI a fresh random port, so a preview server left running on the machine can never be
// mistaken for this build; locally 4317, reused between runs. Workers inherit the env we set here.
// Below Linux's ephemeral range (32768-60999 by default): a port drawn inside it was once taken by
// an outgoing connection's local end, and the preview server could not start.
if (!process.env.E2E_PORT && process.env.CI)
  process.env.E2E_PORT = String(20000 + Math.floor(Math.random() * 12000));
const port = Number(process.env.E2E_PORT || 4317);

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}/`,
    launchOptions: {
      executablePath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${port} --strictPort`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
