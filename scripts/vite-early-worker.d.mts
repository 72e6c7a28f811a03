// Types of vite-early-worker.mjs for vite.config.ts and its test.
import type { Plugin } from 'vite';
export declare const EARLY_WORKER_GLOBAL: string;
export declare function earlyWorkerScript(url: string): string;
export declare function earlyWorkerPlugin(): Plugin;
