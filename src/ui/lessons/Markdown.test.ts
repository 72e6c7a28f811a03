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
  it('links within the page (#scenario=, #lesson=) and to sources (http, https, in a new tab) only', () => {
    expect(parts('see [the incident](#scenario=incident-holder-loses-redis).')).toEqual([
      'see ',
      ['a', '#scenario=incident-holder-loses-redis'],
      '.',
    ]);
    expect(parts('[step 2](#lesson=cluster&step=2)')).toEqual([['a', '#lesson=cluster&step=2']]);
    expect(parts('[a source](https://example.com/x)')).toEqual([['a', 'https://example.com/x']]);
    const src = inline('[s](https://example.com)')[0] as ReactElement<{ target?: string; rel?: string }>;
    expect(src.props).toMatchObject({ target: '_blank', rel: 'noreferrer' });
    // anything else stays text
    expect(parts('[x](javascript:alert(1))')).toEqual(['[x](javascript:alert(1))']);
    expect(parts('[x](#s=abc)')).toEqual(['[x](#s=abc)']);
    expect(parts('[x](ftp://example.com)')).toEqual(['[x](ftp://example.com)']);
  });

  it('keeps code and bold', () => {
    expect(parts('`a` and **b**')).toEqual([['code', null], ' and ', ['strong', null]]);
  });
});
