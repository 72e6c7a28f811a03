/** One action of a fault menu (a lane's, a topology node's): the menu closes first, then it acts. */
export function MenuItem({ label, close, act }: { label: string; close(): void; act(): void }) {
  return (
    <button
      type="button"
      role="menuitem"
      onClick={() => {
        close();
        act();
      }}
    >
      {label}
    </button>
  );
}
