export function App() {
  return (
    <main className="placeholder">
      <h1>LockScope</h1>
      <p>
        A visual simulator for Redisson&apos;s distributed lock, running the real lock scripts on a simulated
        Redis in your browser. The playground is being built.
      </p>
    </main>
  );
}
