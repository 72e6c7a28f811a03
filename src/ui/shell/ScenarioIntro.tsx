import { usePlayground } from '../store';

/** What the scenario is about, in the reader's language: the built-in's text or the scenario's own. */
export function ScenarioIntro() {
  const lang = usePlayground((s) => s.lang);
  const builtin = usePlayground((s) => s.builtins.find((b) => b.id === s.builtinId));
  const scenario = usePlayground((s) => s.scenario) as { title?: unknown; description?: unknown } | null;
  const title = builtin ? (lang === 'zh' && builtin.titleZh) || builtin.title : scenario?.title;
  const text = builtin
    ? (lang === 'zh' && builtin.descriptionZh) || builtin.description
    : scenario?.description;
  if (typeof title !== 'string' && typeof text !== 'string') return null;
  return (
    <div className="intro">
      {typeof title === 'string' && <h2 className="intro__title">{title}</h2>}
      {typeof text === 'string' && <p className="intro__text">{text}</p>}
    </div>
  );
}
