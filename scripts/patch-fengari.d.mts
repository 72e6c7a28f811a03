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
/** A module the patch drops: the text it starts with, its exact length and SHA-256, its stub. */
export interface Drop {
  id: string;
  what: string;
  start: string;
  length: number;
  sha256: string;
  replace: string;
}
export declare const HUNKS: Hunk[];
export declare const DROPS: Drop[];
export declare function applyPatch(text: string): {
  text: string;
  applied: boolean;
  dropped: Record<string, string>;
};
export declare function revertPatch(text: string, only?: Hunk[], dropped?: Record<string, string>): string;
export declare function patchProblems(text: string): string[];
export declare function fengariWebBundle(root?: string): { file: string; version: string };
export declare function droppedFile(bundle: string): string;
export declare function readDropped(bundle: string): Record<string, string> | undefined;
