import { describe, expect, it } from 'vitest';
import { isValidElement, type ReactElement } from 'react';
import { inline } from './Markdown';

const parts = (text: string) =>
  inline(text).map((n) =>
    isValidElement(n)
      ? [(n as ReactElement).type, (n as ReactElement<{ href?: string }>).props.href ?? null]
      : n,
  );

describe('lesson markdown', () => {
  it('links within the page only: #scenario= and #lesson=', () => {
    expect(parts('see [the incident](#scenario=incident-holder-loses-redis).')).toEqual([
      'see ',
      ['a', '#scenario=incident-holder-loses-redis'],
      '.',
    ]);
    expect(parts('[step 2](#lesson=cluster&step=2)')).toEqual([['a', '#lesson=cluster&step=2']]);
    // anything else stays text
    expect(parts('[x](javascript:alert(1))')).toEqual(['[x](javascript:alert(1))']);
    expect(parts('[x](https://example.com)')).toEqual(['[x](https://example.com)']);
  });

  it('keeps code and bold', () => {
    expect(parts('`a` and **b**')).toEqual([['code', null], ' and ', ['strong', null]]);
  });
});
