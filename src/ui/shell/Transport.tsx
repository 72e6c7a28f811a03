import { useT } from '../hooks/useT';
import { togglePlay } from '../hooks/usePlayback';
import { useEffect, useState } from 'react';
import { Icon, type IconName } from './icons';
import type { MessageKey } from '../i18n';
import { ExploreButton } from '../explore/ExploreButton';
import { clockAt, eventCount, jumpLockEvent, setCursor, SPEEDS, stepCursor, usePlayground } from '../store';

/** Play/pause, stepping, jumps, speed and the scrubber. Every control has an accessible name. */
export function Transport() {
  const t = useT();
  const playing = usePlayground((s) => s.playing);
  const cursor = usePlayground((s) => s.cursor);
  const n = usePlayground(eventCount);
  const clock = usePlayground(clockAt);
  const speed = usePlayground((s) => s.speed);
  const running = usePlayground((s) => s.running);
  const embed = usePlayground((s) => s.embed);
  const stop = () => usePlayground.setState({ playing: false });

  return (
    <div className="transport" role="toolbar" aria-label={t('transport.label')}>
      <div className="transport__buttons">
        <StepButton label="transport.start" icon="start" onClick={() => (stop(), setCursor(-1))} />
        <StepButton label="transport.prevLock" icon="prevLock" onClick={() => jumpLockEvent(-1)} />
        <StepButton
          label="transport.stepBack"
          icon="back"
          testId="step-back"
          onClick={() => stepCursor(-1)}
        />
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
        <StepButton
          label="transport.stepForward"
          icon="fwd"
          testId="step-forward"
          onClick={() => stepCursor(1)}
        />
        <StepButton label="transport.nextLock" icon="nextLock" onClick={() => jumpLockEvent(1)} />
        <StepButton label="transport.end" icon="end" onClick={() => (stop(), setCursor(n - 1))} />
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

/** A step or jump button: an icon whose tooltip is also its accessible name. */
function StepButton(props: { label: MessageKey; icon: IconName; testId?: string; onClick: () => void }) {
  const t = useT();
  return (
    <button
      type="button"
      className="tbtn"
      data-testid={props.testId}
      aria-label={t(props.label)}
      title={t(props.label)}
      onClick={props.onClick}
    >
      <Icon name={props.icon} />
    </button>
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
