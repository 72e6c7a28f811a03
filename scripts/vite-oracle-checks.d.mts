// Types of vite-oracle-checks.mjs for vite.config.ts.
import type { Plugin } from 'vite';
export declare function agreeingRecordings(dir?: string): [string, string, string, string][];
export declare function oracleChecksPlugin(): Plugin;
