import { describe, expect, it } from 'vitest';
import { array, bulk, error, int, NIL, NIL_ARRAY, status, type Reply } from '../redis/reply';
import { replyFromJson, replyToJson } from './reply_json';

describe('reply JSON form', () => {
  it('round-trips every reply type through JSON text', () => {
    const replies: Reply[] = [
      bulk('x'),
      bulk(''),
      NIL,
      int(0),
      int(-7),
      int(2n ** 62n),
      status('OK'),
      error('WRONGTYPE Operation against a key holding the wrong kind of value'),
      array([int(1), bulk('a'), array([status('QUEUED'), NIL])]),
    ];
    for (const r of replies) {
      expect(replyFromJson(JSON.parse(JSON.stringify(replyToJson(r))))).toEqual(r);
    }
  });

  it('reads a nil array back as nil (RESP2 shows both as (nil))', () => {
    expect(replyFromJson(replyToJson(NIL_ARRAY))).toEqual(NIL);
  });
});
