/** Transport icons as inline SVG: no icon font, no emoji that a system may lack. */
const P = {
  start: 'M3 2h2v12H3zM14 2v12L6 8z',
  end: 'M11 2h2v12h-2zM2 2v12l8-6z',
  back: 'M12 2v12L4 8z',
  fwd: 'M4 2v12l8-6z',
  prevLock: 'M2 2h2v12H2zM9 2v12L5 8zM15 2v12l-4-6z',
  nextLock: 'M12 2h2v12h-2zM7 2v12l4-6zM1 2v12l4-6z',
  play: 'M4 2v12l10-6z',
  pause: 'M3 2h4v12H3zM9 2h4v12H9z',
};

export type IconName = keyof typeof P;

export function Icon({ name }: { name: IconName }) {
  return (
    <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d={P[name]} fill="currentColor" />
    </svg>
  );
}
