/** localStorage, or null where the browser refuses it (private mode, a sandboxed iframe). */
export function safeStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}
