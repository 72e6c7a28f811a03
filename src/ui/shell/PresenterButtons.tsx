import { useT } from '../hooks/useT';
import { useLearn, usePlayground } from '../store';
import { togglePresenter } from './presenter';

/** Present / End presenting, and while presenting the Panels fold; the header's and the lesson's. */
export function PresenterButtons({ className, testId }: { className: string; testId: string }) {
  const t = useT();
  const presenter = usePlayground((s) => s.presenter);
  const panels = useLearn((s) => s.panels);
  return (
    <>
      <button
        type="button"
        className={className}
        data-testid={testId}
        aria-pressed={presenter}
        onClick={togglePresenter}
      >
        {presenter ? t('learn.endPresent') : t('learn.present')}
      </button>
      {presenter && (
        <button
          type="button"
          className={className}
          aria-pressed={panels}
          onClick={() => useLearn.setState({ panels: !panels })}
        >
          {t('learn.panels')}
        </button>
      )}
    </>
  );
}
