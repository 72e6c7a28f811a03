import { useT } from '../hooks/useT';
import { togglePlay } from '../hooks/usePlayback';
import { useEffect, useState } from 'react';
import { Icon } from './icons';
import { ExploreButton } from '../explore/ExploreButton';
import { clockAt, jumpLockEvent, setCursor, SPEEDS, stepCursor, usePlayground } from '../store';

/** Play/pause, stepping, jumps, speed and the scrubber. Every control has an accessible name. */
export function Transport() {
  const t = useT();
  const playing = usePlayground((s) => s.playing);
  const cursor = usePlayground((s) => s.cursor);
  const n = usePlayground((s) => s.run?.trace.events.length ?? 0);
  const clock = usePlayground(clockAt);
  const speed = usePlayground((s) => s.speed);
  const running = usePlayground((s) => s.running);
  const embed = usePlayground((s) => s.embed);
  const stop = () => usePlayground.setState({ playing: false });

  return (
    <div className="transport" role="toolbar" aria-label={t('transport.label')}>
      <div className="transport__buttons">
        <button
          type="button"
          className="tbtn"
          aria-label={t('transport.start')}
          title={t('transport.start')}
          onClick={() => (stop(), setCursor(-1))}
        >
          <Icon name="start" />
        </button>
        <button
          type="button"
          className="tbtn"
          aria-label={t('transport.prevLock')}
          title={t('transport.prevLock')}
          onClick={() => jumpLockEvent(-1)}
        >
          <Icon name="prevLock" />
        </button>
        <button
          type="button"
          className="tbtn"
          data-testid="step-back"
          aria-label={t('transport.stepBack')}
          title={t('transport.stepBack')}
          onClick={() => stepCursor(-1)}
        >
          <Icon name="back" />
        </button>
        <button
          type="button"
          className="tbtn tbtn--play"
          data-testid="play"
          aria-label={playing ? t('transport.pause') : t('transport.play')}
          aria-pressed={playing}
          disabled={n === 0}
          onClick={togglePlay}
        >
          <Icon name={playing ? 'pause' : 'play'} />
        </button>
        <button
          type="button"
          className="tbtn"
          data-testid="step-forward"
          aria-label={t('transport.stepForward')}
          title={t('transport.stepForward')}
          onClick={() => stepCursor(1)}
        >
          <Icon name="fwd" />
        </button>
        <button
          type="button"
          className="tbtn"
          aria-label={t('transport.nextLock')}
          title={t('transport.nextLock')}
          onClick={() => jumpLockEvent(1)}
        >
          <Icon name="nextLock" />
        </button>
        <button
          type="button"
          className="tbtn"
          aria-label={t('transport.end')}
          title={t('transport.end')}
          onClick={() => (stop(), setCursor(n - 1))}
        >
          <Icon name="end" />
        </button>
      </div>
      <div className="transport__clock" aria-live="off">
        <span className="transport__clock-label">{t('transport.clock')}</span>
        <span className="transport__clock-value">
          <span data-testid="clock">{clock}</span> {t('unit.msSuffix')}
        </span>
        <span className="transport__event">
          {t('transport.event')} {cursor + 1}/{n}
        </span>
      </div>
      <input
        className="transport__scrubber"
        type="range"
        min={-1}
        max={Math.max(-1, n - 1)}
        step={1}
        value={cursor}
        aria-label={t('transport.scrubber')}
        onChange={(e) => (stop(), setCursor(Number(e.target.value)))}
      />
      <label className="transport__speed">
        <span>{t('transport.speed')}</span>
        <select
          value={speed}
          data-testid="speed"
          onChange={(e) => {
            e.target.blur();
            usePlayground.setState({ speed: Number(e.target.value) });
          }}
        >
          {/* the scenario's own default speed, when it is not one of the presets */}
          {[...SPEEDS, ...(SPEEDS.some((v) => v === speed) ? [] : [speed])]
            .sort((a, b) => a - b)
            .map((v) => (
              <option key={v} value={v}>
                {v}×
              </option>
            ))}
        </select>
      </label>
      {!embed && <ExploreButton />}
      {running && <RunProgress />}
      <span className="transport__keys">{t('transport.keys')}</span>
      <span className="transport__touch">{t('transport.keysTouch')}</span>
    </div>
  );
}

function RunProgress() {
  const t = useT();
  const startedAt = usePlayground((s) => s.runStartedAt);
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    const id = setInterval(() => setNow(performance.now()), 250);
    return () => clearInterval(id);
  }, []);
  const seconds = Math.max(0, (now - startedAt) / 1000);
  return (
    <span className="run-progress" role="status">
      <progress aria-label={t('run.progress')} />
      {t('run.running')} {seconds >= 0.5 ? `${seconds.toFixed(1)} s` : ''}
    </span>
  );
}
