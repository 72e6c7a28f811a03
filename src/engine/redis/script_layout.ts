/**
 * How a script is shown, line by line, when that is not how it is written. Redisson builds its
 * scripts from Java string literals joined without newlines, so Redis compiles one long line and
 * Lua's own line numbers say nothing. A script registered here keeps its exact text (what runs,
 * what is hashed, what error messages quote), and a traced run reports the line of the layout
 * instead: each instruction is mapped through a second compile of the same tokens with a newline
 * between the pieces, which gives the same instructions with different line numbers.
 */
const layouts = new Map<string, readonly string[]>();

/** `pieces` joined with nothing must be `text`; breaking between them must not split a token. */
export function registerScriptLayout(text: string, pieces: readonly string[]): void {
  if (pieces.join('') !== text) throw new Error('script layout: the pieces do not make the text');
  if (!layouts.has(text)) layouts.set(text, pieces);
}

/** The layout's pieces for this exact text, or undefined (the script's own lines are its layout). */
export function scriptLayout(text: string): readonly string[] | undefined {
  return layouts.get(text);
}
