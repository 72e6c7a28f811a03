import { describe, expect, it } from 'vitest';
import { Recorder, type EventObserver, type EventSink } from './recorder';

const sink: EventSink = { push: () => {}, setKey: () => {}, clearNode: () => {} };

function recorder(onKey: (r: Recorder, node: string, key: string | null) => void = () => {}) {
  const heard: string[] = [];
  const r = new Recorder(() => 0, sink);
  const o: EventObserver = {
    onEvent: () => {},
    onKey: (node, key) => {
      heard.push(`${node}/${key}`);
      onKey(r, node, key);
    },
  };
  r.observe(o);
  return { r, heard };
}

describe('Recorder key batches', () => {
  it('tells observers of a batch after its last change, in order; a nested batch joins the outer one', () => {
    const { r, heard } = recorder();
    r.batch(() => {
      r.setKey('m', 'a', null);
      expect(heard).toEqual([]);
      r.batch(() => r.setKey('m', 'b', null));
      expect(heard).toEqual([]);
      const opened = r.openBatch();
      expect(opened).toBe(false);
      r.setKey('m', 'c', null);
      r.closeBatch(opened);
      expect(heard).toEqual([]);
    });
    expect(heard).toEqual(['m/a', 'm/b', 'm/c']);
    r.setKey('m', 'd', null);
    expect(heard).toEqual(['m/a', 'm/b', 'm/c', 'm/d']);
  });

  it('a batch an observer opens while hearing of another keeps both in order', () => {
    const { r, heard } = recorder((rec, _node, key) => {
      if (key === 'a')
        rec.batch(() => {
          rec.setKey('n', 'x', null);
          rec.setKey('n', 'y', null);
        });
    });
    const opened = r.openBatch();
    r.setKey('m', 'a', null);
    r.setKey('m', 'b', null);
    r.closeBatch(opened);
    expect(heard).toEqual(['m/a', 'n/x', 'n/y', 'm/b']);
    // and the next batch starts empty
    r.batch(() => r.setKey('m', 'c', null));
    expect(heard).toEqual(['m/a', 'n/x', 'n/y', 'm/b', 'm/c']);
  });

  it('a batch whose function throws tells nothing, and the next one starts empty', () => {
    const { r, heard } = recorder();
    expect(() =>
      r.batch(() => {
        r.setKey('m', 'a', null);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(heard).toEqual([]);
    r.batch(() => r.setKey('m', 'b', null));
    expect(heard).toEqual(['m/b']);
  });
});
