// Types of patch-fengari.mjs for the TypeScript that imports it (the bench and the patch's test).
export declare const PATCH_VERSION: number;
export declare const MARKER: string;
export declare const FENGARI_WEB_VERSION: string;
export interface Hunk {
  id: string;
  find: string;
  replace: string;
  count: number;
}
export declare const HUNKS: Hunk[];
export declare function applyPatch(text: string): { text: string; applied: boolean };
export declare function revertPatch(text: string, only?: Hunk[]): string;
export declare function patchProblems(text: string): string[];
export declare function fengariWebBundle(root?: string): { file: string; version: string };
